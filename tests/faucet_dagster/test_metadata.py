"""The check evaluation's metadata: numbers the UI plots, a markdown summary, findings as JSON."""

from __future__ import annotations

import re
from collections.abc import Iterator

import dagster as dg
import pandas as pd
import pytest

from faucet_dagster import build_profile_checks
from faucet_dagster.checks.summary import MAX_NUMERIC_ENTRIES, SPARK_BLOCKS
from tests.faucet_dagster.helpers import FEED, evaluation, materialize, orders, orders_frame

DAYS = 4
MIN_HISTORY = DAYS - 1
DRIFT_NULL_SHARE = 0.5


@pytest.fixture(scope="module")
def drifted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dg.AssetCheckEvaluation]:
    """Three normal days, then a day on which half the amounts are null (on_drift: warn)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('store') / 'faucet.db'}"
    checks = build_profile_checks([orders], config={"min_history": MIN_HISTORY})
    FEED.reset()
    try:
        with dg.instance_for_test() as instance:
            for day in range(DAYS):
                FEED.day = day
                FEED.null_share = DRIFT_NULL_SHARE if day == DAYS - 1 else 0.01
                result = materialize([orders, *checks], instance, url)
            yield evaluation(result)
    finally:
        FEED.reset()


def test_per_column_numbers_are_float_metadata(drifted):
    frame = orders_frame(DAYS - 1, null_share=DRIFT_NULL_SHARE)
    expected = {
        "amount.null_rate": round(float(frame["amount"].isna().mean()), 6),
        "amount.distinct": float(frame["amount"].nunique()),
        "amount.mean": float(frame["amount"].mean()),
        "amount.min": float(frame["amount"].min()),
        "amount.max": float(frame["amount"].max()),
        "amount.p50": float(frame["amount"].median()),
        "amount.p95": float(frame["amount"].quantile(0.95)),
        "region.null_rate": 0.0,
        "region.distinct": 3.0,
        "region.len_mean": round(float(frame["region"].str.len().mean()), 4),
        "region.len_max": float(frame["region"].str.len().max()),
    }
    numbers = {k: v for k, v in drifted.metadata.items() if "." in k and "/" not in k}
    assert sorted(numbers) == sorted(expected)
    for key, value in numbers.items():
        assert isinstance(value, dg.FloatMetadataValue), key
    assert numbers["amount.null_rate"].value == expected["amount.null_rate"]
    assert numbers["region.null_rate"].value == 0.0
    assert numbers["region.distinct"].value == 3.0
    assert numbers["region.len_mean"].value == expected["region.len_mean"]
    assert numbers["amount.mean"].value == pytest.approx(expected["amount.mean"], rel=1e-9)
    assert numbers["amount.min"].value == expected["amount.min"]
    assert numbers["amount.max"].value == expected["amount.max"]
    assert numbers["region.len_max"].value == expected["region.len_max"]
    # percentiles are sketch estimates
    for key in ("amount.p50", "amount.p95"):
        assert numbers[key].value == pytest.approx(expected[key], rel=0.02), key
    assert "faucet/numbers_left_out" not in drifted.metadata  # 2 columns are far below the cap
    # distinct counts are sketch estimates: exact at this size
    assert numbers["amount.distinct"].value == pytest.approx(expected["amount.distinct"], rel=0.02)


def test_settings_and_counts_are_text_and_only_measures_are_numbers(drifted):
    """The UI plots every numeric entry as a series: a setting or a baseline depth is text."""
    md = drifted.metadata
    assert md["faucet/status"] == dg.MetadataValue.text("drifted")
    assert md["faucet/baseline_runs"] == dg.MetadataValue.text(str(DAYS - 1))
    assert md["faucet/min_history"] == dg.MetadataValue.text(str(MIN_HISTORY))
    assert md["faucet/on_drift"] == dg.MetadataValue.text("warn")
    assert md["faucet/row_count"] == dg.MetadataValue.int(400)
    assert md["faucet/baseline_key"] == dg.MetadataValue.text("orders")


def test_findings_are_json(drifted):
    value = drifted.metadata["faucet/findings"]
    assert isinstance(value, dg.JsonMetadataValue)
    findings = value.data
    assert isinstance(findings, list)
    null_rate = next(f for f in findings if (f["column"], f["metric"]) == ("amount", "null_rate"))
    assert null_rate["value"] == drifted.metadata["amount.null_rate"].value
    assert null_rate["baseline_runs"] == DAYS - 1
    assert null_rate["message"].startswith("amount.null_rate: ")
    assert drifted.metadata["faucet/finding_count"] == dg.MetadataValue.int(len(findings))


def test_summary_is_markdown_with_the_column_table_and_sparklines(drifted):
    value = drifted.metadata["summary"]
    assert isinstance(value, dg.MarkdownMetadataValue)
    lines = value.md_str.splitlines()
    assert lines[0] == "### orders"
    finding_count = drifted.metadata["faucet/finding_count"].value
    assert lines[2] == (
        f"**drifted**: Drift in {finding_count} column against {DAYS - 1} baseline runs; "
        "400 row(s), 2 column(s)"
    )
    assert "**Findings**" in lines
    finding_line = next(line for line in lines if line.startswith("- `amount.null_rate`: "))
    assert not finding_line.startswith("- `amount.null_rate`: amount.null_rate")  # said once
    assert "| column | null | null-rate trend | distinct | types | numbers | top values |" in lines
    rows = {line.split("|")[1].strip(): line.split("|") for line in lines if line.startswith("| `")}
    assert sorted(rows) == ["`amount` ⚠", "`region`"]  # the drifting column is marked
    null_share = drifted.metadata["amount.null_rate"].value
    assert rows["`amount` ⚠"][2].strip() == f"{null_share:.1%}"
    # One mark per stored run, oldest first; '!' marks a run with a finding on that column.
    spark = re.compile(f"^[{SPARK_BLOCKS}!]{{{DAYS}}}$")
    for cells in rows.values():
        assert spark.match(cells[3].strip()), cells[3]
    assert rows["`amount` ⚠"][3].strip().endswith("!")
    assert rows["`region`"][3].strip() == "▁" * DAYS  # a constant 0% series, no finding


@dg.asset
def wide() -> pd.DataFrame:
    """20 numeric columns: 7 numbers each, 140 in all, over the cap."""
    return pd.DataFrame({f"c{k:02d}": [float(i * (k + 1)) for i in range(50)] for k in range(20)})


def test_a_wide_table_plots_at_most_the_cap_and_names_what_it_left_out(sqlite_url):
    checks = build_profile_checks([wide])
    with dg.instance_for_test() as instance:
        ev = evaluation(materialize([wide, *checks], instance, sqlite_url))
    plotted = [k for k, v in ev.metadata.items() if isinstance(v, dg.FloatMetadataValue)]
    assert len(plotted) == 98 <= MAX_NUMERIC_ENTRIES  # 14 whole columns of 7
    assert {k.split(".")[0] for k in plotted} == {f"c{k:02d}" for k in range(14)}
    numeric = [
        k
        for k, v in ev.metadata.items()
        if isinstance(v, (dg.FloatMetadataValue, dg.IntMetadataValue))
    ]
    assert sorted(set(numeric) - set(plotted)) == ["faucet/finding_count", "faucet/row_count"]
    assert ev.metadata["faucet/numbers_left_out"] == dg.MetadataValue.text(
        "6 column(s) not plotted (at most 100 numbers per check, drifted columns first): "
        "c14, c15, c16, c17, c18, c19"
    )
