"""The console's health views over a real store: a drifted asset, one warming up, one whose
check failed, one that never ran (the health location's real runs)."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import quote

from sqlalchemy import create_engine, text

from faucet_core.catalog import Catalog
from faucet_dagster.location import CodeLocation
from faucet_dagster.serve.console.assets import AssetIndex
from tests.faucet_dagster.console.conftest import CSRF, DAGSTER_URL, Browser, MakeBrowser


def _rows(html: str, table: str) -> list[str]:
    body = html.split(f'id="{table}"', 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)


def _by_uri(html: str) -> dict[str, str]:
    return {
        re.search(r'<a href="/ui/datasets/[^"]+">([^<]+)</a>', r).group(1): r  # type: ignore[union-attr]
        for r in _rows(html, "datasets")
    }


def _id(store: str, uri: str) -> str:
    with Catalog(store) as catalog:
        return catalog.resolve(uri)


def test_the_list_shows_each_status_with_findings_and_columns(health_app: Browser) -> None:
    page = health_app.get("/ui/datasets")
    assert page.status_code == 200
    rows = _by_uri(page.text)
    status = {uri: re.search(r'class="badge st-(\w+)"', r).group(1) for uri, r in rows.items()}  # type: ignore[union-attr]
    assert status == {
        "dagster://orders": "drifted",
        "dagster://signups": "warming",
        "dagster://payments": "error",
        "dagster://regional_report": "never",
    }
    # drifted first (the default sort), then check error, warming up, never run
    assert list(rows) == [
        "dagster://orders",
        "dagster://payments",
        "dagster://signups",
        "dagster://regional_report",
    ]
    orders = rows["dagster://orders"]
    assert '<td class="num">2</td>' in orders  # two findings: region and amount
    assert "<code>region</code>" in orders
    assert "<code>amount</code>" in orders
    assert "<code>id</code>" not in orders
    counts = dict(
        re.findall(r'class="st-(\w+)[^"]*"[^>]*>[^<]+<span class="n">(\d+)</span>', page.text)
    )
    assert counts == {"drifted": "1", "error": "1", "warming": "1", "never": "1"}


def test_drifted_only_is_a_query_parameter_and_sorting_works(health_app: Browser) -> None:
    listing = health_app.get("/ui/datasets")
    assert 'href="/ui/datasets?status=drifted">drifted only</a>' in listing.text
    drifted = health_app.get("/ui/datasets?status=drifted")
    assert list(_by_uri(drifted.text)) == ["dagster://orders"]
    assert "1 of 4 dataset(s)" in drifted.text
    # the filter keeps the sort and the search, the pager links keep the filter
    by_name = health_app.get("/ui/datasets?sort=name")
    assert list(_by_uri(by_name.text)) == sorted(_by_uri(by_name.text))
    assert 'href="/ui/datasets?status=drifted&amp;sort=name"' in by_name.text
    never = health_app.get("/ui/datasets?status=never&q=report")
    assert list(_by_uri(never.text)) == ["dagster://regional_report"]
    for bad in ("status=bogus", "sort=size"):
        refused = health_app.get(f"/ui/datasets?{bad}")
        assert refused.status_code == 400
        assert "is not one of" in unescape(refused.text)


def test_the_dataset_page_puts_health_and_findings_first(
    health_app: Browser, health_store: str
) -> None:
    html = health_app.get(f"/ui/datasets/{_id(health_store, 'dagster://orders')}").text
    order = [html.index(f'id="{part}"') for part in ("health", "profile", "history", "owners")]
    assert order == sorted(order)
    assert 'id="status">drifted</span>' in html
    latest = _rows(html, "latest-findings")
    assert [re.search(r"<code>(\w+)</code>", r).group(1) for r in latest] == ["region", "amount"]  # type: ignore[union-attr]
    assert any("new_value" in r and "mars" in r for r in latest)
    history = _rows(html, "findings-history")
    assert len(history) == 2  # the four runs before drifted nowhere
    run_links = re.findall(rf'href="{DAGSTER_URL}/runs/([0-9a-f-]+)"', html)
    assert run_links
    assert all(len(r) == 36 for r in run_links)
    assert len(_rows(html, "runs-list")) == 5
    assert re.search(r">[0-9a-f]{8}</a>", html)  # short run ids


def test_charts_draw_the_detectors_band_and_mark_only_the_drifted_statistic(
    health_app: Browser, health_store: str
) -> None:
    html = health_app.get(f"/ui/datasets/{_id(health_store, 'dagster://orders')}").text
    charts = {
        label: (points, drift, band)
        for label, points, drift, band in re.findall(
            r'aria-label="([^"]+)" data-points="(\d+)" data-drift="(\d+)"( data-band)?', html
        )
    }
    assert charts["amount mean"] == ("5", "1", " data-band")
    assert charts["note null rate"] == ("5", "0", " data-band")  # a band, no marker
    assert "amount null rate" not in charts  # never null: not drawn
    assert charts["(row count) rows"][1:] == ("0", " data-band")
    assert charts["region mean length"][1] == "1"  # the new value's evidence
    assert charts["note mean length"][1] == "0"
    assert charts["region = mars share"][1] == "1"  # the new value's share is marked
    assert charts["region = north share"][1] == "0"
    assert all(d == "0" for label, (_, d, _) in charts.items() if label.startswith("note "))
    # the marked run carries its finding's band, drawn at that run
    assert html.count('class="expected"') >= 1
    assert "band " in html
    assert "the detector&#39;s band for the latest run" in html
    values = html.split('aria-label="region top values"', 1)[1].split("</table>", 1)[0]
    assert "<code>mars</code>" in values
    assert ">new</span>" in values


def test_warm_up_check_error_and_never_run_pages(health_app: Browser, health_store: str) -> None:
    signups = health_app.get(f"/ui/datasets/{_id(health_store, 'dagster://signups')}").text
    assert 'id="status">warming up</span>' in signups
    assert "warming up: 0 of the 3 baseline run(s) drift detection needs" in signups
    payments = health_app.get(f"/ui/datasets/{_id(health_store, 'dagster://payments')}").text
    assert 'id="status">check error</span>' in payments
    assert "could not profile or record the materialization" in payments
    assert "unreachable" not in payments  # the error text lives in Dagster, not here
    listing = health_app.get("/ui/datasets?status=never").text
    href = re.search(r'href="(/ui/datasets/[0-9a-f]+)">dagster://regional_report', listing)
    assert href is not None
    never = health_app.get(href.group(1))
    assert never.status_code == 200
    assert 'id="status">never run</span>' in never.text
    assert "its profile check has not run yet" in never.text  # synced: known, never profiled
    assert 'href="/ui/impact?asset=regional_report"' in never.text


def test_the_impact_pages_link_to_a_never_run_asset_opens_its_page(health_app: Browser) -> None:
    form = health_app.get("/ui/impact?asset=orders")
    token = CSRF.search(form.text)
    assert token is not None
    # amount turns text: a breaking change, whose downstream includes the never-run report
    sample = '{"id": "o-1", "region": "north", "amount": "high", "note": "n"}'
    page = health_app.post(
        "/ui/impact", {"csrf": token.group(1), "asset": "orders", "depth": "5", "sample": sample}
    )
    assert page.status_code == 200
    affected = page.text.split('id="affected"', 1)[1].split("</table>", 1)[0]
    (href,) = re.findall(r'href="(/ui/datasets/[^"]+)">dagster://regional_report', affected)
    report = health_app.get(href)
    assert report.status_code == 200
    assert 'id="status">never run</span>' in report.text


def test_an_asset_the_catalog_does_not_hold_has_a_page_by_id_or_uri(
    app_for: MakeBrowser, store: str, location: CodeLocation
) -> None:
    index = AssetIndex.of(location.defs, location.profiled_assets())
    with Catalog(store) as catalog:
        held = {e.id for e in catalog.datasets()}
    missing = sorted(set(index.refs) - held)
    assert missing  # the console location has assets that never ran
    browser = app_for(store)
    browser.sign_in("viewer")
    listing = browser.get("/ui/datasets?status=never").text
    for dataset_id in missing:
        ref = index.refs[dataset_id]
        assert f'href="/ui/datasets/{dataset_id}">{ref.uri}</a>' in listing
        for path in (dataset_id, quote(ref.uri, safe="")):
            page = browser.get(f"/ui/datasets/{path}")
            assert page.status_code == 200, path
            assert "has not been materialized with faucet yet" in page.text
            assert "No faucet profile check is defined for it." in page.text


def test_missing_pages_say_what_is_missing_without_cli_or_paths(
    health_app: Browser, health_store: str
) -> None:
    path = health_store.removeprefix("sqlite:///")
    for ref in ("0123456789abcdef", "s3://nowhere/x.parquet", "zz"):
        page = health_app.get(f"/ui/datasets/{ref}")
        assert page.status_code == 404, ref
        text = unescape(page.text)
        assert f"There is no dataset {ref!r}" in text
        assert "faucet " not in text.replace("faucet console", "")  # no command line
        assert "`" not in text
        assert path not in text
        assert "sqlite" not in text
    route = health_app.get("/ui/nowhere")
    assert route.status_code == 404
    assert "no page" in route.text


def test_a_store_that_cannot_be_read_is_a_503_page_in_words(
    health_app: Browser, health_store: str
) -> None:
    raw = create_engine(health_store)
    with raw.begin() as conn:
        conn.execute(text("DROP TABLE faucet_dataset_profiles"))
    raw.dispose()
    for path in ("/ui/datasets", "/ui/datasets?status=drifted"):
        page = health_app.get(path)
        assert page.status_code == 503
        shown = unescape(page.text)
        assert "cannot be read right now, so this page cannot be shown" in shown
        assert "cannot read the catalog" in shown  # what failed, in words
        assert health_store.removeprefix("sqlite:///") not in shown
        assert "`" not in shown
        assert "Traceback" not in shown


def test_an_asset_the_freshness_sensor_found_overdue_is_marked(
    health_app: Browser, health_store: str
) -> None:
    from faucet_core.store import ProfileStore
    from faucet_core.store.metrics import set_freshness

    with ProfileStore(health_store) as store:
        set_freshness(store, [("orders", True, None), ("signups", False, None)])
    try:
        rows = _by_uri(health_app.get("/ui/datasets").text)
        marked = {uri for uri, r in rows.items() if 'class="badge st-overdue"' in r}
        assert marked == {"dagster://orders"}
    finally:
        with ProfileStore(health_store) as store:
            set_freshness(store, [("orders", False, None)])
