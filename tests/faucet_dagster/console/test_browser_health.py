"""The health views in real Chromium, against ``faucet serve`` on the health location's
store (a drifted asset, one warming up, one whose check failed, one that never ran):
one browser session walks every page and leaves a screenshot of each in the artefacts
folder (see test_browser.py; never committed)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.faucet_dagster.console import health_location
from tests.faucet_dagster.console.test_browser import (  # the fixtures, reused
    DAGSTER,
    Server,
    _sign_in,
    chromium,
    serving,
    shots,
)

__all__ = ["chromium", "shots"]


@pytest.fixture(scope="module")
def health_server(
    health_template: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    path = tmp_path_factory.mktemp("browser-health") / "faucet.db"
    shutil.copy(health_template, path)
    with serving(str(Path(health_location.__file__)), path) as served:
        yield served


def test_every_health_page_in_chromium(chromium: Any, health_server: Server, shots: Path) -> None:
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    errors: list[str] = []  # script errors and CSP violations the pages caused
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    failed: list[str] = []  # every answer of 400 or more but the browser's own favicon
    page.on(
        "response",
        lambda r: failed.append(r.url) if r.status >= 400 and "favicon" not in r.url else None,
    )
    try:
        _sign_in(page, health_server, "viewer")
        badges = page.locator("#datasets tbody td:first-child .badge")
        assert badges.all_inner_texts() == ["drifted", "check error", "warming up", "never run"]
        page.screenshot(path=str(shots / "10-health-list.png"), full_page=True)

        page.click("nav.filters >> text=drifted only")  # a plain link: no script needed
        page.wait_for_url(re.compile(r".*/ui/datasets\?status=drifted$"))
        assert page.locator("#datasets tbody tr").count() == 1
        page.screenshot(path=str(shots / "11-health-drifted-only.png"), full_page=True)

        page.click("#datasets tbody a")
        page.wait_for_selector("#latest-findings")
        assert page.locator("#status").inner_text() == "drifted"
        # the band is drawn under the line, the marker only on the drifted statistic
        mean = page.locator('svg[aria-label="amount mean"]')
        assert mean.locator("rect.band").count() == 1
        assert mean.locator("circle.drift").count() == 1
        assert mean.locator("rect.expected").count() == 1
        nulls = page.locator('svg[aria-label="note null rate"]')
        assert nulls.locator("circle.drift").count() == 0
        assert nulls.locator("circle.run").count() == 5
        assert nulls.locator("rect.band").count() == 1
        box = mean.bounding_box()
        assert box is not None
        assert box["width"] > 200
        assert box["height"] > 60
        link = page.locator("#runs-list a.run").first
        assert (link.get_attribute("href") or "").startswith(DAGSTER + "/runs/")
        assert len(link.inner_text()) == 8
        page.screenshot(path=str(shots / "12-dataset-drifted.png"), full_page=True)
        page.locator("#columns").screenshot(path=str(shots / "12b-dataset-columns.png"))

        for name, shot, status in (
            ("signups", "13-dataset-warming-up.png", "warming up"),
            ("payments", "14-dataset-check-error.png", "check error"),
            ("regional_report", "15-asset-never-run.png", "never run"),
        ):
            page.goto(health_server.url + "/ui/datasets?sort=name")
            page.click(f"#datasets a >> text=dagster://{name}")
            page.wait_for_selector("#health")
            assert page.locator("#status").inner_text() == status
            page.screenshot(path=str(shot_path := shots / shot), full_page=True)
            assert shot_path.stat().st_size > 0

        assert failed == []
        assert [e for e in errors if "Failed to load resource" not in e] == []
        missing = page.goto(health_server.url + "/ui/datasets/0123456789abcdef")
        assert missing is not None
        assert missing.status == 404
        assert "There is no dataset" in page.locator("p.error").inner_text()
        page.screenshot(path=str(shots / "16-not-found.png"), full_page=True)
        assert dialogs == []
    finally:
        context.close()
