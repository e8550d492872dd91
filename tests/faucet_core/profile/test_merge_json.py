"""merge() of partial profiles, and the JSON round trip with its failure modes."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

from faucet_core import ProfilingConfig, SketchError, TableProfile, profile
from faucet_core.profile.model import PROFILE_FORMAT
from tests.faucet_core.profile.helpers import (
    DISTINCT_TOLERANCE,
    KLL_RANK_ERROR,
    exact,
    public,
    rank_error,
)

ROWS = 40_000


def _table() -> pa.Table:
    rng = np.random.default_rng(11)
    amount = rng.normal(100, 15, ROWS)
    amount[rng.random(ROWS) < 0.1] = np.nan
    region = rng.choice(["eu", "us", "apac", "latam", "é"], ROWS, p=[0.4, 0.3, 0.15, 0.1, 0.05])
    ids = rng.integers(0, 15_000, ROWS)
    return pa.table(
        {
            "amount": pa.array(amount, from_pandas=True),
            "region": pa.array(region.tolist()),
            "id": pa.array(ids),
            "name": pa.array([f"name-{i}" if i % 3 else None for i in ids.tolist()]),
        }
    )


TABLE = _table()


@pytest.fixture(scope="module")
def whole() -> TableProfile:
    return profile(TABLE)


@pytest.fixture(scope="module")
def merged() -> TableProfile:
    first, second = TABLE.slice(0, 17_000), TABLE.slice(17_000)
    return profile(first).merge(profile(second))


def test_merge_counts_are_exact(whole: TableProfile, merged: TableProfile) -> None:
    assert merged.row_count == whole.row_count == ROWS
    assert list(merged.columns) == list(whole.columns)
    for name in whole.columns:
        assert merged[name].null_count == whole[name].null_count
        assert merged[name].types == whole[name].types
        assert merged[name].string == whole[name].string
        assert merged[name].high_cardinality is whole[name].high_cardinality


@pytest.mark.parametrize("name", ["amount", "id"], ids=["amount", "id"])
def test_merge_moments_are_exact_up_to_rounding(
    whole: TableProfile, merged: TableProfile, name: str
) -> None:
    a, b = whole[name].numeric, merged[name].numeric
    assert a is not None
    assert b is not None
    assert (b.min, b.max, b.count) == (a.min, a.max, a.count)
    assert b.mean == pytest.approx(a.mean, rel=1e-12)
    assert b.stddev == pytest.approx(a.stddev, rel=1e-9)
    data = np.sort(TABLE[name].drop_null().to_numpy().astype(float))
    data = data[np.isfinite(data)]
    assert rank_error(data, b.p50, 0.5) <= KLL_RANK_ERROR
    assert rank_error(data, b.p95, 0.95) <= KLL_RANK_ERROR


@pytest.mark.parametrize("name", ["id", "name", "region"], ids=["id", "name", "region"])
def test_merge_distinct_within_hll_error(merged: TableProfile, name: str) -> None:
    true = len(set(TABLE[name].drop_null().to_pylist()))
    assert abs(merged[name].distinct - true) <= DISTINCT_TOLERANCE * true


def test_merge_top_values_are_exact_at_low_cardinality(
    whole: TableProfile, merged: TableProfile
) -> None:
    assert merged["region"].top_values == whole["region"].top_values
    counts = TABLE.column("region").value_counts().to_pylist()
    expected = sorted((c["values"], c["counts"]) for c in counts)
    assert sorted((t.value, t.count) for t in merged["region"].top_values or ()) == expected


def test_merge_of_many_parts_equals_the_whole(whole: TableProfile) -> None:
    parts = [profile(TABLE.slice(offset, 5_000)) for offset in range(0, ROWS, 5_000)]
    total = parts[0]
    for part in parts[1:]:
        total = total.merge(part)
    assert total.row_count == ROWS
    assert total["region"].top_values == whole["region"].top_values
    assert total["amount"].null_count == whole["amount"].null_count


def test_a_column_in_only_one_part_is_null_in_the_other() -> None:
    left = profile([{"a": 1, "only_left": "x"}, {"a": 2, "only_left": "x"}])
    right = profile([{"a": 3, "only_right": True}])
    for merged in (left.merge(right), right.merge(left)):
        assert merged.row_count == 3
        assert merged["only_left"].types == {"null": 1, "string": 2}
        assert merged["only_right"].types == {"boolean": 1, "null": 2}
        assert merged["only_right"].null_rate == 2 / 3
        assert [(t.value, t.count) for t in merged["only_left"].top_values or ()] == [("x", 2)]
        assert merged["a"].numeric is not None
        assert merged["a"].numeric.mean == 2.0
    assert list(left.merge(right).columns) == ["a", "only_left", "only_right"]


def test_merge_becomes_high_cardinality_when_the_union_is() -> None:
    left = profile([{"s": f"a{i}"} for i in range(80)])
    right = profile([{"s": f"b{i}"} for i in range(80)])
    assert left["s"].top_values is not None
    merged = left.merge(right)
    assert merged["s"].high_cardinality is True
    assert merged["s"].top_values is None
    assert merged["s"].distinct == pytest.approx(160, abs=3)


@pytest.mark.parametrize(
    "other",
    [ProfilingConfig(top_values=5), ProfilingConfig(categorical_max_distinct=50)],
    ids=["top_values", "categorical_max_distinct"],
)
def test_merge_refuses_different_sketch_settings(other: ProfilingConfig) -> None:
    a = profile([{"s": "x"}])
    b = profile([{"s": "y"}], other)
    with pytest.raises(SketchError) as info:
        a.merge(b)
    assert str(info.value) == (
        "cannot merge profiles made with different sketch settings "
        f"({a.params.to_dict()} vs {b.params.to_dict()}); profile both parts with the same "
        "top_values and categorical_max_distinct"
    )


def test_merge_needs_the_sketches() -> None:
    bare = TableProfile.from_json(profile([{"s": "x"}]).to_json(sketches=False))
    with pytest.raises(SketchError) as info:
        bare.merge(bare)
    assert str(info.value) == (
        "column 's': the profile carries no sketches (it was serialized with sketches=False, "
        "or computed in the database by profile_sql); merge needs profiles serialized with "
        "their sketches (profile a whole SQL table at once)"
    )


def test_json_round_trip_keeps_every_public_field(whole: TableProfile) -> None:
    text = whole.to_json()
    again = TableProfile.from_json(text)
    assert again == whole
    assert public(again) == public(whole)
    assert again.to_json() == text
    assert TableProfile.from_json(text.encode()) == whole


def test_json_is_strict_json(whole: TableProfile) -> None:
    data = json.loads(whole.to_json(), parse_constant=lambda c: pytest.fail(c))
    assert data["format"] == PROFILE_FORMAT
    assert data["params"] == {"top_values": 10, "categorical_max_distinct": 100}


def test_a_round_tripped_profile_still_merges(merged: TableProfile) -> None:
    first, second = TABLE.slice(0, 17_000), TABLE.slice(17_000)
    left = TableProfile.from_json(profile(first).to_json())
    right = TableProfile.from_dict(json.loads(profile(second).to_json()))
    again = left.merge(right)
    assert again.row_count == ROWS
    for name in merged.columns:
        assert again[name].types == merged[name].types
        assert again[name].distinct == merged[name].distinct
        assert again[name].top_values == merged[name].top_values
    assert again["amount"].numeric is not None
    assert merged["amount"].numeric is not None
    assert again["amount"].numeric.mean == pytest.approx(merged["amount"].numeric.mean)


def _edit(data: dict[str, Any], column: str, key: str, value: Any) -> dict[str, Any]:
    for item in data["columns"]:
        if item["name"] == column:
            item["sketches"][key] = value
    return data


def _truncate(text: str) -> str:
    raw = base64.b64decode(text)
    return base64.b64encode(raw[: len(raw) // 2]).decode()


SOURCE = profile([{"n": i % 13, "s": f"v{i % 4}"} for i in range(500)])

CORRUPT: dict[str, tuple[Callable[[dict[str, Any]], Any], str]] = {
    "bad-base64": (
        lambda d: _edit(d, "s", "hll", "***not base64***"),
        "column 's': sketch is not valid base64 (",
    ),
    "sketch-not-text": (
        lambda d: _edit(d, "s", "freq", 12),
        "column 's': sketch is a int, not base64 text",
    ),
    "truncated-hll": (
        lambda d: _edit(d, "n", "hll", _truncate(d["columns"][0]["sketches"]["hll"])),
        "column 'n': the serialized HyperLogLog sketch is unreadable (",
    ),
    "truncated-kll": (
        lambda d: _edit(d, "n", "kll", _truncate(d["columns"][0]["sketches"]["kll"])),
        "column 'n': the serialized KLL sketch is unreadable (",
    ),
    "truncated-freq": (
        lambda d: _edit(d, "s", "freq", _truncate(d["columns"][1]["sketches"]["freq"])),
        "column 's': the serialized frequent-items sketch is unreadable (",
    ),
    "garbage-sketch": (
        lambda d: _edit(d, "n", "kll", base64.b64encode(b"\x00" * 40).decode()),
        "column 'n': the serialized KLL sketch is unreadable (",
    ),
    "damaged-moments": (
        lambda d: _edit(d, "n", "num", [1, 2]),
        "column 'n': damaged moments in the serialized profile (",
    ),
    "wrong-format": (
        lambda d: {**d, "format": 99},
        "table profile format 99 is not supported (this faucet reads format 1); upgrade "
        "faucet-dagster or re-profile",
    ),
    "no-format": (
        lambda d: {k: v for k, v in d.items() if k != "format"},
        "table profile format None is not supported (",
    ),
    "missing-column-field": (
        lambda d: {**d, "columns": [{"name": "x"}]},
        "column profile 'x' is not a valid serialized profile (KeyError('row_count'))",
    ),
    "bad-row-count": (
        lambda d: {**d, "row_count": "many"},
        "table profile is damaged: ValueError(",
    ),
    "bad-params": (
        lambda d: {**d, "params": {"top_values": 10, "bogus": 1}},
        "table profile is damaged: TypeError(",
    ),
    "not-an-object": (lambda d: [d], "a table profile must be a JSON object, got list"),
}


@pytest.mark.parametrize(("damage", "message"), list(CORRUPT.values()), ids=list(CORRUPT))
def test_corrupt_profiles_raise_sketch_error(
    damage: Callable[[dict[str, Any]], Any], message: str
) -> None:
    text = json.dumps(damage(json.loads(SOURCE.to_json())))
    with pytest.raises(SketchError) as info:
        TableProfile.from_json(text)
    assert str(info.value).startswith(message)


@pytest.mark.parametrize(
    "text",
    ["{not json", "", '{"format": 1, "row_count": NaN'],
    ids=["broken", "empty", "truncated"],
)
def test_text_that_is_not_json_raises_sketch_error(text: str) -> None:
    with pytest.raises(SketchError) as info:
        TableProfile.from_json(text)
    assert str(info.value).startswith("table profile is not valid JSON: ")


def test_sketch_errors_hide_the_library_error() -> None:
    data = _edit(json.loads(SOURCE.to_json()), "n", "hll", base64.b64encode(b"\x07").decode())
    with pytest.raises(SketchError) as info:
        TableProfile.from_dict(data)
    assert info.value.__cause__ is None
    assert info.value.__suppress_context__ is True
    # the library's own words go in the parentheses; the rest is ours
    assert str(info.value).startswith("column 'n': the serialized HyperLogLog sketch is ")
    assert str(info.value).endswith(")")
    assert type(info.value) is SketchError


def test_a_non_object_is_refused() -> None:
    with pytest.raises(SketchError, match=exact("a table profile must be a JSON object, got int")):
        TableProfile.from_dict(3)  # type: ignore[arg-type]
