"""Every console page over a real SQLite store holding profiles with drift recorded by the
real profiler and detector, through the real ``faucet serve`` app (Starlette TestClient)."""

from __future__ import annotations

import datetime as dt
import io
import re
from html import unescape
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from faucet_core.catalog import Catalog
from faucet_core.store.audit import Outcome, write_audit
from faucet_dagster.cli import main
from faucet_dagster.serve.app import MAX_BODY_BYTES
from faucet_dagster.serve.console.render import SECURITY_HEADERS
from tests.faucet_dagster.console.conftest import (
    DAGSTER_URL,
    HOSTILE,
    LOCATION,
    Browser,
    MakeBrowser,
    audit_entries,
)
from tests.faucet_dagster.server.conftest import TOKENS

SAMPLE_CSV = b"id,email,score\n1,a@x,0.5\n2,b@y,1.5\n"


@pytest.fixture
def operator(app_for: MakeBrowser, store: str) -> Browser:
    browser = app_for(store)
    assert browser.sign_in("operator").status_code == 303
    return browser


def _ledger_id(store: str) -> str:
    with Catalog(store) as catalog:
        return catalog.resolve("dagster://ledger")


def _rows(html: str, table: str) -> list[str]:
    body = html.split(f'id="{table}"', 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)


def _headers_ok(response: object) -> None:
    for name, value in SECURITY_HEADERS.items():
        assert response.headers[name] == value, name  # type: ignore[attr-defined]


def test_the_list_shows_every_dataset_with_kind_owners_last_run_and_drift(
    operator: Browser, store: str
) -> None:
    page = operator.get("/ui/datasets")
    assert page.status_code == 200
    _headers_ok(page)
    rows = {re.search(r">([^<]+)</a>", r).group(1): r for r in _rows(page.text, "datasets")}  # type: ignore[union-attr]
    assert set(rows) >= {
        "dagster://ledger",
        "dagster://customers",
        "s3://lake/crm/customers.parquet",
        "bigquery://mart.customers",
    }
    ledger = rows["dagster://ledger"]
    assert "Dagster asset" in ledger
    assert "team:finance" in ledger
    assert 'class="drift"' in ledger  # its last drift is dated
    lake = rows["s3://lake/crm/customers.parquet"]
    assert "<td>s3</td>" in lake
    assert "team:lake" in lake
    assert 'class="drift"' not in lake  # never profiled, never drifted


def test_search_is_server_side_and_matches_owners(operator: Browser) -> None:
    page = operator.get("/ui/datasets?q=ledger")
    assert [r for r in _rows(page.text, "datasets") if "dagster://" in r] != []
    assert all("ledger" in r for r in _rows(page.text, "datasets"))
    by_owner = operator.get("/ui/datasets?q=team%3Abi")
    (row,) = _rows(by_owner.text, "datasets")
    assert "bigquery://mart.customers" in row
    none = operator.get("/ui/datasets?q=no-such-thing")
    assert "No dataset matches" in none.text
    too_long = operator.get("/ui/datasets?q=" + "x" * 201)
    assert too_long.status_code == 400
    assert "q: longer than 200" in too_long.text


def test_a_dataset_page_has_schema_profile_sparklines_and_its_dagster_link(
    operator: Browser, store: str
) -> None:
    page = operator.get(f"/ui/datasets/{_ledger_id(store)}")
    assert page.status_code == 200
    html = page.text
    assert f'href="{DAGSTER_URL}/assets/ledger"' in html
    assert 'href="/ui/impact?asset=ledger"' in html
    assert "4 run(s) read" in html
    charts = dict(re.findall(r'aria-label="([^"]+)" data-points="4" data-drift="(\d)"', html))
    spark = {k.split()[0]: v for k, v in charts.items() if k.endswith(" null rate")}
    # each column's run is marked only for that column's own findings, and only on the
    # statistic that drifted
    assert spark == {"total": "1"}  # id and amount never held a null: no null-rate chart
    assert html.count("(no null in any run shown)") == 2
    assert charts["total mean"] == "0"  # total drifted on its null rate only
    assert charts["amount mean"] == "1"
    assert {k for k, v in charts.items() if v == "1"} <= {
        "total null rate",
        "amount mean",
        "amount min",
        "amount max",
    }
    assert html.count('class="drift"') == sum(map(int, charts.values()))
    assert "total.null_rate: null_rate 50.0% vs baseline mean 0.0%" in html  # its finding
    schema = html.split('id="schema"', 1)[1].split("</section>", 1)[0]
    assert all(f"<td>{c}</td>" in schema for c in ("id", "total", "amount"))


def test_lineage_consumers_and_contracts_of_the_lake_copy(operator: Browser) -> None:
    page = operator.get("/ui/datasets/s3://lake/crm/customers.parquet")
    assert page.status_code == 200
    html = page.text
    upstream = html.split("<h2>Upstream</h2>", 1)[1].split("<h2>Downstream</h2>", 1)[0]
    assert "dagster://customers" in upstream
    assert "<code>customer_id</code> ← id" in upstream
    downstream = html.split("<h2>Downstream</h2>", 1)[1].split("</section>", 1)[0]
    assert "bigquery://mart.customers" in downstream
    assert "unknown (opaque step)" in downstream
    names = [re.search(r"<td>([^<]+)</td>", r).group(1) for r in _rows(html, "consumers")]  # type: ignore[union-attr]
    assert names == ["crm-sync", "ids-only", "lake-audit"]
    assert "open in Dagster" not in html  # not an asset of the location: no link
    assert "plan a change" not in html
    mart = operator.get("/ui/datasets/bigquery://mart.customers").text
    assert "v2 of airflow/mart declares: customer_id, email" in mart


def test_no_dagster_link_when_no_url_is_set(
    app_for: MakeBrowser, store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FAUCET_DAGSTER_URL", raising=False)
    browser = app_for(store, dagster_url=None)
    browser.sign_in("viewer")
    assert "open in Dagster" not in browser.get(f"/ui/datasets/{_ledger_id(store)}").text


def test_the_dagster_url_comes_from_the_environment(
    app_for: MakeBrowser, store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAUCET_DAGSTER_URL", "https://dagster.example.com/prefix/")
    browser = app_for(store, dagster_url=None)
    browser.sign_in("viewer")
    html = browser.get(f"/ui/datasets/{_ledger_id(store)}").text
    assert 'href="https://dagster.example.com/prefix/assets/ledger"' in html


def test_unknown_pages_are_html_errors_and_the_api_keeps_json(operator: Browser) -> None:
    missing = operator.get("/ui/datasets/ffffffffffff")
    assert missing.status_code == 404
    assert missing.headers["content-type"].startswith("text/html")
    assert "Traceback" not in missing.text
    _headers_ok(missing)
    route = operator.get("/ui/nowhere")
    assert route.status_code == 404
    assert route.headers["content-type"].startswith("text/html")
    _headers_ok(route)
    wrong_method = operator.get("/ui/signout")
    assert wrong_method.status_code == 405
    assert wrong_method.headers["content-type"].startswith("text/html")
    api = operator.client.get("/v1/nowhere")
    assert api.status_code == 404
    assert api.json()["error"].startswith("no route")
    # the console session is no bearer token: the API still answers 401 without one
    assert operator.client.get("/v1/catalog/datasets").status_code == 401


def test_static_assets_ship_in_the_package_with_the_headers(operator: Browser) -> None:
    css = operator.get("/ui/static/console.css")
    assert css.status_code == 200
    assert "svg.spark" in css.text
    _headers_ok(css)
    assert operator.get("/ui/").headers["location"] == "/ui/datasets"


def test_impact_with_an_uploaded_csv_sample_shows_the_breaking_columns(
    operator: Browser, store: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    form = operator.get("/ui/impact")
    assert form.status_code == 200
    options = re.findall(r'<option value="([^"]+)"', form.text)
    assert options == ["contacts", "customers", "ledger", "raw", "untyped"]
    chosen = operator.get("/ui/impact?asset=customers").text
    assert '<option value="customers" selected>' in chosen
    csrf = operator.csrf("/ui/impact")
    page = operator.post(
        "/ui/impact",
        {"csrf": csrf, "asset": "customers", "depth": "5"},
        files={"sample_file": ("customers.csv", SAMPLE_CSV)},
    )
    assert page.status_code == 200, page.text
    delta = {
        (re.findall(r"<td>([^<]*)</td>", r)[0], re.findall(r"<td>([^<]*)</td>", r)[4])
        for r in _rows(page.text, "delta")
    }
    assert ("legacy", "breaking") in delta  # the sample has no legacy column
    affected = [re.findall(r">([^<]+)</a>", r)[0] for r in _rows(page.text, "affected")]
    assert affected == ["dagster://customers", "dagster://untyped"]
    # the markdown is exactly what `faucet plan --impact --format markdown` prints
    sample = tmp_path / "customers.csv"
    sample.write_bytes(SAMPLE_CSV)
    argv = ["plan", "--impact", "-f", LOCATION, "--select", "customers", "--store", store]
    assert main([*argv, "--sample", str(sample), "--format", "markdown"]) == 0
    printed = capsys.readouterr().out.rstrip("\n")
    shown = re.search(r'<pre class="markdown">(.*?)</pre>', page.text, re.S)
    assert shown is not None
    assert unescape(shown.group(1)).rstrip("\n") == printed
    (entry,) = audit_entries(store, "plan")
    assert (entry.actor, entry.target, entry.detail["sample"]) == (
        "operator-user",
        "customers",
        "customers.csv",
    )


def test_impact_with_a_parquet_upload_and_a_pasted_sample(operator: Browser) -> None:
    csrf = operator.csrf("/ui/impact")
    buffer = io.BytesIO()
    pq.write_table(pa.table({"id": [1, 2], "email": ["a", "b"], "legacy": ["x", "y"]}), buffer)
    page = operator.post(
        "/ui/impact",
        {"csrf": csrf, "asset": "customers"},
        files={"sample_file": ("sample.parquet", buffer.getvalue())},
    )
    assert page.status_code == 200, page.text
    delta = [re.findall(r"<td>([^<]*)</td>", r)[:2] for r in _rows(page.text, "delta")]
    assert ["score", "removed"] in delta
    pasted = operator.post(
        "/ui/impact",
        {"csrf": csrf, "asset": "customers", "sample": '{"id": 1, "email": "a", "score": 1}'},
    )
    assert pasted.status_code == 200
    assert "Planned from the pasted sample" in pasted.text


def test_impact_refusals_are_html_pages(operator: Browser) -> None:
    csrf = operator.csrf("/ui/impact")
    unknown = operator.post("/ui/impact", {"csrf": csrf, "asset": "nope"})
    assert unknown.status_code == 400
    assert "&#39;nope&#39; is not an asset of this code location" in unknown.text
    wrong = operator.post(
        "/ui/impact",
        {"csrf": csrf, "asset": "customers"},
        files={"sample_file": ("sample.exe", b"MZ")},
    )
    assert wrong.status_code == 400
    assert ".exe is not a sample format" in wrong.text
    bad = operator.post(
        "/ui/impact",
        {"csrf": csrf, "asset": "customers"},
        files={"sample_file": ("broken.jsonl", b"{not json\n")},
    )
    assert bad.status_code == 400
    assert "broken.jsonl" in bad.text
    assert "/tmp" not in bad.text
    assert "Traceback" not in bad.text
    big = operator.post(
        "/ui/impact",
        {"csrf": csrf, "asset": "customers"},
        files={"sample_file": ("big.jsonl", b'{"id": 1}\n' * (MAX_BODY_BYTES // 10 + 10))},
    )
    assert big.status_code == 413
    assert "larger than 1,048,576 bytes" in big.text


def test_audit_is_admin_only_and_paged(app_for: MakeBrowser, store: str) -> None:
    with Catalog(store) as catalog:
        for i in range(60):
            write_audit(
                catalog.engine,
                actor=f"bot-{i}",
                role="viewer",
                action="plan",
                outcome=Outcome.OK,
                status=200,
                target=HOSTILE if i == 59 else f"t{i}",
            )
    operator = app_for(store)
    operator.sign_in("operator")
    assert 'href="/ui/audit"' not in operator.get("/ui/datasets").text
    assert operator.get("/ui/audit").status_code == 403
    admin = app_for(store)
    admin.sign_in("admin")
    assert 'href="/ui/audit"' in admin.get("/ui/datasets").text
    first = admin.get("/ui/audit")
    assert first.status_code == 200
    rows = _rows(first.text, "audit")
    assert len(rows) == 50
    assert "ui.signin" in rows[0]  # newest first: the admin's own sign-in
    assert HOSTILE not in first.text
    assert "&lt;script&gt;" in first.text
    older = re.search(r'href="/ui/audit\?before=(\d+)"', first.text)
    assert older is not None
    second = admin.get(f"/ui/audit?before={older.group(1)}")
    assert len(_rows(second.text, "audit")) == 62 - 50  # 60 + two sign-ins
    assert "before=" not in second.text.split('class="pages"', 1)[1]
    assert admin.get("/ui/audit?before=x1").status_code == 400


def test_user_data_is_escaped_everywhere(operator: Browser) -> None:
    listing = operator.get("/ui/datasets")
    assert HOSTILE not in listing.text
    assert "s3://lake/&lt;script&gt;alert(1)&lt;/script&gt;" in listing.text
    href = re.search(r'href="(/ui/datasets/[0-9a-f]+)">s3://lake/&lt;script', listing.text)
    assert href is not None
    page = operator.get(href.group(1))
    assert page.status_code == 200
    assert HOSTILE not in page.text
    assert page.text.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 3  # uri, owner, job
    csrf = operator.csrf()
    operator.post(href.group(1) + "/consumers", {"csrf": csrf, "action": "add", "name": HOSTILE})
    again = operator.get(href.group(1))
    assert HOSTILE not in again.text
    searched = operator.get("/ui/datasets?q=%3Cscript%3E")
    assert HOSTILE not in searched.text
    assert "&lt;script&gt;" in searched.text


def test_no_page_or_url_shows_a_token(app_for: MakeBrowser, store: str) -> None:
    browser = app_for(store)
    response = browser.sign_in("admin", "/ui/audit")
    assert TOKENS["admin"] not in response.headers["location"]
    for path in ("/ui/datasets", f"/ui/datasets/{_ledger_id(store)}", "/ui/impact", "/ui/audit"):
        page = browser.get(path)
        assert page.status_code == 200, path
        assert not any(token in page.text for token in TOKENS.values()), path


def test_the_list_is_paged_and_keeps_the_search(app_for: MakeBrowser, store: str) -> None:
    from faucet_core.catalog import DatasetRef, JobRef, Observation, RunRecord, RunState
    from faucet_dagster.location import load_code_location
    from faucet_dagster.serve.console.assets import AssetIndex
    from faucet_dagster.serve.console.pages import DATASETS_PAGE

    extra = DATASETS_PAGE + 50
    when = dt.datetime(2026, 3, 3, tzinfo=dt.timezone.utc)
    outputs = tuple(
        Observation(DatasetRef("s3://lake", f"paged/t{i:04}.parquet"), owners=("team:pg",))
        for i in range(extra)
    )
    with Catalog(store) as catalog:
        before = len(catalog.datasets())
        catalog.record(
            [
                RunRecord(
                    job=JobRef("airflow", "fan-out"),
                    run_id="ol-paged",
                    state=RunState.COMPLETE,
                    event_time=when,
                    outputs=outputs,
                )
            ]
        )
    with Catalog(store) as catalog:
        known = {e.id for e in catalog.datasets()}
    never_run = len(set(AssetIndex.of(load_code_location(file=LOCATION).defs).refs) - known)
    total = before + extra + never_run  # the location's assets that never ran are listed
    browser = app_for(store)
    browser.sign_in("viewer")
    first = browser.get("/ui/datasets")
    assert len(_rows(first.text, "datasets")) == DATASETS_PAGE
    assert f"1–{DATASETS_PAGE} of {total} dataset(s)" in first.text
    assert 'rel="next" href="/ui/datasets?page=2"' in first.text
    assert 'rel="prev"' not in first.text
    second = browser.get("/ui/datasets?page=2")
    assert len(_rows(second.text, "datasets")) == total - DATASETS_PAGE
    assert 'rel="prev" href="/ui/datasets?page=1"' in second.text
    assert 'rel="next"' not in second.text
    # Past the last page shows the last, however many digits; every dataset is on exactly
    # one page.
    for past in ("99", "9999999999", "0" * 5 + "3", "9" * 5000):
        shown = browser.get(f"/ui/datasets?page={past}")
        assert shown.status_code == 200, past[:20]
        assert _rows(shown.text, "datasets") == _rows(second.text, "datasets")
    names = set(re.findall(r"s3://lake/paged/t\d{4}", first.text + second.text))
    assert len(names) == extra
    # A search is paged too, and the links keep it.
    found = browser.get("/ui/datasets?q=team%3Apg")
    assert f"1–{DATASETS_PAGE} of {extra} of {total} dataset(s) matching" in unescape(found.text)
    assert 'href="/ui/datasets?q=team%3Apg&amp;page=2"' in found.text
    rest = browser.get("/ui/datasets?q=team%3Apg&page=2")
    assert len(_rows(rest.text, "datasets")) == extra - DATASETS_PAGE
    for bad in ("0", "000", "-1", "+1", "two", "1e3", "\u0661"):
        refused = browser.get(f"/ui/datasets?page={bad}")
        assert refused.status_code == 400
        assert "is not a page number" in unescape(refused.text)


def test_a_short_list_has_no_pager(operator: Browser) -> None:
    page = operator.get("/ui/datasets")
    assert 'aria-label="pages"' not in page.text
    assert re.search(r"<p class=\"count\">\d+ dataset\(s\)</p>", page.text)
