"""A web page in real Chromium cannot write lineage into a tokenless ``faucet lineage
serve``: neither a cross-site ``no-cors`` POST nor a DNS-rebinding page. Chromium maps the
attacker's names to 127.0.0.1 (``--host-resolver-rules``), so no DNS and no network."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from faucet_core.catalog import Catalog
from faucet_core.store.audit import Outcome, list_audit
from faucet_dagster.serve import TokenTable, create_lineage_app
from tests.faucet_dagster.console.test_browser import CHROMIUM, CHROMIUM_ARGS, _missing
from tests.faucet_dagster.server.conftest import serving
from tests.faucet_dagster.server.test_lineage_web_pages import attacker_event

RULES = "MAP evil.example 127.0.0.1, MAP rebind.evil.example 127.0.0.1"


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    from pathlib import Path

    if not Path(CHROMIUM).exists():
        _missing(f"{CHROMIUM} is missing")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed")
    with sync_playwright() as p:
        args = [*CHROMIUM_ARGS, f"--host-resolver-rules={RULES}"]
        browser = p.chromium.launch(executable_path=CHROMIUM, args=args)
        try:
            yield browser
        finally:
            browser.close()


def _evil_site() -> Starlette:
    async def home(_request: Any) -> HTMLResponse:
        return HTMLResponse("<!doctype html><title>cute cats</title><p>cats</p>")

    return Starlette(routes=[Route("/", home)])


def _owners(catalog: Catalog) -> set[str]:
    return {o for entry in catalog.datasets() for o in entry.owners}


def test_a_cross_site_no_cors_post_plants_nothing(chromium: Any, sqlite_url: str) -> None:
    body = json.dumps(attacker_event())
    with Catalog(sqlite_url) as catalog:
        receiver = create_lineage_app(catalog, TokenTable([]))
        with serving(receiver) as url, serving(_evil_site()) as evil:
            port = url.rsplit(":", 1)[1]
            context = chromium.new_context()
            page = context.new_page()
            try:
                page.goto(evil.replace("127.0.0.1", "evil.example") + "/")
                for content_type in ("text/plain", None):  # a string body, then a Blob
                    page.evaluate(
                        """async ([target, body, type]) => {
                            const data = type ? body : new Blob([body]);
                            await fetch(target, {method: "POST", mode: "no-cors", body: data});
                        }""",
                        [f"http://127.0.0.1:{port}/api/v1/lineage", body, content_type],
                    )
            finally:
                context.close()
        entries = list_audit(catalog.engine)
        assert "attacker" not in _owners(catalog)
        assert catalog.counts()["edges"] == 0
    # both posts arrived and were refused: the first written, the repeat counted and
    # summed up when the receiver stopped
    summary, first = entries
    assert [(e.outcome, e.status) for e in entries] == [(Outcome.DENIED, 403)] * 2
    assert (first.detail["client"], summary.detail["repeats"]) == ("127.0.0.1", 1)


def test_a_dns_rebinding_page_is_refused(chromium: Any, sqlite_url: str) -> None:
    body = json.dumps(attacker_event())
    with Catalog(sqlite_url) as catalog:
        with serving(create_lineage_app(catalog, TokenTable([]))) as url:
            rebound = url.replace("127.0.0.1", "rebind.evil.example")
            context = chromium.new_context()
            page = context.new_page()
            try:
                page.goto(rebound + "/healthz")  # the page's origin is now rebind.evil.example
                answer = page.evaluate(
                    """async (body) => {
                        const r = await fetch("/api/v1/lineage", {method: "POST", body,
                            headers: {"Content-Type": "application/json"}});
                        return [r.status, await r.json()];
                    }""",
                    body,
                )
            finally:
                context.close()
        assert "attacker" not in _owners(catalog)
    status, error = answer
    assert status == 421
    assert error["error"].startswith(
        f"Host 'rebind.evil.example:{url.rsplit(':', 1)[1]}' does not name this receiver "
        "(it answers to 127.0.0.1, localhost)"
    )
