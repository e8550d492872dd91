"""A client that abandons its body mid-request: one log line, no traceback, audited as
``aborted`` (status 499). Real uvicorn, a raw socket that hangs up."""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from faucet_core.catalog import Catalog
from faucet_core.store.audit import AuditEntry, Outcome, list_audit
from faucet_dagster.location import CodeLocation
from faucet_dagster.serve import create_app
from faucet_dagster.serve.api.lineage_app import create_lineage_app
from tests.faucet_dagster.server.conftest import TABLE, TOKENS, serving


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def logs() -> Iterator[list[logging.LogRecord]]:
    """Records of faucet's and uvicorn's loggers (uvicorn's do not reach the root)."""
    handler = _Records()
    names = ("faucet", "uvicorn", "uvicorn.error")
    for name in names:
        logging.getLogger(name).addHandler(handler)
    try:
        yield handler.records
    finally:
        for name in names:
            logging.getLogger(name).removeHandler(handler)


def _hang_up(url: str, path: str, token: str) -> None:
    """Send headers promising 10,000 bytes, send 20, close the connection."""
    parts = urlsplit(url)
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nContent-Type: application/json\r\n"
        f"Authorization: Bearer {token}\r\nContent-Length: 10000\r\n\r\n"
    )
    with socket.create_connection((parts.hostname, parts.port)) as sock:
        sock.sendall(head.encode() + b'{"select": "custome')


def _wait_for_entry(store_url: str, action: str) -> AuditEntry:
    deadline = time.monotonic() + 30
    with Catalog(store_url) as catalog:
        while True:
            entries = list_audit(catalog.engine, action=action)
            if entries:
                (entry,) = entries
                return entry
            assert time.monotonic() < deadline, "no audit entry was written"
            time.sleep(0.05)


@pytest.mark.parametrize(
    ("path", "role", "action"),
    [
        ("/v1/plan", "viewer", "plan"),
        ("/api/v1/lineage", "ingest", "lineage.ingest"),
        ("/v1/catalog/datasets/s3://lake/x/consumers", "operator", "catalog.annotate"),
    ],
    ids=["plan", "lineage", "annotate"],
)
def test_faucet_serve_logs_one_line_and_audits_aborted(
    sqlite_url: str,
    location: CodeLocation,
    logs: list[logging.LogRecord],
    path: str,
    role: str,
    action: str,
) -> None:
    with serving(create_app(location, TABLE, sqlite_url)) as url:
        _hang_up(url, path, TOKENS[role])
        entry = _wait_for_entry(sqlite_url, action)
    assert (entry.actor, entry.outcome, entry.status) == (f"{role}-user", Outcome.ABORTED, 499)
    assert not [r for r in logs if r.levelno >= logging.ERROR or r.exc_info]
    (line,) = [r.getMessage() for r in logs if "closed the connection" in r.getMessage()]
    assert line == (
        f"client 127.0.0.1 closed the connection before its POST {path} body was complete"
    )


def test_lineage_serve_audits_aborted_too(sqlite_url: str, logs: list[logging.LogRecord]) -> None:
    with Catalog(sqlite_url) as catalog, serving(create_lineage_app(catalog, TABLE)) as url:
        _hang_up(url, "/api/v1/lineage", TOKENS["ingest"])
        entry = _wait_for_entry(sqlite_url, "lineage.ingest")
    assert (entry.actor, entry.outcome, entry.status) == ("ingest-user", Outcome.ABORTED, 499)
    assert not [r for r in logs if r.levelno >= logging.ERROR or r.exc_info]
    assert len([r for r in logs if "closed the connection" in r.getMessage()]) == 1
