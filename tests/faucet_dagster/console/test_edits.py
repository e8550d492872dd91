"""Owners and consumers edited from the dataset page land in the catalog and in the audit
log, through the API's own audited annotate path, on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest

from faucet_core.catalog import Catalog, Consumer
from tests.faucet_dagster.console.conftest import Browser, MakeBrowser, audit_entries
from tests.faucet_dagster.plan.test_cli import CRM, _record


@pytest.fixture
def crm(store_url: str) -> str:
    """The plan tests' catalog on this store; the lake copy's dataset id."""
    _record(store_url)
    with Catalog(store_url) as catalog:
        return catalog.resolve(CRM.uri)


def _post(browser: Browser, path: str, data: dict[str, str]) -> int:
    response = browser.post(path, {"csrf": browser.csrf(), **data})
    assert response.status_code in (303, 400, 404), response.text
    return response.status_code


def test_owner_and_consumer_edits_land_in_the_catalog_and_the_audit_log(
    app_for: MakeBrowser, store_url: str, crm: str
) -> None:
    browser = app_for(store_url)
    browser.sign_in("operator")
    page = f"/ui/datasets/{crm}"
    assert _post(browser, page + "/owners", {"action": "add", "owner": "team:data"}) == 303
    assert _post(browser, page + "/owners", {"action": "add", "owner": "alice@example.com"}) == 303
    assert _post(browser, page + "/owners", {"action": "remove", "owner": "team:data"}) == 303
    added = {
        "action": "add",
        "name": "churn-model",
        "kind": "model",
        "contact": "#ml",
        "columns": "customer_id, email",
    }
    assert _post(browser, page + "/consumers", added) == 303
    assert _post(browser, page + "/consumers", {"action": "remove", "name": "lake-audit"}) == 303

    with Catalog(store_url) as catalog:
        detail = catalog.detail(crm)
    owners = {o.name: [s.value for s in o.sources] for o in detail.dataset.owner_sources}
    assert owners == {"team:lake": ["openlineage"], "alice@example.com": ["annotation"]}
    assert {c.name: c for c in detail.consumers} == {
        "churn-model": Consumer("churn-model", "model", "#ml", ("customer_id", "email")),
        "crm-sync": Consumer("crm-sync", "export", "#crm", ("email",)),
        "ids-only": Consumer("ids-only", "model", "", ("customer_id",)),
    }

    entries = audit_entries(store_url, "catalog.annotate")
    assert [(e.actor, e.role, e.target, e.outcome.value) for e in entries] == [
        ("operator-user", "operator", crm, "ok")
    ] * 5
    assert [e.detail for e in entries] == [
        {"owners": None, "consumers": [], "replace": False, "remove_consumers": ["lake-audit"]},
        {"owners": None, "consumers": ["churn-model"], "replace": False},
        {"owners": None, "consumers": [], "replace": False, "remove_owners": ["team:data"]},
        {"owners": None, "consumers": [], "replace": False, "add_owners": ["alice@example.com"]},
        {"owners": None, "consumers": [], "replace": False, "add_owners": ["team:data"]},
    ]
    shown = browser.get(page).text
    assert "alice@example.com" in shown
    assert "churn-model" in shown
    assert "lake-audit" not in shown


def test_refused_edits_are_pages_and_write_nothing_but_their_audit_entry(
    app_for: MakeBrowser, store_url: str, crm: str
) -> None:
    browser = app_for(store_url)
    browser.sign_in("admin")
    page = f"/ui/datasets/{crm}"
    # team:lake comes from OpenLineage: the console edits only the annotated owners
    response = browser.post(
        page + "/owners", {"csrf": browser.csrf(), "action": "remove", "owner": "team:lake"}
    )
    assert response.status_code == 400
    assert "is not an annotated owner: it comes from" in response.text
    missing = browser.post(
        page + "/consumers", {"csrf": browser.csrf(), "action": "remove", "name": "nobody"}
    )
    assert missing.status_code == 400
    assert "has no consumer &#39;nobody&#39; to remove" in missing.text
    too_long = browser.post(
        page + "/consumers", {"csrf": browser.csrf(), "action": "add", "name": "x" * 257}
    )
    assert too_long.status_code == 400
    assert "consumer name: longer than 256 characters" in too_long.text
    nul = browser.post(
        page + "/owners", {"csrf": browser.csrf(), "action": "add", "owner": "a\x00"}
    )
    assert nul.status_code == 400
    unknown = browser.post(
        "/ui/datasets/ffffffffffff/owners",
        {"csrf": browser.csrf(), "action": "add", "owner": "x"},
    )
    assert unknown.status_code == 404
    with Catalog(store_url) as catalog:
        detail = catalog.detail(crm)
    assert [o.name for o in detail.dataset.owner_sources] == ["team:lake"]
    assert len(detail.consumers) == 3
    entries = audit_entries(store_url, "catalog.annotate")
    assert [(e.outcome.value, e.status) for e in entries] == [
        ("rejected", 404),
        ("rejected", 400),
        ("rejected", 400),
        ("rejected", 400),
        ("rejected", 400),
    ]
