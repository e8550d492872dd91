"""``faucet lineage serve`` behind tokens: a real uvicorn server driven with httpx."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from faucet_core.catalog import Catalog
from faucet_core.errors import ConfigError
from faucet_core.store.audit import Outcome, list_audit
from faucet_dagster.cli import main
from faucet_dagster.serve import TokenTable
from faucet_dagster.serve.api.lineage_app import check_bind, create_lineage_app, is_loopback
from tests.faucet_core.lineage.helpers import complete_event, emit_complete_event
from tests.faucet_dagster.server.conftest import TABLE, TOKENS, auth, serving

LINEAGE = "/api/v1/lineage"


@pytest.fixture
def served(store_url: str) -> Iterator[tuple[Catalog, str]]:
    with Catalog(store_url) as catalog, serving(create_lineage_app(catalog, TABLE)) as url:
        yield catalog, url


@pytest.mark.parametrize(
    ("caller", "status"),
    [
        pytest.param("none", 401, id="no-token"),
        pytest.param("wrong", 401, id="wrong-token"),
        pytest.param("viewer", 403, id="viewer"),
        pytest.param("ingest", 201, id="ingest"),
        pytest.param("operator", 201, id="operator"),
        pytest.param("admin", 201, id="admin"),
    ],
)
def test_tokens_and_roles(served: tuple[Catalog, str], caller: str, status: int) -> None:
    catalog, url = served
    headers = {}
    if caller == "wrong":
        headers = {"Authorization": "Bearer not-a-token-0123456789"}
    elif caller != "none":
        headers = auth(caller)
    r = httpx.post(url + LINEAGE, json=complete_event(), headers=headers)
    assert r.status_code == status, r.text
    (entry,) = list_audit(catalog.engine)
    assert (entry.action, entry.status) == ("lineage.ingest", status)
    if status == 201:
        assert r.json()["accepted"] == 1
        assert (entry.actor, entry.outcome) == (f"{caller}-user", Outcome.OK)
        assert catalog.counts()["edges"] > 0
    else:
        assert catalog.counts()["edges"] == 0
        assert entry.outcome is Outcome.DENIED
    if status == 401:
        assert r.json() == {
            "error": "a valid bearer token is required: Authorization: Bearer <token>"
        }
        assert r.headers["www-authenticate"] == 'Bearer realm="faucet"'
    if status == 403:
        assert r.json() == {
            "error": "viewer-user (viewer) may not POST /api/v1/lineage: it needs operator "
            "or ingest or above"
        }
    for token in TOKENS.values():
        assert token not in r.text


def test_without_tokens_on_loopback_anyone_may_post(sqlite_url: str) -> None:
    with Catalog(sqlite_url) as catalog:
        with serving(create_lineage_app(catalog, TokenTable([]))) as url:
            r = httpx.post(url + LINEAGE, json=complete_event())
            assert r.status_code == 201, r.text
            assert httpx.get(url + "/healthz").json()["status"] == "ok"
            r = httpx.get(url + "/nowhere")
            assert (r.status_code, r.json()) == (
                404,
                {"error": "no route '/nowhere': see the API's routes in docs/serve.md"},
            )
        (entry,) = list_audit(catalog.engine)
        assert (entry.actor, entry.role, entry.outcome) == ("-", "-", Outcome.OK)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.9.1", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("::", False),
        ("10.1.2.3", False),
        ("example.internal", False),
    ],
)
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_refuses_a_non_loopback_bind_without_tokens(
    sqlite_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FAUCET_TOKENS", raising=False)
    code = main(["lineage", "serve", "--host", "0.0.0.0", "--port", "1", "--store", sqlite_url])
    assert code == 1
    assert capsys.readouterr().err == (
        "Error: --host 0.0.0.0 would let anyone on the network write lineage: without tokens "
        "faucet lineage serve listens on loopback only (127.0.0.1, ::1). Set "
        "FAUCET_TOKENS=name:ingest:<token> or pass --tokens FILE\n"
    )
    with pytest.raises(ConfigError):
        check_bind("0.0.0.0", None)
    check_bind("0.0.0.0", TABLE)  # with tokens: allowed
    check_bind("127.0.0.1", None)


def test_the_command_with_tokens_takes_openlineage_pythons_api_key(sqlite_url: str) -> None:
    import os
    import subprocess
    import sys
    import time

    from openlineage.client import OpenLineageClient
    from openlineage.client.transport.http import ApiKeyTokenProvider, HttpConfig, HttpTransport

    from tests.faucet_core.lineage.server import free_port

    port = free_port()
    env = {
        **os.environ,
        "FAUCET_STORE_URL": sqlite_url,
        "FAUCET_TOKENS": f"airflow:ingest:{TOKENS['ingest']}",
    }
    cmd = [sys.executable, "-m", "faucet_dagster.cli.main", "lineage", "serve"]
    proc = subprocess.Popen(
        [*cmd, "--port", str(port)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "faucet lineage serve did not start"
            time.sleep(0.1)
        assert httpx.post(url + LINEAGE, json=complete_event()).status_code == 401
        config = HttpConfig(url=url, auth=ApiKeyTokenProvider({"apiKey": TOKENS["ingest"]}))
        emit_complete_event(OpenLineageClient(transport=HttpTransport(config)))
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=60)
    assert out.decode().splitlines()[1] == (
        "faucet: 1 token(s); posts need an ingest, operator or admin one"
    )
    assert TOKENS["ingest"].encode() not in out + err
    with Catalog(sqlite_url) as catalog:
        entries = list_audit(catalog.engine)
        assert [(e.actor, e.outcome, e.status) for e in reversed(entries)] == [
            ("-", Outcome.DENIED, 401),
            ("airflow", Outcome.OK, 201),
        ]
