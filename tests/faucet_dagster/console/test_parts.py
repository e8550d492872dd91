"""The console's pure parts: the SVG sparkline, the search rule, the Dagster URL, the
public names; and a store failure answered as an HTML 503 page."""

from __future__ import annotations

import math

import pytest
from sqlalchemy import create_engine, text

import faucet_dagster.serve.console as console
from faucet_core.catalog import Catalog
from faucet_core.errors import ConfigError
from faucet_dagster.serve.api.auth import Role, TokenTable
from faucet_dagster.serve.console import dagster_url, svg_sparkline
from faucet_dagster.serve.console.views import DatasetRow, matches
from tests.faucet_dagster.console.conftest import MakeBrowser


def test_sparkline_points_and_drift_marks() -> None:
    svg = str(svg_sparkline([0.0, 0.0, 0.5], [False, False, True], label="total null rate"))
    assert svg.startswith('<svg class="spark"')
    assert 'data-points="3" data-drift="1"' in svg
    assert svg.count('class="drift"') == 1
    assert svg.count('class="run"') == 2
    assert "<polyline" in svg
    assert 'cx="156" cy="4"' in svg  # the drifted run, at the top right
    assert "style=" not in svg  # nothing the Content-Security-Policy would block


def test_sparkline_edge_cases_and_escaping() -> None:
    assert "<polyline" not in str(svg_sparkline([0.25], label="one"))
    assert 'data-points="0"' in str(svg_sparkline([], label="none"))
    flat = str(svg_sparkline([1.0, 1.0], label="flat"))
    assert flat.count('cy="16"') == 2  # a constant series sits in the middle
    odd = str(svg_sparkline([1.0, math.nan, 2.0], label="nan"))
    assert "nan," not in odd
    hostile = str(svg_sparkline([1.0], label="<b>x</b>", runs=['"><script>']))
    assert "<b>" not in hostile
    assert "<script>" not in hostile
    assert "&lt;b&gt;" in hostile


def test_search_needs_every_word() -> None:
    row = DatasetRow("abc123", "s3://lake/crm.parquet", "s3", ("team:crm",), "-", "-")
    assert matches(row, "CRM lake")
    assert matches(row, "team:crm abc1")
    assert not matches(row, "crm finance")


def test_dagster_url_rule() -> None:
    assert dagster_url(None) is None
    assert dagster_url("  ") is None
    assert dagster_url("http://127.0.0.1:3000/") == "http://127.0.0.1:3000"
    with pytest.raises(ConfigError, match="'ftp://x' is not an http\\(s\\) URL"):
        dagster_url("ftp://x")
    with pytest.raises(ConfigError, match="not an http"):
        dagster_url('http://x/"onload=')


def test_public_names() -> None:
    assert sorted(console.__all__) == sorted(
        [
            "COOKIE",
            "ENV_DAGSTER_URL",
            "ENV_SESSION_SECRET",
            "PREFIX",
            "SESSION_SECONDS",
            "ConsoleContext",
            "Sessions",
            "console_mount",
            "dagster_url",
            "http_error_page",
            "session_secret",
            "svg_sparkline",
        ]
    )
    sessions = console.Sessions(TokenTable([("a", Role.VIEWER, "a" * 20)]), b"k" * 32)
    assert sessions.sign_in("b" * 20) is None
    found = sessions.sign_in("a" * 20)
    assert found is not None
    assert sessions.check(found[1]) is not None


def test_a_store_failure_is_a_503_page(app_for: MakeBrowser, store: str) -> None:
    browser = app_for(store)
    browser.sign_in("viewer")
    engine = create_engine(store)
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE faucet_dataset_profiles"))
    engine.dispose()
    page = browser.get("/ui/datasets")
    assert page.status_code == 503
    assert page.headers["content-type"].startswith("text/html")
    assert "cannot read the catalog" in page.text
    assert "Traceback" not in page.text


def test_serve_refuses_a_bad_dagster_url_or_secret_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from faucet_dagster.cli import main
    from tests.faucet_dagster.console.conftest import LOCATION

    monkeypatch.setenv("FAUCET_TOKENS", "me:viewer:" + "t" * 20)
    code = main(["serve", "-f", LOCATION, "--dagster-url", "ftp://x"])
    err = capsys.readouterr().err
    assert code != 0
    assert "Dagster UI URL 'ftp://x' is not an http(s) URL" in err
    assert "Traceback" not in err
    monkeypatch.setenv("FAUCET_SESSION_SECRET", "s3cr7")
    assert main(["serve", "-f", LOCATION]) != 0
    err = capsys.readouterr().err
    assert "FAUCET_SESSION_SECRET is 5 characters: give 32 or more" in err
    assert "s3cr7" not in err  # the secret itself is never echoed


@pytest.mark.parametrize(
    ("table", "column", "garbage"),
    [
        ("faucet_dataset_profiles", "profile", b"\x1f\x8b not a profile"),
        ("faucet_dataset_profiles", "findings", b"\xff\xfe not json"),
        ("faucet_datasets", "schema", '{"fields": 7}'),
    ],
    ids=["profile-garbage", "findings-not-json", "schema-malformed"],
)
def test_a_damaged_catalog_row_is_an_html_page_without_traceback(
    app_for: MakeBrowser, store: str, table: str, column: str, garbage: str | bytes
) -> None:
    with Catalog(store) as catalog:
        ledger = catalog.resolve("dagster://ledger")
    engine = create_engine(store)
    with engine.begin() as conn:
        key = "dataset_id" if table == "faucet_dataset_profiles" else "id"
        conn.execute(
            text(f"UPDATE {table} SET {column} = :g WHERE {key} = :d"), {"g": garbage, "d": ledger}
        )
    engine.dispose()
    browser = app_for(store)
    browser.sign_in("viewer")
    listing = browser.get("/ui/datasets")
    page = browser.get(f"/ui/datasets/{ledger}")
    for answer in (listing, page):
        assert answer.headers["content-type"].startswith("text/html")
        assert "Traceback" not in answer.text
        assert answer.status_code in (200, 503)
        if answer.status_code == 503:  # the damage named: which dataset, what is unreadable
            assert ledger in answer.text or "dagster://ledger" in answer.text
            assert "unreadable" in answer.text
            assert "not a profile" not in answer.text
            assert "without an encoding" not in answer.text  # no Python internals
    assert page.status_code == 503
