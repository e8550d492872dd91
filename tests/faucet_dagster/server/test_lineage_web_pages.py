"""What a web page can send to ``POST /api/v1/lineage`` is refused: a foreign ``Origin``,
a ``Host`` that is not the receiver's (DNS rebinding), a body not declared as JSON. Real
uvicorn servers on 127.0.0.1, real SQLite stores; the same requests a browser sends (the
Chromium runs are in ``test_lineage_browser.py``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core.catalog import Catalog
from faucet_core.store.audit import Outcome, list_audit
from faucet_dagster.location import CodeLocation
from faucet_dagster.serve import TokenTable, create_app, create_lineage_app
from faucet_dagster.serve.api.browser_rules import BrowserRules, host_name, rules_for
from tests.faucet_core.lineage.helpers import complete_event
from tests.faucet_dagster.server.conftest import TABLE, auth, serving

LINEAGE = "/api/v1/lineage"
EVIL = "http://evil.example"


def attacker_event() -> dict[str, Any]:
    """The COMPLETE event with its output owned by ``attacker``."""
    event = complete_event()
    event["outputs"][0]["facets"]["ownership"]["owners"] = [{"name": "attacker"}]
    return event


def _owners(catalog: Catalog) -> set[str]:
    return {o for entry in catalog.datasets() for o in entry.owners}


@pytest.fixture
def tokenless(sqlite_url: str) -> Iterator[tuple[Catalog, str]]:
    with Catalog(sqlite_url) as catalog:
        app = create_lineage_app(catalog, TokenTable([]), allowed_hosts=["lineage.internal"])
        with serving(app) as url:
            yield catalog, url


def _post(url: str, headers: dict[str, str], body: bytes | None = None) -> httpx.Response:
    data = json.dumps(attacker_event()).encode() if body is None else body
    return httpx.post(url + LINEAGE, content=data, headers=headers)


# (headers a page can make a browser send, status, the start of the error)
REFUSED = {
    "no-cors-text-plain-foreign-origin": (
        {"Content-Type": "text/plain;charset=UTF-8", "Origin": EVIL},
        403,
        "Origin 'http://evil.example' is not this receiver (http://127.0.0.1:",
    ),
    "json-foreign-origin": (
        {"Content-Type": "application/json", "Origin": EVIL},
        403,
        "Origin 'http://evil.example' is not this receiver",
    ),
    "opaque-origin-null": (
        {"Content-Type": "application/json", "Origin": "null"},
        403,
        "Origin 'null' is not this receiver",
    ),
    "text-plain-no-origin": (
        {"Content-Type": "text/plain"},
        415,
        "Content-Type 'text/plain' is not JSON: send the events as application/json",
    ),
    "form-encoded": (
        {"Content-Type": "application/x-www-form-urlencoded"},
        415,
        "Content-Type 'application/x-www-form-urlencoded' is not JSON",
    ),
    "blob-without-type": ({}, 415, "Content-Type none is not JSON"),
    "dns-rebinding-host": (
        {"Content-Type": "application/json", "Host": "rebind.evil.example:5000"},
        421,
        "Host 'rebind.evil.example:5000' does not name this receiver (it answers to "
        "127.0.0.1, lineage.internal, localhost)",
    ),
    "rebinding-with-its-own-origin": (
        {
            "Content-Type": "text/plain",
            "Host": "rebind.evil.example",
            "Origin": "http://rebind.evil.example",
        },
        421,
        "Host 'rebind.evil.example' does not name this receiver",
    ),
}


@pytest.mark.parametrize("case", list(REFUSED), ids=list(REFUSED))
def test_without_tokens_what_a_page_sends_is_refused_and_writes_nothing(
    tokenless: tuple[Catalog, str], case: str
) -> None:
    catalog, url = tokenless
    headers, status, message = REFUSED[case]
    r = _post(url, headers)
    assert r.status_code == status, r.text
    assert r.json()["error"].startswith(message)
    assert "attacker" not in _owners(catalog)
    assert catalog.counts()["edges"] == 0
    (entry,) = list_audit(catalog.engine)
    assert (entry.action, entry.outcome, entry.status) == ("lineage.ingest", Outcome.DENIED, status)


@pytest.mark.parametrize(
    "headers",
    [
        pytest.param({"Content-Type": "application/json"}, id="json"),
        pytest.param({"Content-Type": "application/json; charset=utf-8"}, id="json-charset"),
        pytest.param({"Content-Type": "application/x-ndjson"}, id="json-lines"),
        pytest.param({"Content-Type": "Application/JSON", "Host": "localhost:1"}, id="localhost"),
        pytest.param({"Content-Type": "application/json", "Host": "lineage.internal"}, id="listed"),
    ],
)
def test_without_tokens_an_openlineage_client_still_posts(
    tokenless: tuple[Catalog, str], headers: dict[str, str]
) -> None:
    catalog, url = tokenless
    r = _post(url, headers)
    assert r.status_code == 201, r.text
    assert "attacker" in _owners(catalog)


def test_an_origin_of_this_receiver_is_accepted(tokenless: tuple[Catalog, str]) -> None:
    _catalog, url = tokenless
    r = _post(url, {"Content-Type": "application/json", "Origin": url})
    assert r.status_code == 201, r.text


def test_a_flood_of_refusals_is_audited_as_a_group(tokenless: tuple[Catalog, str]) -> None:
    catalog, url = tokenless
    for _ in range(20):
        assert _post(url, {"Content-Type": "text/plain", "Origin": EVIL}).status_code == 403
    assert len(list_audit(catalog.engine)) == 1  # the repeats are counted, written once


def test_faucet_serve_refuses_a_foreign_origin_even_with_a_token(
    sqlite_url: str, location: CodeLocation
) -> None:
    with serving(create_app(location, TABLE, sqlite_url)) as url:
        headers = {**auth("ingest"), "Content-Type": "text/plain", "Origin": EVIL}
        refused = _post(url, headers)
        accepted = _post(url, {**auth("ingest"), "Content-Type": "application/json"})
    assert refused.status_code == 403, refused.text
    assert accepted.status_code == 201, accepted.text
    with Catalog(sqlite_url) as catalog:
        statuses = [(e.outcome, e.status) for e in reversed(list_audit(catalog.engine))]
    assert statuses == [(Outcome.DENIED, 403), (Outcome.OK, 201)]


def test_the_receiver_health_check_does_not_show_the_store(
    tokenless: tuple[Catalog, str], sqlite_url: str
) -> None:
    _catalog, url = tokenless
    r = httpx.get(url + "/healthz")
    assert r.json() == {"status": "ok"}
    assert sqlite_url.split("///")[1] not in r.text


# -- the rules as a function: any Host / Origin text --------------------------------------
HOSTS = frozenset({"127.0.0.1", "localhost"})
TOKENLESS = rules_for(False, "127.0.0.1")


@settings(max_examples=300, deadline=None)
@given(host=st.text(max_size=60), origin=st.none() | st.text(max_size=60))
def test_any_host_other_than_the_receivers_is_refused(host: str, origin: str | None) -> None:
    headers = {"host": host, "content-type": "application/json"}
    if origin is not None:
        headers["origin"] = origin
    refused = TOKENLESS.refuse("http", headers)
    if host_name(host) not in HOSTS:
        assert refused is not None
        assert refused.status_code == 421
    elif origin is not None and origin.strip().lower() != f"http://{host}".lower():
        assert refused is not None
        assert refused.status_code == 403
    else:
        assert refused is None


@settings(max_examples=200, deadline=None)
@given(
    name=st.sampled_from(["127.0.0.1", "localhost", "LocalHost"]),
    port=st.none() | st.integers(0, 65535),
)
def test_the_receivers_own_names_pass_with_any_port(name: str, port: int | None) -> None:
    host = name if port is None else f"{name}:{port}"
    assert TOKENLESS.refuse("http", {"host": host, "content-type": "application/json"}) is None


@settings(max_examples=200, deadline=None)
@given(content_type=st.text(max_size=40))
def test_only_json_media_types_pass(content_type: str) -> None:
    refused = TOKENLESS.refuse("http", {"host": "127.0.0.1", "content-type": content_type})
    media = content_type.split(";")[0].strip().lower()
    json_like = media in {
        "application/json",
        "application/x-ndjson",
        "application/jsonl",
        "application/x-jsonlines",
    } or (media.startswith("application/") and media.endswith("+json"))
    assert (refused is None) == json_like


def test_with_tokens_only_the_origin_rule_applies() -> None:
    rules = rules_for(True, "0.0.0.0")
    assert rules == BrowserRules(hosts=None, json_only=False)
    assert rules.refuse("http", {"host": "anything.example"}) is None
    refused = rules.refuse("https", {"host": "lineage.example", "origin": EVIL})
    assert refused is not None
    assert refused.status_code == 403


@pytest.mark.parametrize(
    ("value", "name"),
    [
        ("127.0.0.1:5000", "127.0.0.1"),
        ("[::1]:5000", "::1"),
        ("[0:0:0:0:0:0:0:1]", "::1"),
        ("LOCALHOST", "localhost"),
        ("localhost:", None),
        ("localhost:http", None),
        ("[::1", None),
        ("[::1]x", None),
        ("evil.example@127.0.0.1", None),
        ("", None),
    ],
)
def test_host_name(value: str, name: str | None) -> None:
    assert host_name(value) == name


def test_the_command_takes_allowed_hosts(sqlite_url: str) -> None:
    from tests.faucet_dagster.server.test_proxy_headers import _running

    args = ["lineage", "serve", "--allowed-host", "lineage.internal"]
    with _running(args, sqlite_url, tokens=False) as url:
        json_type = {"Content-Type": "application/json"}
        listed = _post(url, {**json_type, "Host": "lineage.internal:5000"})
        other = _post(url, {**json_type, "Host": "rebind.evil.example"})
    assert listed.status_code == 201, listed.text
    assert other.status_code == 421


def test_the_receivers_answers_are_not_sniffed_nor_cached(tokenless: tuple[Catalog, str]) -> None:
    _catalog, url = tokenless
    for r in (httpx.get(url + "/healthz"), _post(url, {"Content-Type": "text/plain"})):
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["cache-control"] == "no-store"
