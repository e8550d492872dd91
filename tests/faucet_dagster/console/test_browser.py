"""The console in a real browser: Debian's Chromium, headless, driven by Playwright's sync
API, against a real ``faucet serve`` process on 127.0.0.1.

Skipped when /usr/bin/chromium or Playwright is missing, unless ``FAUCET_REQUIRE_BROWSER=1``
(CI), which makes that a failure. Screenshots of every page go to ``$FAUCET_ARTIFACTS_DIR``
(else pytest's temporary folder); they are test artefacts, never committed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from faucet_core.catalog import Catalog
from tests.faucet_dagster.console.conftest import LOCATION, audit_entries
from tests.faucet_dagster.server.conftest import TOKENS
from tests.faucet_dagster.server.test_cli_serve import ENTRY, _free_port

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DAGSTER = "http://127.0.0.1:3999"
SAMPLE = "id,email,score\n1,a@x,0.5\n2,b@y,1.5\n"


def _missing(why: str) -> None:
    if os.environ.get("FAUCET_REQUIRE_BROWSER") == "1":
        pytest.fail(
            f"{why} but FAUCET_REQUIRE_BROWSER=1: install Debian's chromium "
            "(apt-get install chromium) and the dev extra (playwright)"
        )
    pytest.skip(why)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        _missing(f"{CHROMIUM} is missing")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = os.environ.get("FAUCET_ARTIFACTS_DIR")
    folder = Path(base) / "console" if base else tmp_path_factory.mktemp("console-shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@dataclass
class Server:
    url: str
    store: str
    proc: subprocess.Popen[bytes]


@contextmanager
def serving(location: str, path: Path) -> Iterator[Server]:
    """``faucet serve`` (the console entry point) of ``location`` on the SQLite store at
    ``path``, stopped on exit (its log checked: no token in it)."""
    store = f"sqlite:///{path}"
    port = _free_port()
    env = {
        **os.environ,
        "FAUCET_TOKENS": ",".join(f"{role}-user:{role}:{t}" for role, t in TOKENS.items()),
    }
    env.pop("FAUCET_DAGSTER_URL", None)
    cmd = [sys.executable, "-c", ENTRY, "serve", "-f", location, "--store", store]
    cmd += ["--port", str(port), "--dagster-url", DAGSTER, "--log-level", "info"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            if httpx.get(url + "/healthz").status_code == 200:
                break
        except httpx.TransportError:
            pass
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"faucet serve stopped: {err.decode()[-2000:]}")
        if time.monotonic() > deadline:
            proc.terminate()
            pytest.fail("faucet serve did not start in 90 s")
        time.sleep(0.2)
    served = Server(url, store, proc)
    try:
        yield served
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=60)
        for token in TOKENS.values():  # not in the log, whatever happened
            assert token.encode() not in out + err
        assert b"web console: http://127.0.0.1:" in out


@pytest.fixture(scope="module")
def server(template_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``faucet serve`` (the console entry point) on a copy of the prepared store."""
    path = tmp_path_factory.mktemp("browser-store") / "faucet.db"
    shutil.copy(template_store, path)
    with serving(LOCATION, path) as served:
        yield served


def _sign_in(page: Any, server: Server, role: str, shot: Path | None = None) -> None:
    page.goto(server.url + "/ui/datasets")
    assert "/ui/signin?next=" in page.url
    page.fill("#token", TOKENS[role])
    if shot is not None:
        page.screenshot(path=str(shot), full_page=True)
    page.click("form.card button[type=submit]")
    page.wait_for_url(re.compile(r".*/ui/datasets$"))
    assert TOKENS[role] not in page.url
    assert TOKENS[role] not in page.content()


def _sign_out(page: Any) -> None:
    page.click("form.signout button")
    page.wait_for_url(re.compile(r".*/ui/signin$"))


def test_operator_edits_admin_audits_and_plans(chromium: Any, server: Server, shots: Path) -> None:
    from playwright.sync_api import expect

    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    try:
        _sign_in(page, server, "operator", shots / "01-signin.png")
        cookies = {c["name"]: c for c in context.cookies()}
        session = cookies["faucet_session"]
        assert (session["httpOnly"], session["sameSite"], session["path"]) == (
            True,
            "Strict",
            "/ui",
        )
        assert TOKENS["operator"] not in session["value"]

        # the list (a dataset named <script>alert(1)</script> runs nothing), then a search
        rows = page.locator("#datasets tbody tr")
        assert rows.count() >= 5
        page.screenshot(path=str(shots / "02-datasets.png"), full_page=True)
        page.click("#datasets a >> text=<script>")
        page.wait_for_selector("#owners")
        assert "s3://lake/<script>alert(1)</script>" in page.locator("h1").inner_text()
        page.go_back()
        page.fill("input[name=q]", "ledger")
        page.click("form.search button")
        page.wait_for_url(re.compile(r".*/ui/datasets\?q=ledger$"))
        assert rows.count() == 1
        page.screenshot(path=str(shots / "03-search.png"), full_page=True)

        # the dataset: sparklines with their drift marks, the Dagster link
        page.click("#datasets tbody a")
        page.wait_for_selector("#columns")
        total = page.locator('svg[aria-label="total null rate"]')
        assert total.get_attribute("data-drift") == "1"
        assert total.locator("circle.drift").count() == 1
        assert page.locator('svg[aria-label="total mean"] circle.drift').count() == 0
        assert page.locator('svg[aria-label="total mean"] circle.run').count() == 4
        assert page.locator("a.dagster").get_attribute("href") == DAGSTER + "/assets/ledger"
        page.screenshot(path=str(shots / "04-dataset.png"), full_page=True)

        # edit owners and consumers through the forms
        page.fill("#add-owner input[name=owner]", "team:browser")
        page.click("#add-owner button")
        page.wait_for_selector("text=team:browser")
        page.fill("#add-owner input[name=owner]", "team:temporary")
        page.click("#add-owner button")
        page.wait_for_selector("text=team:temporary")
        page.click('button[aria-label="remove owner team:temporary"]')
        expect(page.locator("ul.owners >> text=team:temporary")).to_have_count(0)
        page.fill("#add-consumer input[name=name]", "weekly-report")
        page.fill("#add-consumer input[name=kind]", "dashboard")
        page.fill("#add-consumer input[name=contact]", "#reports")
        page.fill("#add-consumer input[name=columns]", "total")
        page.click("#add-consumer button")
        page.wait_for_selector("#consumers >> text=weekly-report")
        page.fill("#add-consumer input[name=name]", "to-drop")
        page.click("#add-consumer button")
        page.wait_for_selector("#consumers >> text=to-drop")
        page.click('button[aria-label="remove consumer to-drop"]')
        expect(page.locator("#consumers >> text=to-drop")).to_have_count(0)
        page.screenshot(path=str(shots / "05-dataset-edited.png"), full_page=True)
        with Catalog(server.store) as catalog:
            detail = catalog.detail("dagster://ledger")
        assert detail.dataset.owners == ("team:finance", "team:browser")
        assert [c.name for c in detail.consumers] == ["weekly-report"]
        _sign_out(page)
        assert page.goto(server.url + "/ui/datasets") is not None
        assert "/ui/signin" in page.url  # signed out for real

        # the admin sees the edits on the audit page
        _sign_in(page, server, "admin")
        page.click("header nav >> text=Audit")
        page.wait_for_selector("#audit")
        audit = page.locator("#audit tbody").inner_text()
        assert "catalog.annotate" in audit
        assert "operator-user" in audit
        assert "team:browser" in audit
        page.screenshot(path=str(shots / "06-audit.png"), full_page=True)

        # an impact plan with an uploaded sample
        page.click("header nav >> text=Impact")
        page.select_option("#asset", "customers")
        page.set_input_files(
            "#sample_file",
            {"name": "customers.csv", "mimeType": "text/csv", "buffer": SAMPLE.encode()},
        )
        page.click("form.card button[type=submit]")
        page.wait_for_selector("#report")
        breaking = page.locator("#delta tr.sev-breaking").inner_text()
        assert "legacy" in breaking
        assert "removed" in breaking
        assert "Planned from customers.csv" in page.content()
        page.screenshot(path=str(shots / "07-impact.png"), full_page=True)
        _sign_out(page)
        page.screenshot(path=str(shots / "08-signed-out.png"), full_page=True)
        assert dialogs == []  # no script from the catalog ever ran
    finally:
        context.close()


def test_a_viewer_reads_but_cannot_edit(chromium: Any, server: Server, shots: Path) -> None:
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        _sign_in(page, server, "viewer")
        page.goto(server.url + "/ui/datasets?q=ledger")
        page.click("#datasets tbody a")
        page.wait_for_selector("#columns")
        assert page.locator("#add-owner").count() == 0
        assert page.locator("#add-consumer").count() == 0
        assert page.locator("form[action$='/owners']").count() == 0
        assert page.locator("header nav >> text=Audit").count() == 0
        dataset = page.url
        csrf = page.locator("form.signout input[name=csrf]").get_attribute("value")
        # a forged edit, with the viewer's own cookie and CSRF token, from this origin
        forged = context.request.post(
            dataset + "/owners",
            form={"csrf": csrf, "action": "add", "owner": "team:forged"},
            headers={"Origin": server.url},
            max_redirects=0,
        )
        assert forged.status == 403
        assert "viewer-user (viewer) may not POST" in forged.text()
        page.set_content(forged.text())
        page.screenshot(path=str(shots / "09-viewer-denied.png"), full_page=True)
        no_token = context.request.post(
            dataset + "/owners",
            form={"action": "add", "owner": "team:forged"},
            headers={"Origin": server.url},
            max_redirects=0,
        )
        assert no_token.status == 403
        assert page.goto(server.url + "/ui/audit").status == 403
        with Catalog(server.store) as catalog:
            assert "team:forged" not in catalog.dataset("dagster://ledger").owners
        denied = [
            e for e in audit_entries(server.store, "catalog.annotate") if e.actor == "viewer-user"
        ]
        assert [e.outcome.value for e in denied] == ["denied"]  # the repeat is counted
        page.goto(dataset)
        _sign_out(page)
    finally:
        context.close()
