"""``X-Forwarded-For`` is believed only from the proxies named with
``--forwarded-allow-ips``: real ``faucet serve`` / ``faucet lineage serve`` processes
(uvicorn as the command starts it), requests from 127.0.0.1 with forged addresses."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest

from faucet_core.catalog import Catalog
from faucet_core.store.audit import AuditEntry, list_audit
from faucet_dagster.cli import main
from tests.faucet_dagster.plan.test_cli import LOCATION, _record
from tests.faucet_dagster.server.conftest import TOKENS
from tests.faucet_dagster.server.test_cli_serve import ENTRY, _free_port

FORGED = 30


@contextmanager
def _running(args: list[str], store: str, *, tokens: bool = True) -> Iterator[str]:
    port = _free_port()
    env = {
        **os.environ,
        "FAUCET_TOKENS": ",".join(f"{role}-user:{role}:{t}" for role, t in TOKENS.items())
        if tokens
        else "",
    }
    env.pop("FORWARDED_ALLOW_IPS", None)
    cmd = [sys.executable, "-c", ENTRY, *args, "--store", store, "--port", str(port)]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(url + "/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.communicate(timeout=60)


def _forge(url: str, path: str) -> None:
    for i in range(FORGED):
        headers = {"X-Forwarded-For": f"203.0.113.{i}", "X-Forwarded-Proto": "https"}
        assert httpx.post(url + path, json={}, headers=headers).status_code == 401


def _denied(store: str, action: str) -> list[AuditEntry]:
    with Catalog(store) as catalog:
        return list(reversed(list_audit(catalog.engine, action=action, limit=1000)))


@pytest.mark.parametrize(
    ("command", "path", "action"),
    [
        pytest.param(["serve", "-f", LOCATION], "/v1/plan", "plan", id="serve"),
        pytest.param(["lineage", "serve"], "/api/v1/lineage", "lineage.ingest", id="lineage"),
    ],
)
def test_forged_addresses_from_127_0_0_1_are_not_believed(
    sqlite_url: str, command: list[str], path: str, action: str
) -> None:
    _record(sqlite_url)
    with _running(command, sqlite_url) as url:
        _forge(url, path)
    first, summary = _denied(sqlite_url, action)  # one group: the first, then the count
    assert first.detail["client"] == "127.0.0.1"
    assert (summary.detail["client"], summary.detail["repeats"]) == ("127.0.0.1", FORGED - 1)


def test_the_named_proxy_is_believed(sqlite_url: str) -> None:
    _record(sqlite_url)
    args = ["serve", "-f", LOCATION, "--forwarded-allow-ips", "127.0.0.1"]
    with _running(args, sqlite_url) as url:
        _forge(url, "/v1/plan")
    clients = [e.detail["client"] for e in _denied(sqlite_url, "plan")]
    assert clients == [f"203.0.113.{i}" for i in range(FORGED)]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        pytest.param(
            "10.0.0.300",
            "Error: --forwarded-allow-ips: '10.0.0.300' is not an IP address or network: give "
            "the proxies' addresses (e.g. 127.0.0.1, 10.0.0.0/8), or * to believe any client\n",
            id="bad-address",
        ),
        pytest.param(
            ",",
            "Error: --forwarded-allow-ips ',' names no address: give the proxies' addresses "
            "or networks, comma-separated (e.g. 127.0.0.1 or 10.0.0.0/8)\n",
            id="empty",
        ),
    ],
)
def test_a_bad_proxy_list_is_refused_before_serving(
    sqlite_url: str, capsys: pytest.CaptureFixture[str], value: str, message: str
) -> None:
    code = main(["lineage", "serve", "--store", sqlite_url, "--forwarded-allow-ips", value])
    assert code == 1
    assert capsys.readouterr().err == message
