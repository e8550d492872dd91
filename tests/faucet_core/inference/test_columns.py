"""Column lineage inferred from real profiles (faucet's profiler over pyarrow tables):
copies, filtered copies and renames are found; overlapping integer keys, booleans and
computed columns are not taken as confident; evidence across runs counts."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core.inference.columns import (
    CONFIDENT,
    InferredInput,
    infer_columns,
    normalized_name,
    pair_runs,
)
from faucet_core.profile import profile


def _upstream(seed: int, rows: int = 2000) -> pa.Table:
    rng = np.random.default_rng(seed)
    return pa.table(
        {
            "id": np.arange(seed * 10_000, seed * 10_000 + rows),
            "customer_id": rng.integers(seed * 10_000, seed * 10_000 + rows, rows),
            "country": rng.choice(["de", "fr", "us", "jp"], rows),
            "amount": np.round(rng.lognormal(3, 0.5, rows), 2),
            "is_test": rng.random(rows) < 0.5,
            "email": [f"u{n}@example.com" for n in rng.integers(0, 5000, rows)],
        }
    )


def _downstream(up: pa.Table) -> pa.Table:
    """A filtered, renamed copy with one computed column and one unrelated flag."""
    keep = np.asarray(up["amount"]) > 15
    sub = up.filter(pa.array(keep))
    return pa.table(
        {
            "order_id": sub["id"],  # renamed: the upstream table's entity prefix
            "customerId": sub["customer_id"],  # camelCase
            "country": sub["country"],
            "amount_eur": pa.array(np.round(np.asarray(sub["amount"]) * 0.9, 2)),  # computed
            "paid": pa.array(np.asarray(sub["is_test"])[::-1].copy()),  # unrelated booleans
        }
    )


def _confident(found: tuple[InferredInput, ...]) -> set[tuple[str, str]]:
    return {(c.column, c.source) for c in found if c.confident}


def _pairs(days: range) -> list[tuple[object, object]]:
    out = []
    for day in days:
        up = _upstream(day)
        out.append((profile(up), profile(_downstream(up))))
    return out


def test_copies_filtered_and_renamed_are_confident_computations_are_not() -> None:
    found = infer_columns(_pairs(range(1, 4)), upstream_name="dagster://raw_orders")
    assert _confident(found) == {
        ("order_id", "id"),
        ("customerId", "customer_id"),
        ("country", "country"),
    }
    # the booleans match the upstream flag by value, but that proves nothing
    paid = [c for c in found if c.column == "paid"]
    assert paid
    assert all(c.confidence < CONFIDENT for c in paid)
    assert not [c for c in found if c.column == "amount_eur" and c.confident]
    (order_id,) = [c for c in found if c.column == "order_id" and c.source == "id"]
    assert order_id.evidence.name  # order_id of raw_orders is its id
    assert order_id.evidence.held == order_id.evidence.runs == 3
    text = order_id.evidence.text()
    assert "100% of its" in text
    assert "in 3 of 3 run(s)" in text


def test_one_run_is_less_confident_than_three() -> None:
    one = {(c.column, c.source): c.confidence for c in infer_columns(_pairs(range(1, 2)))}
    three = {(c.column, c.source): c.confidence for c in infer_columns(_pairs(range(1, 4)))}
    assert one[("country", "country")] < three[("country", "country")]


def test_a_candidate_that_fails_in_some_runs_loses_confidence() -> None:
    pairs = _pairs(range(1, 4))
    stranger = profile(pa.table({"country": ["xx", "yy", "zz"] * 10}))
    pairs[1] = (pairs[1][0], stranger)  # one run's country holds values never upstream
    (country,) = [c for c in infer_columns(pairs) if (c.column, c.source) == ("country", "country")]
    assert country.evidence.held == 2
    assert country.evidence.runs == 3
    assert country.confidence < CONFIDENT


def test_runs_pair_with_the_newest_upstream_run_before_them() -> None:
    up = [(1, "", "u1"), (3, "", "u3"), (5, "", "u5")]
    down = [(2, "", "d2"), (4, "", "d4"), (6, "", "d6"), (0, "", "d0")]
    assert pair_runs(up, down) == [("u1", "d2"), ("u3", "d4"), ("u5", "d6")]
    by_partition = pair_runs([(1, "a", "ua"), (2, "b", "ub")], [(3, "a", "da")])
    assert by_partition == [("ua", "da")]


def test_names_normalize() -> None:
    assert normalized_name("customerId") == "customer_id"
    assert normalized_name("CustomerID") == "customer_id"
    assert normalized_name(" Customer-ID ") == "customer_id"


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.integers(0, 10_000), min_size=30, max_size=200, unique=True),
    st.lists(st.integers(20_001, 30_000), min_size=30, max_size=200, unique=True),
)
def test_values_never_seen_upstream_are_never_a_candidate(up: list[int], down: list[int]) -> None:
    pairs = [(profile(pa.table({"key": up})), profile(pa.table({"key": down})))]
    assert infer_columns(pairs) == ()


@settings(max_examples=25, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=8), min_size=20, max_size=120, unique=True))
def test_a_copy_of_a_column_is_found_whatever_its_values(values: list[str]) -> None:
    pairs = [(profile(pa.table({"name": values})), profile(pa.table({"name": values[::2]})))]
    found = infer_columns(pairs)
    assert ("name", "name") in {(c.column, c.source) for c in found}
