"""The profiling options that shape a profile: columns, exclude, max_columns, top_values,
categorical_max_distinct."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pytest

from faucet_core import ProfilingConfig, profile
from faucet_core.profile.jsontext import MAX_TRACKED_VALUE_CHARS

ROW = {"id": 1, "_faucet_run": "r1", "_faucet_ts": "t", "tmp_a": 1, "tmp_b": 2, "name": "x"}


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({}, ["id", "tmp_a", "tmp_b", "name"]),
        ({"exclude": []}, list(ROW)),
        ({"exclude": ["name"]}, ["id", "_faucet_run", "_faucet_ts", "tmp_a", "tmp_b"]),
        ({"exclude": ["tmp_*", "_faucet_*"]}, ["id", "name"]),
        ({"exclude": ["tmp_a", "_faucet_*"]}, ["id", "tmp_b", "name"]),
        ({"columns": ["name", "id"]}, ["name", "id"]),
        ({"columns": ["name", "_faucet_run"]}, ["name"]),
    ],
    ids=[
        "default-excludes-metadata",
        "exclude-nothing",
        "exact-name",
        "prefix-globs",
        "exact-and-glob",
        "only-columns",
        "exclude-beats-columns",
    ],
)
def test_columns_and_exclude(fields: dict[str, object], expected: list[str]) -> None:
    prof = profile([ROW, ROW], ProfilingConfig(**fields))
    assert list(prof.columns) == expected
    assert prof.skipped_columns == 0


def test_a_listed_column_absent_from_the_data_is_all_null() -> None:
    prof = profile([{"a": 1}], ProfilingConfig(columns=("a", "missing")))
    assert prof["missing"].null_rate == 1.0
    assert prof["missing"].types == {"null": 1}


def test_an_exact_exclude_name_matches_even_with_glob_characters() -> None:
    # as a glob, 'price[usd]' matches 'priceu', 'prices' or 'priced', not itself
    prof = profile([{"price[usd]": 1, "price": 2}], ProfilingConfig(exclude=("price[usd]",)))
    assert list(prof.columns) == ["price"]


@pytest.mark.parametrize("cap", [1, 3, 10], ids=["one", "three", "ten"])
def test_max_columns_counts_the_rest(cap: int) -> None:
    frame = pd.DataFrame({f"c{i}": [i] for i in range(10)})
    prof = profile(frame, ProfilingConfig(max_columns=cap))
    assert list(prof.columns) == [f"c{i}" for i in range(cap)]
    assert prof.skipped_columns == 10 - cap


def test_max_columns_counts_columns_that_appear_later() -> None:
    records = [{"a": 1}, {"a": 2, "b": 1}, {"c": 3, "b": 2}]
    prof = profile(records, ProfilingConfig(max_columns=1))
    assert list(prof.columns) == ["a"]
    assert prof.skipped_columns == 2


def test_top_values_zero_disables_them() -> None:
    prof = profile([{"s": "a"}, {"s": "b"}], ProfilingConfig(top_values=0))
    column = prof["s"]
    assert column.top_values is None
    assert column.high_cardinality is False
    assert column.distinct == 2
    assert column.sketches["freq"] is None


@pytest.mark.parametrize("keep", [1, 3, 10], ids=["one", "three", "ten"])
def test_top_values_keeps_the_most_frequent(keep: int) -> None:
    # value i appears i+1 times: the most frequent are the last ones
    records = [{"v": f"k{i:02d}"} for i in range(20) for _ in range(i + 1)]
    top = profile(records, ProfilingConfig(top_values=keep))["v"].top_values
    assert top is not None
    assert [(t.value, t.count) for t in top] == [
        (f"k{i:02d}", i + 1) for i in range(19, 19 - keep, -1)
    ]


def test_top_values_ties_are_ordered_by_value() -> None:
    top = profile([{"v": v} for v in ["b", "a", "c", "a", "b", "c"]])["v"].top_values
    assert [(t.value, t.count) for t in top or ()] == [("a", 2), ("b", 2), ("c", 2)]


@pytest.mark.parametrize(
    ("distinct", "limit", "high"),
    [(50, 100, False), (100, 100, False), (300, 100, True), (30, 20, True), (1000, 5000, False)],
    ids=["below", "at", "above", "above-custom", "below-custom"],
)
def test_categorical_max_distinct(distinct: int, limit: int, high: bool) -> None:
    values = [f"v{i}" for i in range(distinct)] * 3
    table = pa.table({"s": values, "n": list(range(len(values)))})
    prof = profile(table, ProfilingConfig(categorical_max_distinct=limit))
    column = prof["s"]
    assert column.high_cardinality is high
    assert (column.top_values is None) is high
    if not high:
        assert column.top_values is not None
        assert len(column.top_values) == 10
        assert all(t.count == 3 for t in column.top_values)
    # a high-cardinality column keeps every other statistic
    assert column.types == {"string": 3 * distinct}
    assert column.null_rate == 0.0
    assert column.distinct == pytest.approx(distinct, rel=0.05)
    assert column.string is not None
    assert column.string.len_max == len(f"v{distinct - 1}")
    assert prof["n"].numeric is not None
    assert prof["n"].numeric.max == 3 * distinct - 1


def test_a_high_cardinality_column_keeps_numeric_statistics_and_no_values() -> None:
    prof = profile(pa.table({"id": list(range(5000))}))
    column = prof["id"]
    assert column.high_cardinality is True
    assert column.top_values is None
    assert column.sketches["freq"] is None
    assert column.numeric is not None
    assert (column.numeric.min, column.numeric.max) == (0.0, 4999.0)


def test_values_longer_than_the_tracking_limit_are_never_top_values() -> None:
    long = "x" * (MAX_TRACKED_VALUE_CHARS + 1)
    edge = "y" * MAX_TRACKED_VALUE_CHARS
    top = profile([{"s": long}, {"s": long}, {"s": edge}])["s"].top_values
    assert [(t.value, t.count) for t in top or ()] == [(edge, 1)]
