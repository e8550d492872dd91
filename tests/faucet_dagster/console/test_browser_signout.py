"""Signing out in real Chromium ends the session on the server: the cookie the browser
had before, put back, neither reads a page nor sends a form (``faucet serve`` process)."""

from __future__ import annotations

from typing import Any

from faucet_core.catalog import Catalog
from tests.faucet_dagster.console.test_browser import (  # the fixtures, reused
    Server,
    _sign_in,
    _sign_out,
    chromium,
    server,
    shots,
)

__all__ = ["chromium", "server", "shots"]


def test_the_cookie_kept_from_before_sign_out_is_refused(chromium: Any, server: Server) -> None:
    context = chromium.new_context()
    page = context.new_page()
    try:
        _sign_in(page, server, "operator")
        page.goto(server.url + "/ui/datasets?q=ledger")
        page.click("#datasets tbody a")
        page.wait_for_selector("#add-owner")
        dataset = page.url
        csrf = page.locator("#add-owner input[name=csrf]").get_attribute("value")
        kept = [c for c in context.cookies() if c["name"] == "faucet_session"]
        assert len(kept) == 1
        _sign_out(page)

        context.add_cookies(kept)  # what a thief of the cookie would still hold
        assert page.goto(dataset) is not None
        assert "/ui/signin?next=" in page.url
        forged = context.request.post(
            dataset + "/owners",
            form={"csrf": csrf or "", "action": "add", "owner": "team:after-signout"},
            headers={"Origin": server.url},
            max_redirects=0,
        )
        assert forged.status == 401
        assert "your session has ended: sign in again" in forged.text()
    finally:
        context.close()
    with Catalog(server.store) as catalog:
        assert "team:after-signout" not in catalog.dataset("dagster://ledger").owners
