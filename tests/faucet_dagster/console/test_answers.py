"""The console's error pages never say where the store lives (real app, real store)."""

from __future__ import annotations

from sqlalchemy import create_engine

from faucet_core.db.schema import catalog_datasets
from tests.faucet_dagster.console.conftest import MakeBrowser


def test_a_404_page_does_not_show_the_store(app_for: MakeBrowser, store: str) -> None:
    browser = app_for(store)
    browser.sign_in("operator")
    for path in ("/ui/datasets/dagster%3A%2F%2Fmembers", "/ui/datasets/0123456789ab"):
        page = browser.get(path)
        assert page.status_code == 404
        assert "the catalog holds no dataset with that id or URI" in page.text
        assert "sqlite:" not in page.text
        assert store.removeprefix("sqlite:///") not in page.text
    csrf = browser.csrf()
    posted = browser.post(
        "/ui/datasets/0123456789ab/owners", {"csrf": csrf, "action": "add", "owner": "x"}
    )
    assert posted.status_code == 404
    assert "sqlite:" not in posted.text


def test_a_503_page_does_not_show_the_store(app_for: MakeBrowser, store: str) -> None:
    browser = app_for(store)
    browser.sign_in("viewer")
    raw = create_engine(store)
    with raw.begin() as conn:
        catalog_datasets.drop(conn)
    raw.dispose()
    page = browser.get("/ui/datasets")
    assert page.status_code == 503
    assert "cannot read the catalog: part of the store" in page.text
    assert store.removeprefix("sqlite:///") not in page.text
