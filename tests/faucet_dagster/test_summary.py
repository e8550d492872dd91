"""The check's texts built from a real SQLite store's outcomes: the one-line description,
the plotted numbers and their cap, the markdown's marks and the distinct clamp."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pyarrow as pa
import pytest

from faucet_core import ProfilingConfig, profile
from faucet_core.store import ProfileStore, ProfilingOutcome
from faucet_dagster.checks.summary import (
    MAX_NUMERIC_ENTRIES,
    check_description,
    column_numbers,
    markdown_summary,
    numbers_left_out,
    shown_distinct,
)
from faucet_dagster.cli.render import render_column

CFG = ProfilingConfig(min_history=5, window=20)
T0 = dt.datetime(2026, 9, 1, tzinfo=dt.timezone.utc)
REGIONS = ("eu", "us", "apac", "us")


def _day(i: int, *, nulls: float = 0.01, latam: float = 0.0, n: int = 1000) -> pa.Table:
    k_null = int(n * (nulls + 0.002 * (i % 3)))
    amounts = [None if k < k_null else float(20 + (k * 13 + i * 7) % 200) for k in range(n)]
    k_latam = int(n * latam)
    region = ["latam" if k < k_latam else REGIONS[k % 4] for k in range(n)]
    return pa.table({"amount": amounts, "region": region})


def _record(url: str, days: list[pa.Table], cfg: ProfilingConfig = CFG) -> ProfilingOutcome:
    with ProfileStore(url) as store:
        for i, data in enumerate(days):
            outcome = store.record(
                "orders",
                profile(data, cfg),
                cfg,
                run_id=f"run-{i}",
                recorded_at=T0 + dt.timedelta(days=i),
            )
    return outcome


@pytest.fixture
def drifted(sqlite_url: str) -> ProfilingOutcome:
    days = [_day(i) for i in range(10)] + [_day(10, nulls=0.4, latam=0.125)]
    return _record(sqlite_url, days)


def test_the_description_is_one_sentence_per_root_cause(drifted: ProfilingOutcome) -> None:
    assert check_description(drifted) == (
        "Drift in 2 columns against 10 baseline runs: amount null rate 40.2% (expected at "
        'most 2.8%); region has a new value "latam" (12.5% of rows), string lengths moved too.'
    )
    assert check_description(drifted, classified={"region"}) == (
        "Drift in 2 columns against 10 baseline runs: amount null rate 40.2% (expected at "
        "most 2.8%); region has a new value (12.5% of rows; value withheld, classified), "
        "string lengths moved too."
    )


def test_the_full_messages_stay_in_the_markdown(drifted: ProfilingOutcome, sqlite_url: str) -> None:
    with ProfileStore(sqlite_url) as store:
        history = store.history("orders")
    text = markdown_summary(history[-1].profile, drifted, history, title="orders")
    lines = text.splitlines()
    assert lines[2] == (
        "**drifted**: Drift in 2 columns against 10 baseline runs; 1,000 row(s), 2 column(s)"
    )
    assert lines[7] == (
        '- `region.new_value`: value "latam" is 12.5% of the run; never among the top values '
        "in 10 baseline runs; also string_length (len_mean)"
    )
    assert lines[6] == (
        "- `amount.null_rate`: null_rate 40.2% vs baseline mean 1.2% — 34.9 sigma (sampling over "
        "1,000 records and 10 baseline runs' spread), above the 3.6 limit: 3 sigma widened for "
        "10 tests"
    )


def test_many_findings_are_counted_not_listed(drifted: ProfilingOutcome) -> None:
    many = replace(drifted, findings=drifted.findings * 4)
    text = check_description(many)
    assert text.endswith("; and 3 more in the summary.")
    assert text.count("amount null rate") == 3
    assert "\n" not in text


def test_a_run_kept_out_of_the_baseline_says_how_to_accept_it(sqlite_url: str) -> None:
    cfg = ProfilingConfig(min_history=5, on_drift="fail")
    outcome = _record(sqlite_url, [_day(i) for i in range(6)] + [_day(6, nulls=0.4)], cfg)
    assert check_description(outcome) == (
        "Drift in 1 column against 6 baseline runs: amount null rate 40.0% (expected at most "
        "2.9%). This run stays out of the baseline (on_drift: fail), so the change fails "
        "again until accepted; if it is intended, re-baseline: faucet profiling reset "
        "--select orders"
    )


def test_the_null_rate_trend_marks_only_the_columns_findings(sqlite_url: str) -> None:
    # Day 6 drifts on amount only; day 7 on region only.
    days = [_day(i) for i in range(6)] + [_day(6, nulls=0.4), _day(7, latam=0.125)]
    outcome = _record(sqlite_url, days)
    with ProfileStore(sqlite_url) as store:
        history = store.history("orders")
    text = markdown_summary(history[-1].profile, outcome, history, title="orders")
    rows = {
        ln.split("|")[1].strip(): ln.split("|")[3].strip()
        for ln in text.splitlines()
        if ln.startswith("| `")
    }
    assert rows["`amount`"][-2:] == "!▁"  # not marked for region's finding
    assert rows["`region` ⚠"][-2:].endswith("!")
    assert rows["`region` ⚠"][-2] != "!"  # not marked for amount's finding


def _wide(columns: int) -> pa.Table:
    return pa.table({f"c{k:02d}": [float(i * (k + 1)) for i in range(50)] for k in range(columns)})


def test_numbers_are_capped_with_the_drifted_columns_first() -> None:
    prof = profile(_wide(20), CFG)  # 7 numbers per numeric column: 140
    numbers = column_numbers(prof, drifted={"c19"})
    assert len(numbers) == 98 <= MAX_NUMERIC_ENTRIES  # 14 whole columns
    assert list(numbers)[:7] == [
        "c19.null_rate",
        "c19.distinct",
        "c19.mean",
        "c19.min",
        "c19.max",
        "c19.p50",
        "c19.p95",
    ]
    assert {key.split(".")[0] for key in numbers} == {"c19", *(f"c{k:02d}" for k in range(13))}
    assert numbers_left_out(prof, drifted={"c19"}) == [f"c{k:02d}" for k in range(13, 19)]
    assert numbers_left_out(profile(_wide(3), CFG)) == []


def test_a_classified_column_publishes_no_value_numbers() -> None:
    cfg = ProfilingConfig.model_validate(
        {"policy": {"rules": [{"label": "pii", "columns": ["salary"]}]}}
    )
    prof = profile(pa.table({"salary": [1000.0, 2000.0, 3500.0]}), cfg)
    assert prof.columns["salary"].classified
    assert sorted(column_numbers(prof)) == ["salary.distinct", "salary.null_rate"]
    # Even a classified profile that kept its numbers (an older faucet) publishes none.
    plain = profile(pa.table({"salary": [1000.0, 2000.0, 3500.0]}), CFG).columns["salary"]
    assert plain.numeric is not None
    kept = replace(prof, columns={"salary": replace(plain, classified=("pii",))})
    assert sorted(column_numbers(kept)) == ["salary.distinct", "salary.null_rate"]
    assert sorted(column_numbers(replace(prof, columns={"salary": plain}))) == [
        "salary.distinct",
        "salary.max",
        "salary.mean",
        "salary.min",
        "salary.null_rate",
        "salary.p50",
        "salary.p95",
    ]


def test_a_distinct_estimate_never_exceeds_the_non_null_count() -> None:
    col = profile(pa.table({"x": [1.0, 2.0, None, None]}), CFG).columns["x"]
    overshoot = replace(col, distinct=5)
    assert shown_distinct(overshoot) == 2
    assert (
        column_numbers(replace(profile(pa.table({"x": [1.0]}), CFG), columns={"x": overshoot}))[
            "x.distinct"
        ]
        == 2.0
    )
    assert "distinct 2 " in render_column(overshoot)
