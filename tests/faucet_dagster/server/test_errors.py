"""Every 5xx that can still happen is a JSON answer, audited as ``error``; the message
holds no internals (real uvicorn, real store failures)."""

from __future__ import annotations

import logging

import httpx
import pytest
from sqlalchemy import create_engine, make_url, text

from faucet_core.catalog import Catalog
from faucet_core.store.audit import Outcome, list_audit
from faucet_dagster.location import CodeLocation
from faucet_dagster.serve import create_app
from tests.faucet_dagster.plan.test_cli import _record
from tests.faucet_dagster.server.conftest import TABLE, auth, serving


def test_a_store_failure_on_a_read_is_503_and_audited(
    store_url: str, location: CodeLocation
) -> None:
    _record(store_url)
    with serving(create_app(location, TABLE, store_url)) as url:
        engine = create_engine(store_url)  # another process breaks the store
        with engine.begin() as conn:
            conn.execute(
                text(
                    "DROP TABLE faucet_datasets CASCADE"
                    if "postgres" in store_url
                    else "DROP TABLE faucet_datasets"
                )
            )
        engine.dispose()
        r = httpx.get(url + "/v1/catalog/datasets", headers=auth("viewer"))
    missing = '"faucet_datasets" does not exist' if "postgres" in store_url else "faucet_datasets"
    assert r.status_code == 503
    error = r.json()["error"]
    # the answer does not say where the store lives (the command line's message does)
    assert error.startswith("cannot read the catalog: part of the store's schema is missing (")
    assert make_url(store_url).render_as_string(hide_password=True) not in error
    assert missing in error
    assert error.endswith("restore it from a backup, or move it aside to start anew")
    assert "SELECT" not in r.text
    with Catalog(store_url) as catalog:
        (entry,) = list_audit(catalog.engine)
    assert (entry.action, entry.actor, entry.outcome, entry.status) == (
        "catalog.datasets",
        "viewer-user",
        Outcome.ERROR,
        503,
    )
    assert entry.detail == {"error": error}


def test_an_unexpected_exception_is_a_json_500_audited_without_its_message(
    sqlite_url: str,
    location: CodeLocation,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    import faucet_dagster.serve.api.routes as routes_module

    def broken(*_args: object) -> None:  # fault injection: no real input crashes the planner
        raise RuntimeError("internal detail: postgresql://user:hunter2@db/x")

    monkeypatch.setattr(routes_module, "_plan", broken)
    _record(sqlite_url)
    app = create_app(location, TABLE, sqlite_url)
    with caplog.at_level(logging.ERROR, logger="faucet.serve"), serving(app) as url:
        r = httpx.post(url + "/v1/plan", json={"select": "customers"}, headers=auth("viewer"))
    assert (r.status_code, r.json()) == (
        500,
        {"error": "internal error: the server log has the details"},
    )
    assert "hunter2" not in r.text
    with Catalog(sqlite_url) as catalog:
        (entry,) = list_audit(catalog.engine)
    assert (entry.action, entry.outcome, entry.status, entry.detail) == (
        "plan",
        Outcome.ERROR,
        500,
        {"error": "RuntimeError"},
    )
    (record,) = [r for r in caplog.records if r.name == "faucet.serve"]
    assert record.getMessage() == "POST /v1/plan failed"
    assert record.exc_info is not None  # the traceback goes to the server log only
