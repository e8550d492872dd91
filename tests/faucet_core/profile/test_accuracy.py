"""Accuracy against exact computations on seeded random data.

Counts are exact; distinct counts lie within 3 standard errors of the HyperLogLog; p50/p95
have a true rank within the KLL rank error; top values of a low-cardinality column equal
pandas' value_counts.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from faucet_core import TableProfile, profile
from tests.faucet_core.profile.helpers import DISTINCT_TOLERANCE, KLL_RANK_ERROR, rank_error

ROWS = 60_000
REGIONS = ["eu", "us", "apac", "latam", "é", "日本", "😀x", "", "mea", "anz", "ca", "in"]
REGION_WEIGHTS = np.arange(len(REGIONS), 0, -1, dtype=float) ** 1.5
KINDS = ["pandas", "arrow", "records"]


def _columns() -> dict[str, list[Any]]:
    rng = np.random.default_rng(20240601)
    null = rng.random((4, ROWS))
    amount = rng.lognormal(3.0, 1.2, ROWS)
    region = rng.choice(REGIONS, size=ROWS, p=REGION_WEIGHTS / REGION_WEIGHTS.sum())
    user = rng.integers(0, 20_000, ROWS)
    words = [
        "".join(rng.choice(list("abcdéf😀z日"), size=int(k))) for k in rng.integers(1, 30, ROWS)
    ]
    return {
        "amount": [None if n < 0.05 else float(v) for n, v in zip(null[0], amount, strict=True)],
        "region": [None if n < 0.03 else str(v) for n, v in zip(null[1], region, strict=True)],
        "user_id": [None if n < 0.10 else int(v) for n, v in zip(null[2], user, strict=True)],
        "word": [None if n < 0.20 else w for n, w in zip(null[3], words, strict=True)],
    }


COLUMNS = _columns()


def _as(kind: str) -> Any:
    if kind == "pandas":
        return pd.DataFrame(
            {
                "amount": pd.Series(COLUMNS["amount"], dtype="float64"),
                "region": pd.Series(COLUMNS["region"], dtype=object),
                "user_id": pd.array(COLUMNS["user_id"], dtype="Int64"),
                "word": pd.Series(COLUMNS["word"], dtype="str"),
            }
        )
    if kind == "arrow":
        return pa.table(COLUMNS)
    names = list(COLUMNS)
    return [dict(zip(names, row, strict=True)) for row in zip(*COLUMNS.values(), strict=True)]


@pytest.fixture(scope="module", params=KINDS, ids=KINDS)
def prof(request: pytest.FixtureRequest) -> TableProfile:
    return profile(_as(request.param))


def _present(name: str) -> list[Any]:
    return [v for v in COLUMNS[name] if v is not None]


@pytest.mark.parametrize("name", list(COLUMNS), ids=list(COLUMNS))
def test_null_rate_is_exact(prof: TableProfile, name: str) -> None:
    nulls = int(pd.Series(COLUMNS[name], dtype=object).isna().sum())
    column = prof[name]
    assert prof.row_count == ROWS
    assert column.null_count == nulls
    assert column.null_rate == nulls / ROWS
    assert column.types["null"] == nulls


@pytest.mark.parametrize("name", list(COLUMNS), ids=list(COLUMNS))
def test_distinct_within_three_hll_standard_errors(prof: TableProfile, name: str) -> None:
    true = pd.Series(_present(name), dtype=object).nunique()
    assert abs(prof[name].distinct - true) <= DISTINCT_TOLERANCE * true


@pytest.mark.parametrize(
    "cardinality", [1, 10, 1_000, 40_000, 250_000], ids=["1", "10", "1k", "40k", "250k"]
)
@pytest.mark.parametrize("encode", [int, str], ids=["int", "str"])
def test_distinct_across_cardinalities(cardinality: int, encode: type) -> None:
    rng = np.random.default_rng(cardinality)
    values = rng.permutation(np.arange(cardinality) * 7919)
    table = pa.table({"v": pa.array([encode(v) for v in values.tolist()])})
    estimate = profile(table)["v"].distinct
    assert abs(estimate - cardinality) <= DISTINCT_TOLERANCE * cardinality


@pytest.mark.parametrize("q", [0.5, 0.95], ids=["p50", "p95"])
def test_quantiles_have_a_true_rank_within_the_kll_error(prof: TableProfile, q: float) -> None:
    data = np.sort(np.array(_present("amount")))
    numeric = prof["amount"].numeric
    assert numeric is not None
    reported = numeric.p50 if q == 0.5 else numeric.p95
    assert rank_error(data, reported, q) <= KLL_RANK_ERROR


@pytest.mark.parametrize("q", [0.5, 0.95], ids=["p50", "p95"])
def test_integer_quantiles_with_ties(prof: TableProfile, q: float) -> None:
    data = np.sort(np.array(_present("user_id"), dtype=np.float64))
    numeric = prof["user_id"].numeric
    assert numeric is not None
    assert rank_error(data, numeric.p50 if q == 0.5 else numeric.p95, q) <= KLL_RANK_ERROR


def test_quantiles_of_a_skewed_large_column() -> None:
    rng = np.random.default_rng(3)
    data = rng.pareto(1.5, 300_000)
    numeric = profile(pa.table({"x": data}))["x"].numeric
    assert numeric is not None
    ordered = np.sort(data)
    assert rank_error(ordered, numeric.p50, 0.5) <= KLL_RANK_ERROR
    assert rank_error(ordered, numeric.p95, 0.95) <= KLL_RANK_ERROR


def test_top_values_equal_value_counts_at_low_cardinality(prof: TableProfile) -> None:
    counts = pd.Series(_present("region"), dtype=object).value_counts()
    expected = sorted(
        ((value, int(count)) for value, count in counts.items()),
        key=lambda item: (-item[1], json.dumps(item[0], ensure_ascii=False)),
    )[:10]
    top = prof["region"].top_values
    assert top is not None
    assert [(t.value, t.count) for t in top] == expected
    assert [t.share for t in top] == [count / ROWS for _, count in expected]
    assert prof["region"].high_cardinality is False


def test_numeric_statistics_match_numpy(prof: TableProfile) -> None:
    for name in ("amount", "user_id"):
        data = np.array(_present(name), dtype=np.float64)
        numeric = prof[name].numeric
        assert numeric is not None
        assert numeric.count == data.size
        assert numeric.min == data.min()
        assert numeric.max == data.max()
        assert numeric.mean == pytest.approx(data.mean(), rel=1e-12)
        assert numeric.stddev == pytest.approx(data.std(ddof=0), rel=1e-9)
        assert numeric.nonfinite == 0


def test_string_lengths_are_in_characters(prof: TableProfile) -> None:
    lengths = pd.Series(_present("word"), dtype=object).str.len()
    string = prof["word"].string
    assert string is not None
    assert string.count == lengths.size
    assert (string.len_min, string.len_max) == (lengths.min(), lengths.max())
    assert string.len_mean == pytest.approx(lengths.mean(), rel=1e-12)


@pytest.mark.parametrize(
    "values",
    [["é", "😀", "ab", "naïve", "日本語", ""], ["\u00e9\u0301", "a\u200db"]],
    ids=["non-ascii", "combining"],
)
@pytest.mark.parametrize("kind", ["records", "arrow", "pandas"], ids=["records", "arrow", "pandas"])
def test_lengths_count_code_points_not_bytes(values: list[str], kind: str) -> None:
    data: Any = [{"s": v} for v in values]
    if kind == "arrow":
        data = pa.table({"s": values})
    elif kind == "pandas":
        data = pd.DataFrame({"s": values})
    string = profile(data)["s"].string
    assert string is not None
    lengths = [len(v) for v in values]
    assert (string.len_min, string.len_max) == (min(lengths), max(lengths))
    assert string.len_mean == sum(lengths) / len(lengths)


def test_small_exact_statistics() -> None:
    prof = profile([{"x": 1}, {"x": 2}, {"x": 3}, {"x": 4}, {"x": None}])
    numeric = prof["x"].numeric
    assert numeric is not None
    assert (numeric.min, numeric.max, numeric.mean) == (1.0, 4.0, 2.5)
    assert numeric.stddev == pytest.approx(np.std([1, 2, 3, 4]))  # population, not sample
    assert numeric.p50 in (2.0, 3.0)
    assert numeric.p95 == 4.0
    assert prof["x"].null_rate == 0.2
