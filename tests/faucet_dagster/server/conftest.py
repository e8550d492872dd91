"""A real ``faucet serve`` app under uvicorn on 127.0.0.1 (a free port, in a thread),
over the plan tests' code location and a catalog with Dagster and OpenLineage datasets."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
import uvicorn
from starlette.applications import Starlette

from faucet_dagster.location import CodeLocation, load_code_location
from faucet_dagster.serve import Role, TokenTable, create_app
from tests.faucet_dagster.plan.test_cli import LOCATION, _record

TOKENS = {
    "admin": "admin-token-0123456789abcdef",
    "operator": "operator-token-0123456789abc",
    "viewer": "viewer-token-0123456789abcdef",
    "ingest": "ingest-token-0123456789abcdef",
}
TABLE = TokenTable([(f"{role}-user", Role(role), token) for role, token in TOKENS.items()])


def auth(role: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKENS[role]}"}


@contextmanager
def serving(app: Starlette) -> Iterator[str]:
    """Run ``app`` under uvicorn on a free port of 127.0.0.1; yields its base URL."""
    config = uvicorn.Config(
        app, host="127.0.0.1", port=0, log_level="warning", ws="none", lifespan="on"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(20)


@pytest.fixture(scope="session")
def location() -> CodeLocation:
    return load_code_location(file=LOCATION)


@dataclass(frozen=True)
class Served:
    url: str
    store_url: str


@pytest.fixture
def served(sqlite_url: str, location: CodeLocation) -> Iterator[Served]:
    _record(sqlite_url)
    with serving(create_app(location, TABLE, sqlite_url)) as url:
        yield Served(url, sqlite_url)
