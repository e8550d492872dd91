"""Hostile-but-fair requests to a real ``faucet serve`` (uvicorn on 127.0.0.1, httpx) on a
SQLite file and on PostgreSQL: every client mistake is a 4xx with a JSON error, the same
on both stores, and audited as ``expected/hostile.json`` says."""

from __future__ import annotations

import gzip
import json
import os
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from faucet_core.catalog import Catalog
from faucet_core.store.audit import list_audit
from faucet_dagster.location import CodeLocation
from faucet_dagster.serve import create_app
from tests.faucet_core.lineage.helpers import complete_event
from tests.faucet_dagster.plan.test_cli import CRM, _record
from tests.faucet_dagster.server.conftest import TABLE, auth, serving

EXPECTED = Path(__file__).parent / "expected" / "hostile.json"
CONSUMERS = f"/v1/catalog/datasets/{CRM.id}/consumers"
DIGITS = "7" * 5000
DEEP = "[" * 50_000 + "]" * 50_000


def _event(**changes: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    event = complete_event()
    for change in changes.values():
        change(event)
    return event


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def apply(event: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = event
        for part in parents:
            node = node[int(part)] if part.isdigit() else node[part]
        node[last] = value

    return apply


def _zeros_gzip(size: int) -> bytes:
    """``size`` zero bytes, gzipped without ever holding them (a decompression bomb)."""
    pack = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = bytes(1024 * 1024)
    out = [pack.compress(block) for _ in range(size // len(block))]
    return b"".join([*out, pack.flush()])


GZIP = {"Content-Encoding": "gzip"}
JSON_BYTES = {"Content-Type": "application/json"}

# id -> (method, path, role, body: bytes | JSON | None, extra headers)
CASES: dict[str, tuple[str, str, str | None, Any, dict[str, str]]] = {
    "plan-nested-50000-deep": (
        "POST",
        "/v1/plan",
        "viewer",
        ('{"select": "customers", "sample": [{"x": ' + DEEP + "}]}").encode(),
        JSON_BYTES,
    ),
    "plan-depth-5000-digits": (
        "POST",
        "/v1/plan",
        "viewer",
        ('{"select": "customers", "depth": ' + DIGITS + "}").encode(),
        JSON_BYTES,
    ),
    "plan-sample-5000-digits": (
        "POST",
        "/v1/plan",
        "viewer",
        ('{"select": "customers", "sample": [{"id": ' + DIGITS + "}]}").encode(),
        JSON_BYTES,
    ),
    "plan-sample-lone-surrogate": (
        "POST",
        "/v1/plan",
        "viewer",
        b'{"select": "customers", "sample": [{"mail": "a\\ud800b"}]}',
        JSON_BYTES,
    ),
    "plan-not-utf8": ("POST", "/v1/plan", "viewer", b'{"select": "\xff"}', JSON_BYTES),
    "audit-limit-superscript": ("GET", "/v1/audit?limit=%C2%B2", "admin", None, {}),
    "audit-limit-5000-digits": ("GET", "/v1/audit?limit=" + DIGITS, "admin", None, {}),
    "audit-actor-nul": ("GET", "/v1/audit?actor=a%00b", "admin", None, {}),
    "audit-action-65": ("GET", "/v1/audit?action=" + "a" * 65, "admin", None, {}),
    "consumers-kind-65": (
        "POST",
        CONSUMERS,
        "operator",
        {"consumers": [{"name": "dash", "kind": "k" * 65}]},
        {},
    ),
    "consumers-contact-513": (
        "POST",
        CONSUMERS,
        "operator",
        {"consumers": [{"name": "dash", "contact": "c" * 513}]},
        {},
    ),
    "consumers-name-257": ("POST", CONSUMERS, "operator", {"consumers": [{"name": "n" * 257}]}, {}),
    "consumers-name-nul": ("POST", CONSUMERS, "operator", {"consumers": [{"name": "da\0sh"}]}, {}),
    "consumers-owner-nul": ("POST", CONSUMERS, "operator", {"owners": ["team\0b"]}, {}),
    "consumers-nested-50000-deep": (
        "POST",
        CONSUMERS,
        "operator",
        ('{"owners": ' + DEEP + "}").encode(),
        JSON_BYTES,
    ),
    "consumers-id-nul": (
        "POST",
        "/v1/catalog/datasets/s3:%2F%2Flake%2Fa%00b/consumers",
        "operator",
        {"owners": ["team-b"]},
        {},
    ),
    "dataset-id-too-long": (
        "GET",
        "/v1/catalog/datasets/s3://lake/" + "x" * 2100,
        "viewer",
        None,
        {},
    ),
    "lineage-job-name-600": (
        "POST",
        "/api/v1/lineage",
        "ingest",
        _event(job=_set("job.name", "j" * 600)),
        {},
    ),
    "lineage-run-id-300": (
        "POST",
        "/api/v1/lineage",
        "ingest",
        _event(run=_set("run.runId", "r" * 300)),
        {},
    ),
    "lineage-dataset-name-nul": (
        "POST",
        "/api/v1/lineage",
        "ingest",
        _event(name=_set("outputs.0.name", "mart\0orders")),
        {},
    ),
    "lineage-job-namespace-nul": (
        "POST",
        "/api/v1/lineage",
        "ingest",
        _event(ns=_set("job.namespace", "air\0flow")),
        {},
    ),
    "lineage-5000-digits": (
        "POST",
        "/api/v1/lineage",
        "ingest",
        b'{"eventTime": ' + DIGITS.encode() + b"}",
        JSON_BYTES,
    ),
    "lineage-nested-50000-deep": (
        "POST",
        "/api/v1/lineage",
        "ingest",
        ('{"eventTime": "2026-01-01T00:00:00Z", "x": ' + DEEP + "}").encode(),
        JSON_BYTES,
    ),
    "lineage-lone-surrogate": (
        "POST",
        "/api/v1/lineage",
        "ingest",
        json.dumps(complete_event()).replace('"etl.load_orders"', '"etl\\udc00"').encode(),
        JSON_BYTES,
    ),
    "lineage-gzip-bomb": ("POST", "/api/v1/lineage", "ingest", _zeros_gzip(32 << 20), GZIP),
    "lineage-gzip-truncated": (
        "POST",
        "/api/v1/lineage",
        "ingest",
        gzip.compress(json.dumps(complete_event()).encode())[:-12],
        GZIP,
    ),
    "no-route": ("GET", "/v1/nothing-here", None, None, {}),
    "wrong-method": ("GET", "/v1/plan", "viewer", None, {}),
}


def _observe(url: str, store_url: str, case: str) -> dict[str, Any]:
    method, path, role, body, headers = CASES[case]
    headers = {**headers, **(auth(role) if role else {})}
    kwargs: dict[str, Any] = {"headers": headers, "timeout": 60}
    if isinstance(body, bytes):
        kwargs["content"] = body
    elif body is not None:
        kwargs["json"] = body
    with Catalog(store_url) as catalog:
        before = {e.id for e in list_audit(catalog.engine, limit=10_000)}
        r = httpx.request(method, url + path, **kwargs)
        new = [e for e in list_audit(catalog.engine, limit=10_000) if e.id not in before]
    answer = r.json()  # every answer is JSON
    seen: dict[str, Any] = {"status": r.status_code, "answer": answer}
    seen["audit"] = [[e.action, e.actor, e.outcome.value, e.status] for e in new]
    for entry in new:  # the audit entry records the same error the client got
        assert entry.detail.get("error") == answer.get("error")
    return seen


def test_malformed_requests_are_4xx_json_and_audited_alike_on_each_store(
    store_url: str, location: CodeLocation
) -> None:
    _record(store_url)
    with Catalog(store_url) as catalog:
        before = (catalog.detail(CRM.id).to_dict(), catalog.counts())
    with serving(create_app(location, TABLE, store_url)) as url:
        seen = {case: _observe(url, store_url, case) for case in CASES}
    if os.environ.get("FAUCET_REGENERATE_FIXTURES") == "1":
        EXPECTED.write_text(json.dumps(seen, indent=2, sort_keys=True) + "\n")
    assert seen == json.loads(EXPECTED.read_text())
    assert all(400 <= s["status"] < 500 for s in seen.values())
    with Catalog(store_url) as catalog:  # nothing was written by any of them
        assert (catalog.detail(CRM.id).to_dict(), catalog.counts()) == before


@pytest.mark.parametrize("case", ["lineage-job-name-600", "lineage-run-id-300"])
def test_the_same_events_are_refused_by_lineage_ingest_from_a_file(
    case: str, tmp_path: Path, sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from faucet_dagster.cli import main

    path = tmp_path / "events.json"
    path.write_text(json.dumps(CASES[case][3]))
    assert main(["lineage", "ingest", str(path), "--store", sqlite_url]) == 1
    expected = json.loads(EXPECTED.read_text())[case]["answer"]["rejected"][0]["reason"]
    err = capsys.readouterr().err
    assert f"event 0 ({path} line 1): {expected}" in err
    assert "Traceback" not in err
