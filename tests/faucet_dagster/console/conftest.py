"""The console over a real store: the plan tests' catalog (Dagster and OpenLineage
datasets, consumers, column lineage) plus ``ledger`` materialized four times through
the real profiler and drift detector (the fourth run drifts on ``total`` only)."""

from __future__ import annotations

import datetime as dt
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import dagster as dg
import httpx
import pytest
from starlette.testclient import TestClient

from faucet_core.catalog import (
    Catalog,
    Contract,
    DatasetRef,
    JobRef,
    Observation,
    RunRecord,
    RunState,
)
from faucet_core.store.audit import AuditEntry, list_audit
from faucet_dagster import FaucetResource
from faucet_dagster.lineage.record import sync_definitions
from faucet_dagster.location import CodeLocation, load_code_location
from faucet_dagster.serve import create_app
from tests.faucet_dagster.console import location as loc
from tests.faucet_dagster.plan.test_cli import CRM, MART, _record
from tests.faucet_dagster.server.conftest import TABLE, TOKENS

LOCATION = str(Path(loc.__file__))
DAGSTER_URL = "http://dagster.test:3000"
HOSTILE = "<script>alert(1)</script>"


def materialize_ledger(url: str) -> None:
    """Four runs of ledger and its checks; the last one drifts (``total``, ``amount``)."""
    resources = {"faucet": FaucetResource(store_url=url)}
    with dg.instance_for_test() as instance:
        try:
            for share, shift in ((0.0, 0.0), (0.0, 0.0), (0.0, 0.0), (0.5, 10_000.0)):
                loc.NULL_SHARE["total"] = share
                loc.SHIFT["amount"] = shift
                result = dg.materialize(
                    [loc.ledger, *loc.checks], instance=instance, resources=resources
                )
                assert result.success
        finally:
            loc.NULL_SHARE["total"] = 0.0
            loc.SHIFT["amount"] = 0.0


def record_extras(url: str) -> None:
    """A data contract on the mart, and a dataset whose name is markup."""
    when = dt.datetime(2026, 3, 2, tzinfo=dt.timezone.utc)
    with Catalog(url) as catalog:
        catalog.record(
            [
                RunRecord(  # the opaque mart step again, now declaring a contract
                    job=JobRef("airflow", "mart"),
                    run_id="ol-run-3",
                    state=RunState.COMPLETE,
                    event_time=when,
                    inputs=(Observation(CRM),),
                    outputs=(Observation(MART),),
                    contract=Contract("2", ("customer_id", "email")),
                ),
                RunRecord(
                    job=JobRef("airflow", HOSTILE),
                    run_id="ol-run-4",
                    state=RunState.COMPLETE,
                    event_time=when,
                    outputs=(Observation(DatasetRef("s3://lake", HOSTILE), owners=(HOSTILE,)),),
                ),
            ]
        )


@pytest.fixture(scope="session")
def template_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("console-store") / "faucet.db"
    url = f"sqlite:///{path}"
    _record(url)
    record_extras(url)
    materialize_ledger(url)
    return path


@pytest.fixture
def store(template_store: Path, tmp_path: Path) -> str:
    """A fresh copy of the prepared SQLite store for one test."""
    path = tmp_path / "faucet.db"
    shutil.copy(template_store, path)
    return f"sqlite:///{path}"


@pytest.fixture(scope="session")
def location() -> CodeLocation:
    return load_code_location(file=LOCATION)


CSRF = re.compile(r'name="csrf" value="([^"]+)"')


@dataclass
class Browser:
    """A TestClient keeping the console's cookies; its posts send this server's Origin
    unless told otherwise."""

    client: TestClient
    origin: str | None = "http://testserver"

    def get(self, path: str) -> httpx.Response:
        return self.client.get(path, follow_redirects=False)

    def post(
        self,
        path: str,
        data: dict[str, str],
        *,
        origin: str | None = "",
        files: dict[str, tuple[str, bytes]] | None = None,
    ) -> httpx.Response:
        sent = self.origin if origin == "" else origin
        headers = {"Origin": sent} if sent is not None else {}
        return self.client.post(
            path, data=data, files=files, headers=headers, follow_redirects=False
        )

    def csrf(self, path: str = "/ui/datasets") -> str:
        found = CSRF.search(self.get(path).text)
        assert found is not None, f"no CSRF token on {path}"
        return found.group(1)

    def sign_in(self, role: str, next_path: str = "") -> httpx.Response:
        form = self.get("/ui/signin" + (f"?next={next_path}" if next_path else ""))
        token = CSRF.search(form.text)
        assert token is not None
        return self.post(
            "/ui/signin", {"token": TOKENS[role], "csrf": token.group(1), "next": next_path}
        )


MakeBrowser = Callable[..., Browser]


@pytest.fixture
def app_for(location: CodeLocation) -> Iterator[MakeBrowser]:
    made: list[TestClient] = []

    def make(url: str, *, dagster_url: str | None = DAGSTER_URL) -> Browser:
        client = TestClient(create_app(location, TABLE, url, dagster_url=dagster_url))
        client.__enter__()
        made.append(client)
        return Browser(client)

    yield make
    for client in made:
        client.__exit__(None, None, None)


def audit_entries(url: str, action: str) -> list[AuditEntry]:
    """The store's audit entries of ``action``, newest first."""
    with Catalog(url) as catalog:
        return list_audit(catalog.engine, action=action)


def materialize_health(url: str) -> None:
    """The health location's runs: orders 5 (the fifth drifts), signups 1 (warming up),
    payments 2 and then a check error; regional_report never."""
    from tests.faucet_dagster.console import health_location as h

    resources = {"faucet": FaucetResource(store_url=url)}
    every = [h.orders, h.signups, h.payments, h.regional_report, *h.checks]

    def run(*assets: dg.AssetsDefinition) -> None:
        result = dg.materialize(
            every,
            instance=instance,
            resources=resources,
            selection=dg.AssetSelection.assets(*assets),
        )
        assert result.success

    with dg.instance_for_test() as instance:
        try:
            run(h.orders, h.signups, h.payments)
            run(h.orders, h.payments)
            for _ in range(2):
                run(h.orders)
            h.STATE["drift"] = True
            run(h.orders)
            h.STATE["broken"] = True
            run(h.payments)
        finally:
            h.STATE.update(drift=False, broken=False)
    with Catalog(url) as catalog:  # `faucet catalog sync`: the deps as edges, run or not
        sync_definitions(catalog, h.defs)


@pytest.fixture(scope="session")
def health_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("health-store") / "faucet.db"
    materialize_health(f"sqlite:///{path}")
    return path


@pytest.fixture
def health_store(health_template: Path, tmp_path: Path) -> str:
    path = tmp_path / "health.db"
    shutil.copy(health_template, path)
    return f"sqlite:///{path}"


@pytest.fixture(scope="session")
def health_location() -> CodeLocation:
    from tests.faucet_dagster.console import health_location as h

    return load_code_location(file=h.__file__)


@pytest.fixture
def health_app(health_location: CodeLocation, health_store: str) -> Iterator[Browser]:
    client = TestClient(create_app(health_location, TABLE, health_store, dagster_url=DAGSTER_URL))
    with client:
        browser = Browser(client)
        assert browser.sign_in("viewer").status_code == 303
        yield browser
