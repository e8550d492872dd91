"""Issue 11, "inputs that must simply work": one named regression test per case.

Each of these raised, or killed the process, before. Every profile made here must
also survive the trip through a real store.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import json
import math
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from faucet_core import ProfilingConfig, ProfilingInputError, SketchError, TableProfile, profile
from faucet_core.profile import NumericStats
from faucet_core.profile.jsontext import canonical_json
from faucet_core.store import ProfileStore
from tests.faucet_core.profile.helpers import public

ROOT = Path(__file__).resolve().parents[3]


def stored(profile_: TableProfile, url: str) -> TableProfile:
    """``profile_`` recorded in the store at ``url`` and read back through ``history``."""
    with ProfileStore(url) as store:
        store.record("awkward", profile_, ProfilingConfig())
        runs = store.history("awkward")
    assert len(runs) == 1
    return runs[0].profile


def exact_moments(values: list[float]) -> tuple[float, float]:
    """Mean and population standard deviation computed in exact rationals."""
    exact = [Fraction(v) for v in values]
    mean = sum(exact, Fraction(0)) / len(exact)
    var = sum(((v - mean) ** 2 for v in exact), Fraction(0)) / len(exact)
    # sqrt of a rational beyond the float range: scale down by a power of 4 first
    scale = 0
    while var > Fraction(10) ** 300:
        var /= 4**200
        scale += 200
    return float(mean), math.sqrt(float(var)) * 2.0**scale


# -- pd.NaT ---------------------------------------------------------------------------------
def test_nat_in_records_from_a_datetime_frame_is_null(sqlite_url: str) -> None:
    frame = pd.DataFrame({"d": pd.to_datetime(["2020-01-01 10:00", None])})
    prof = profile(frame.to_dict("records"))
    column = prof["d"]
    assert column.types == {"null": 1, "string": 1}
    assert column.null_count == 1
    assert [t.value for t in column.top_values or ()] == ["2020-01-01T10:00:00"]
    assert public(stored(prof, sqlite_url)) == public(prof)


def test_nat_and_na_inside_a_list_are_null_not_text() -> None:
    prof = profile([{"l": [pd.NaT, 1]}, {"l": [pd.NA, np.datetime64("NaT"), 2]}])
    values = sorted(json.dumps(t.value) for t in prof["l"].top_values or ())
    assert values == ["[null, 1]", "[null, null, 2]"]


def test_a_nat_scalar_alone_is_null() -> None:
    assert profile([{"d": pd.NaT}, {"d": None}])["d"].types == {"null": 2}


# -- finite statistics for finite data ------------------------------------------------------
@pytest.mark.parametrize(
    "values",
    [
        [0.0, 1e155],
        [1e308, 1e308],
        [1e308, -1e308, 1e308],
        [1.7976931348623157e308, -1.7976931348623157e308],
        [1e-300, 1e300, 1e155, -1e200],
    ],
    ids=["1e155", "1e308-twice", "1e308-signs", "float-max", "mixed-magnitudes"],
)
def test_statistics_stay_finite_for_huge_finite_values(
    values: list[float], sqlite_url: str
) -> None:
    mean, sd = exact_moments(values)
    for data in (
        [{"x": v} for v in values],
        pd.DataFrame({"x": values}),
        pl.DataFrame({"x": values}),
        pa.table({"x": values}),
    ):
        numeric = profile(data)["x"].numeric
        assert numeric is not None
        assert math.isfinite(numeric.mean)
        assert math.isfinite(numeric.stddev)
        assert numeric.mean == pytest.approx(mean, rel=1e-12, abs=1e-300)
        assert numeric.stddev == pytest.approx(sd, rel=1e-12)
    prof = profile([{"x": v} for v in values])
    back = stored(prof, sqlite_url)
    assert back["x"].numeric == prof["x"].numeric


def test_merging_parts_of_huge_values_stays_finite() -> None:
    a = profile([{"x": 1e308}, {"x": 1e308}])
    b = profile([{"x": -1e308}, {"x": 1e308}])
    merged = TableProfile.from_json(a.to_json()).merge(TableProfile.from_json(b.to_json()))
    mean, sd = exact_moments([1e308, 1e308, -1e308, 1e308])
    numeric = merged["x"].numeric
    assert numeric is not None
    assert numeric.mean == pytest.approx(mean, rel=1e-12)
    assert numeric.stddev == pytest.approx(sd, rel=1e-12)


def test_integers_beyond_the_float_range_count_as_nonfinite() -> None:
    numeric = profile([{"n": 10**400}, {"n": -(10**400)}, {"n": 3}])["n"].numeric
    assert numeric is not None
    assert (numeric.count, numeric.nonfinite, numeric.mean) == (1, 2, 3.0)


# -- Decimal NaN / infinity in pandas -------------------------------------------------------
def test_pandas_decimal_column_with_infinity_and_nan() -> None:
    frame = pd.DataFrame(
        {"d": [decimal.Decimal("-Infinity"), decimal.Decimal("NaN"), decimal.Decimal("1.5")]}
    )
    column = profile(frame)["d"]
    assert column.types == {"null": 1, "number": 2}
    assert column.numeric is not None
    assert (column.numeric.count, column.numeric.nonfinite, column.numeric.mean) == (1, 1, 1.5)


def test_signalling_nan_decimal_in_records_and_lists_is_null() -> None:
    prof = profile([{"d": decimal.Decimal("sNaN"), "l": [decimal.Decimal("NaN")]}])
    assert prof["d"].types == {"null": 1}
    assert [t.value for t in prof["l"].top_values or ()] == [[None]]


# -- Arrow view and large types -------------------------------------------------------------
TEXTS = ["a", None, "bc", "", "a"]
BLOBS = [b"a", None, b"bc", b"", b"a"]


@pytest.mark.parametrize(
    ("view", "plain", "values"),
    [
        (pa.string_view(), pa.string(), TEXTS),
        (pa.large_string(), pa.string(), TEXTS),
        (pa.binary_view(), pa.binary(), BLOBS),
        (pa.large_binary(), pa.binary(), BLOBS),
    ],
    ids=["string_view", "large_string", "binary_view", "large_binary"],
)
def test_view_and_large_arrow_types_profile_like_the_plain_type(
    view: pa.DataType, plain: pa.DataType, values: list[Any], tmp_path: Path
) -> None:
    expected = public(profile(pa.table({"c": pa.array(values, plain)})))
    table = pa.table({"c": pa.array(values, view)})
    assert public(profile(table)) == expected
    path = tmp_path / "views.parquet"
    pq.write_table(table, path)
    assert pq.read_schema(path).field("c").type == view
    from faucet_core.profile.files import profile_file

    assert public(profile_file(path)) == expected
    nested = pa.table({"n": pa.array([{"c": v} for v in values], pa.struct([("c", view)]))})
    assert profile(nested)["n"].types == {"object": 5}


# -- object columns Arrow's from_pandas can crash on ----------------------------------------
CRASHERS = {
    "list-of-numpy-scalars": 'pd.DataFrame({"c": [[np.datetime64("2020-01-01"), np.float32(2)]]})',
    "flat-numpy-scalars": (
        'pd.DataFrame({"c": pd.Series([np.datetime64("2020-01-01"), np.float32(2)], dtype=object)})'
    ),
    "tuple-of-numpy-scalars": 'pd.DataFrame({"c": [(np.datetime64("2020-01-01"), np.float32(2))]})',
}


@pytest.mark.parametrize("frame", list(CRASHERS.values()), ids=list(CRASHERS))
def test_object_columns_that_crash_from_pandas_are_profiled_in_python(frame: str) -> None:
    script = textwrap.dedent(
        f"""
        import json, numpy as np, pandas as pd
        from faucet_core import profile
        prof = profile({frame})
        print(json.dumps(prof.to_dict(sketches=False)["columns"][0]["top_values"]))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    top = json.loads(done.stdout)
    assert {json.dumps(t["value"]) for t in top} <= {
        '["2020-01-01", 2.0]',
        '"2020-01-01"',
        "2.0",
    }
    assert top


def test_the_python_path_gives_what_arrow_gives_for_safe_nested_columns() -> None:
    frame = pd.DataFrame({"c": [[1, 2], [3], None, [1, 2]]})
    records = [{"c": v} for v in [[1, 2], [3], None, [1, 2]]]
    assert public(profile(frame)) == public(profile(records))


# -- lone surrogates ------------------------------------------------------------------------
def test_lone_surrogates_become_the_replacement_character(sqlite_url: str) -> None:
    records = [{"s": "\ud800", "n": ["x\udfff"], "o": {"k": "\udc80"}}, {"s": "ok"}]
    frame = pd.DataFrame({"s": pd.Series(["\ud800", "ok"], dtype=object)})
    for data in (records, frame):
        column = profile(data)["s"]
        assert column.types == {"string": 2}
        assert sorted(t.value for t in column.top_values or ()) == ["ok", "\ufffd"]
        assert column.string is not None
        assert column.string.len_max == 2
    prof = profile(records)
    assert [t.value for t in prof["n"].top_values or ()] == [["x\ufffd"]]
    assert [t.value for t in prof["o"].top_values or ()] == [{"k": "\ufffd"}]
    assert public(stored(prof, sqlite_url)) == public(prof)


def test_a_lone_surrogate_in_a_column_name_becomes_the_replacement_character() -> None:
    assert list(profile([{"\ud800x": 1, "b": 2}]).columns) == ["\ufffdx", "b"]
    frame = pd.DataFrame([[1], [2]], columns=pd.Index(["\udfff"], dtype=object))
    assert list(profile(frame).columns) == ["\ufffd"]
    names = ["\ud800", "\udfff"]  # not a dict literal: ruff takes the two keys for one
    with pytest.raises(ProfilingInputError) as caught:
        profile([dict(zip(names, (1, 2), strict=True))])
    assert str(caught.value) == (
        "record 0 has the keys '\\ud800' and '\\udfff', both column '\ufffd' once written as "
        "JSON; rename one of them"
    )


def test_a_surrogate_pair_spelled_as_two_code_points_is_the_character() -> None:
    column = profile([{"s": "\ud83d\ude00"}])["s"]
    assert [t.value for t in column.top_values or ()] == ["\U0001f600"]


# -- deep nesting ---------------------------------------------------------------------------
def _deep(depth: int, leaf: Any = 1) -> Any:
    value: Any = leaf
    for level in range(depth):
        value = {"a": value, "z": level} if level % 2 else [value, None]
    return value


def test_a_5000_deep_nested_record_profiles() -> None:
    prof = profile([{"n": _deep(5000)}, {"n": _deep(5000)}, {"n": {"x": 1}}])
    column = prof["n"]
    assert column.types == {"object": 3}
    assert column.distinct == 2


@pytest.mark.parametrize("depth", [1, 7, 300])
def test_the_deep_value_encoder_writes_the_same_text(depth: int) -> None:
    from faucet_core.profile.jsontext import _iterative_json

    value = {
        "k": _deep(depth, [1.5, float("nan"), "é", {2: True, None: {}}, (), decimal.Decimal(1)])
    }
    assert _iterative_json(value) == canonical_json(value)


# -- calendar edges -------------------------------------------------------------------------
def test_datetimes_at_the_calendar_edges_with_extreme_offsets() -> None:
    plus14 = dt.timezone(dt.timedelta(hours=14))
    minus14 = dt.timezone(dt.timedelta(hours=-14))
    records = [
        {"t": dt.datetime(1, 1, 1, tzinfo=plus14)},
        {"t": dt.datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=minus14)},
        {"t": dt.datetime(2020, 1, 1)},
    ]
    column = profile(records)["t"]
    assert column.types == {"string": 3}
    assert sorted(t.value for t in column.top_values or ()) == [
        "0000-12-31T10:00:00Z",
        "10000-01-01T13:59:59.999999Z",
        "2020-01-01T00:00:00Z",
    ]
    assert column.string is not None
    assert (column.string.len_min, column.string.len_max) == (20, 28)


def test_timestamps_beyond_9999_render_as_iso_text_top_level_and_nested() -> None:
    far = 2**62  # seconds: year 146,138,514,283
    table = pa.table(
        {
            "t": pa.array([far, 0], pa.timestamp("s")),
            "l": pa.array([[far, None], [0]], pa.list_(pa.timestamp("s"))),
            "s": pa.array([{"t": far}], pa.struct([("t", pa.timestamp("s", tz="UTC"))])).take(
                [0, 0]
            ),
            "d": pa.array([2**30, -800_000], pa.date32()),
        }
    )
    prof = profile(table)
    assert sorted(t.value for t in prof["t"].top_values or ()) == [
        "146138514283-06-19T07:45:04",
        "1970-01-01T00:00:00",
    ]
    assert sorted(json.dumps(t.value) for t in prof["l"].top_values or ()) == [
        '["146138514283-06-19T07:45:04", null]',
        '["1970-01-01T00:00:00"]',
    ]
    assert [t.value for t in prof["s"].top_values or ()] == [{"t": "146138514283-06-19T07:45:04Z"}]
    assert sorted(t.value for t in prof["d"].top_values or ()) == ["-0221-09-04", "2941775-04-07"]
    assert prof["d"].string is not None
    assert (prof["d"].string.len_min, prof["d"].string.len_max) == (11, 13)
    for column in prof.columns.values():
        assert "out of range" not in json.dumps(column.to_dict(sketches=False))


def test_numpy_datetime64_beyond_9999_in_records() -> None:
    prof = profile(
        [{"t": np.datetime64("10000-01-01T00:00:00.5")}, {"t": [np.datetime64(2**60, "s")]}]
    )
    assert sorted(json.dumps(t.value) for t in prof["t"].top_values or ()) == [
        '"10000-01-01T00:00:00.5"',
        '["36534630048-05-13T13:56:16"]',
    ]


# -- non-finite values round-trip -----------------------------------------------------------
def _with_nonfinite(prof: TableProfile) -> TableProfile:
    column = prof["x"]
    weird = NumericStats(
        min=-math.inf,
        max=math.inf,
        mean=math.nan,
        stddev=math.inf,
        p50=math.nan,
        p95=-math.inf,
        count=2,
        nonfinite=3,
    )
    return dataclasses.replace(prof, columns={"x": dataclasses.replace(column, numeric=weird)})


def test_nonfinite_statistics_round_trip_as_strict_json() -> None:
    prof = _with_nonfinite(profile([{"x": 1.0}, {"x": 2.0}]))
    text = prof.to_json()
    data = json.loads(text, parse_constant=lambda token: pytest.fail(f"{token} in the JSON"))
    numeric = data["columns"][0]["numeric"]
    assert (numeric["min"], numeric["max"], numeric["mean"]) == ("-Infinity", "Infinity", "NaN")
    back = TableProfile.from_json(text)["x"].numeric
    assert back is not None
    assert (back.min, back.max, back.stddev, back.p95) == (-math.inf, math.inf, math.inf, -math.inf)
    assert math.isnan(back.mean)
    assert math.isnan(back.p50)


def test_nonfinite_statistics_round_trip_through_the_store(store_url: str) -> None:
    prof = _with_nonfinite(profile([{"x": 1.0}, {"x": 2.0}]))
    with ProfileStore(store_url) as store:
        store.record("nonfinite", prof, ProfilingConfig())
        store.record("nonfinite", prof, ProfilingConfig())
        runs = store.history("nonfinite")
    assert [r.profile.to_dict() for r in runs] == [prof.to_dict(), prof.to_dict()]


def test_overflowing_moments_survive_serialization_and_merge() -> None:
    prof = profile([{"x": 1e200}, {"x": -1e200}])
    sketch = prof.to_dict()["columns"][0]["sketches"]["num"]
    assert sketch[2] == "Infinity"  # the sum of squares overflows
    assert sketch[6] == 1e200  # so the deviation itself is kept
    again = TableProfile.from_json(prof.to_json())
    merged = again.merge(again)["x"].numeric
    assert merged is not None
    assert (merged.mean, merged.stddev) == (0.0, 1e200)


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        (
            "mean",
            "abc",
            "numeric.mean is 'abc', not a number (nor one of NaN, Infinity, -Infinity)",
        ),
        ("stddev", None, "numeric.stddev is None, not a number"),
        ("count", "2", "numeric.count is '2', not an integer"),
    ],
)
def test_a_damaged_statistic_is_a_sketch_error(field: str, value: Any, problem: str) -> None:
    data = profile([{"x": 1.0}, {"x": 2.0}]).to_dict()
    data["columns"][0]["numeric"][field] = value
    with pytest.raises(SketchError) as caught:
        TableProfile.from_dict(data)
    assert problem in str(caught.value)
    assert str(caught.value).startswith("column profile 'x' is not a valid serialized profile")
