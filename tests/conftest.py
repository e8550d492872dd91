"""Shared fixtures: real SQLite files and a real PostgreSQL server.

PostgreSQL tests use ``FAUCET_TEST_POSTGRES_URL`` (CI points it at the local
server). Without it they skip, unless ``FAUCET_REQUIRE_POSTGRES=1`` is set, in
which case they fail: CI must never skip them silently.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

PG_ENV = "FAUCET_TEST_POSTGRES_URL"

_SESSION_GROUPS = {
    "tests/faucet_dagster/dbt/": "dbt",
    "tests/spark/": "spark",
    "tests/faucet_dagster/console/": "console",
    "tests/faucet_dagster/server/": "server",
}
"""Folders whose session fixtures are costly (a built dbt project, a Spark session, a
browser, a served store). Under ``pytest -n N`` each folder runs on one worker, so its
fixture is built once instead of once per worker; the folders are collected first so that
their long runs start at once."""


def _group(nodeid: str) -> str | None:
    return next((g for f, g in _SESSION_GROUPS.items() if nodeid.startswith(f)), None)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {g: i for i, g in enumerate(_SESSION_GROUPS.values())}
    items.sort(key=lambda item: rank.get(_group(item.nodeid) or "", len(rank)))


class _FolderGroups:
    """One work unit per costly folder, one per test elsewhere: xdist's ``loadgroup``
    without markers (pytest 9 no longer lets xdist 3.8 read them)."""

    @staticmethod
    def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
        from xdist.scheduler import LoadScopeScheduling

        class FolderGroups(LoadScopeScheduling):  # type: ignore[misc]
            def _split_scope(self, nodeid: str) -> str:
                return _group(nodeid) or nodeid

        return FolderGroups(config, log)


def pytest_configure(config: pytest.Config) -> None:
    if config.pluginmanager.hasplugin("xdist"):  # not in the compat environments
        config.pluginmanager.register(_FolderGroups(), "faucet-folder-groups")


def _postgres_base_url() -> str:
    url = os.environ.get(PG_ENV, "").strip()
    if not url:
        if os.environ.get("FAUCET_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"{PG_ENV} is not set but FAUCET_REQUIRE_POSTGRES=1")
        pytest.skip(f"set {PG_ENV} to run PostgreSQL tests")
    return url


@pytest.fixture
def sqlite_url(tmp_path) -> str:  # type: ignore[no-untyped-def]
    return f"sqlite:///{tmp_path / 'faucet.db'}"


def _fresh_postgres_schema() -> Iterator[str]:
    """A PostgreSQL URL whose search_path is a fresh schema, dropped afterwards."""
    base = make_url(_postgres_base_url())
    if base.drivername == "postgresql":
        base = base.set(drivername="postgresql+psycopg")
    schema = f"faucet_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = base.update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A PostgreSQL URL whose search_path is a fresh schema, dropped afterwards."""
    yield from _fresh_postgres_schema()


@pytest.fixture(scope="module")
def postgres_url_module() -> Iterator[str]:
    """As :func:`postgres_url`, one schema shared by a test module (a large table loaded once)."""
    yield from _fresh_postgres_schema()


@pytest.fixture(params=["sqlite", "postgres"], ids=["sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest) -> str:
    """Each store test runs on a SQLite file and on PostgreSQL."""
    name = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    return str(request.getfixturevalue(name))
