"""The JSON type each columnar type maps to (the table in arrow_path's docstring)."""

from __future__ import annotations

import datetime as dt
import decimal
import math
from typing import Any

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

from faucet_core import JsonType, profile
from faucet_core.profile import json_type_of
from tests.faucet_core.profile.helpers import public

UTC = dt.timezone.utc


def _one(array: pa.Array | pa.ChunkedArray) -> dict[str, Any]:
    return public(profile(pa.table({"c": array})))["c"]


# (id, array, types, top values (None: not checked), string stats (len_min, len_max) or None)
MAPPING: list[tuple[str, pa.Array, dict[str, int], list[Any] | None, tuple[int, int] | None]] = [
    ("int8", pa.array([1, None, 1], pa.int8()), {"integer": 2, "null": 1}, [1], None),
    ("int64", pa.array([-(2**63), 5]), {"integer": 2}, [-(2**63), 5], None),
    ("uint64", pa.array([2**64 - 1], pa.uint64()), {"integer": 1}, [2**64 - 1], None),
    ("float64", pa.array([1.5, None, 1.5]), {"null": 1, "number": 2}, [1.5], None),
    ("float32", pa.array([0.1, 0.1], pa.float32()), {"number": 2}, [0.1], None),
    ("float16", pa.array(np.array([1.5], np.float16)), {"number": 1}, [1.5], None),
    (
        "decimal128",
        pa.array([decimal.Decimal("1.25"), None], pa.decimal128(5, 2)),
        {"null": 1, "number": 1},
        [1.25],
        None,
    ),
    (
        "decimal256",
        pa.array([decimal.Decimal("-3.5")], pa.decimal256(40, 1)),
        {"number": 1},
        [-3.5],
        None,
    ),
    ("bool", pa.array([True, False, True, None]), {"boolean": 3, "null": 1}, [True, False], None),
    ("string", pa.array(["é", None]), {"null": 1, "string": 1}, ["é"], (1, 1)),
    ("large_string", pa.array(["ab"], pa.large_string()), {"string": 1}, ["ab"], (2, 2)),
    ("binary", pa.array([b"\x00\xff", b""]), {"string": 2}, ["", "AP8="], (0, 4)),
    ("large_binary", pa.array([b"ab"], pa.large_binary()), {"string": 1}, ["YWI="], (4, 4)),
    ("fixed_binary", pa.array([b"ab"], pa.binary(2)), {"string": 1}, ["YWI="], (4, 4)),
    (
        "timestamp",
        pa.array([dt.datetime(2024, 5, 1, 12, 30)], pa.timestamp("us")),
        {"string": 1},
        ["2024-05-01T12:30:00"],
        (19, 19),
    ),
    (
        "timestamp-fraction",
        pa.array([dt.datetime(2024, 5, 1, 12, 30, 0, 250_000)], pa.timestamp("ms")),
        {"string": 1},
        ["2024-05-01T12:30:00.25"],
        (22, 22),
    ),
    (
        "timestamp-utc",
        pa.array([dt.datetime(2024, 5, 1, tzinfo=UTC)], pa.timestamp("s", tz="UTC")),
        {"string": 1},
        ["2024-05-01T00:00:00Z"],
        (20, 20),
    ),
    (
        "timestamp-paris",
        pa.array([dt.datetime(2024, 5, 1, tzinfo=UTC)], pa.timestamp("us", tz="Europe/Paris")),
        {"string": 1},
        ["2024-05-01T00:00:00Z"],
        (20, 20),
    ),
    ("date32", pa.array([dt.date(2024, 2, 29)], pa.date32()), {"string": 1}, ["2024-02-29"], None),
    ("date64", pa.array([dt.date(2024, 2, 29)], pa.date64()), {"string": 1}, ["2024-02-29"], None),
    (
        "time64",
        pa.array([dt.time(8, 5, 1, 5)], pa.time64("us")),
        {"string": 1},
        ["08:05:01.000005"],
        None,
    ),
    ("time32", pa.array([dt.time(8, 5)], pa.time32("s")), {"string": 1}, ["08:05:00"], None),
    ("duration", pa.array([1500], pa.duration("ms")), {"number": 1}, [1.5], None),
    (
        "struct",
        pa.array([{"b": 1, "a": "x"}, None]),
        {"null": 1, "object": 1},
        [{"a": "x", "b": 1}],
        None,
    ),
    (
        "map",
        pa.array([[("k", 1)], []], pa.map_(pa.string(), pa.int64())),
        {"object": 2},
        [{"k": 1}, {}],
        None,
    ),
    ("list", pa.array([[1, 2], []]), {"array": 2}, [[1, 2], []], None),
    ("large_list", pa.array([["a"]], pa.large_list(pa.string())), {"array": 1}, [["a"]], None),
    ("fixed_size_list", pa.array([[1, 2]], pa.list_(pa.int64(), 2)), {"array": 1}, [[1, 2]], None),
    (
        "dictionary",
        pa.array(["u", "v", "u", None]).dictionary_encode(),
        {"null": 1, "string": 3},
        ["u", "v"],
        (1, 1),
    ),
    ("null", pa.array([None, None]), {"null": 2}, [], None),
]


@pytest.mark.parametrize(
    ("array", "types", "top", "lengths"),
    [m[1:] for m in MAPPING],
    ids=[m[0] for m in MAPPING],
)
def test_columnar_type_mapping(
    array: pa.Array, types: dict[str, int], top: list[Any], lengths: tuple[int, int] | None
) -> None:
    column = _one(array)
    assert column["types"] == types
    assert [t["value"] for t in column["top_values"]] == top
    if lengths is not None:
        assert (column["string"]["len_min"], column["string"]["len_max"]) == lengths
    if "string" not in types:
        assert column["string"] is None


@pytest.mark.parametrize(
    ("arrow_type", "expected"),
    [
        (pa.int16(), JsonType.INTEGER),
        (pa.uint32(), JsonType.INTEGER),
        (pa.float32(), JsonType.NUMBER),
        (pa.decimal128(10, 2), JsonType.NUMBER),
        (pa.duration("s"), JsonType.NUMBER),
        (pa.bool_(), JsonType.BOOLEAN),
        (pa.string(), JsonType.STRING),
        (pa.binary(), JsonType.STRING),
        (pa.timestamp("ns", tz="UTC"), JsonType.STRING),
        (pa.date32(), JsonType.STRING),
        (pa.struct([("a", pa.int8())]), JsonType.OBJECT),
        (pa.map_(pa.string(), pa.string()), JsonType.OBJECT),
        (pa.list_(pa.string()), JsonType.ARRAY),
        (pa.dictionary(pa.int32(), pa.string()), JsonType.STRING),
        (pa.null(), JsonType.NULL),
    ],
    ids=lambda v: str(v),
)
def test_json_type_of(arrow_type: pa.DataType, expected: JsonType) -> None:
    assert json_type_of(arrow_type) is expected


def test_nan_is_null_and_infinity_a_number_outside_the_statistics() -> None:
    column = _one(pa.array([1.0, float("nan"), math.inf, -math.inf, 3.0, None]))
    assert column["types"] == {"null": 2, "number": 4}
    assert column["null_count"] == 2
    numeric = column["numeric"]
    assert (numeric["min"], numeric["max"], numeric["mean"]) == (1.0, 3.0, 2.0)
    assert (numeric["count"], numeric["nonfinite"]) == (2, 2)
    assert numeric["stddev"] == 1.0
    assert [t["value"] for t in column["top_values"]] == [1.0, 3.0]
    assert column["distinct"] == 4  # 1, 3, inf, -inf


def test_the_same_instants_give_the_same_profile_in_any_unit() -> None:
    instants = [dt.datetime(2024, 1, 1, 0, 0, s, ms * 1000) for s in (0, 1) for ms in (0, 500)]
    profiles = [
        _one(pa.array(instants, pa.timestamp(unit)).cast(pa.timestamp(unit)))
        for unit in ("ms", "us", "ns")
    ]
    assert profiles[0] == profiles[1] == profiles[2]
    assert [t["value"] for t in profiles[0]["top_values"]] == [
        "2024-01-01T00:00:00",
        "2024-01-01T00:00:00.5",
        "2024-01-01T00:00:01",
        "2024-01-01T00:00:01.5",
    ]


def test_aware_timestamps_are_utc_whatever_the_zone() -> None:
    moment = dt.datetime(2024, 7, 1, 10, tzinfo=UTC)
    paris = _one(pa.array([moment], pa.timestamp("us", tz="Europe/Paris")))
    records = public(profile([{"c": moment.astimezone(dt.timezone(dt.timedelta(hours=2)))}]))
    assert paris == records["c"]
    assert paris["top_values"][0]["value"] == "2024-07-01T10:00:00Z"


def test_pandas_dtypes() -> None:
    frame = pd.DataFrame(
        {
            "cat": pd.Categorical(["a", "b", None, "a"]),
            "int64": pd.array([1, None, 3, 4], dtype="Int64"),
            "float": [1.0, np.nan, None, 2.0],
            "obj_na": pd.Series(["x", pd.NA, None, np.nan], dtype=object),
            "ts": pd.to_datetime(["2024-01-01", None, "2024-01-02", pd.NaT]),
            "td": pd.to_timedelta([1, 2, None, 3], unit="s"),
            "mixed": pd.Series([1, "1", 2.5, None], dtype=object),
            "bools": [True, False, True, False],
        }
    )
    cols = public(profile(frame))
    assert cols["cat"]["types"] == {"null": 1, "string": 3}
    assert [(t["value"], t["count"]) for t in cols["cat"]["top_values"]] == [("a", 2), ("b", 1)]
    assert cols["int64"]["types"] == {"integer": 3, "null": 1}
    assert cols["float"]["types"] == {"null": 2, "number": 2}
    assert cols["obj_na"]["types"] == {"null": 3, "string": 1}
    assert cols["ts"]["types"] == {"null": 2, "string": 2}
    assert cols["ts"]["top_values"][0]["value"] == "2024-01-01T00:00:00"
    assert cols["td"]["types"] == {"null": 1, "number": 3}
    assert cols["td"]["numeric"]["max"] == 3.0
    assert cols["mixed"]["types"] == {"integer": 1, "null": 1, "number": 1, "string": 1}
    assert cols["bools"]["types"] == {"boolean": 4}


def test_polars_dtypes() -> None:
    frame = pl.DataFrame(
        {
            "cat": pl.Series(["a", "b", None], dtype=pl.Categorical),
            "enum": pl.Series(["a", None, "a"], dtype=pl.Enum(["a", "b"])),
            "u8": pl.Series([1, 2, None], dtype=pl.UInt8),
            "f32": pl.Series([0.1, None, 0.1], dtype=pl.Float32),
            "dur": pl.Series([dt.timedelta(seconds=2), None, None]),
            "lst": [[1], None, []],
            "st": [{"a": 1}, None, {"a": 2}],
        }
    )
    cols = public(profile(frame))
    assert cols["cat"]["types"] == {"null": 1, "string": 2}
    assert [t["value"] for t in cols["enum"]["top_values"]] == ["a"]
    assert cols["u8"]["types"] == {"integer": 2, "null": 1}
    assert [t["value"] for t in cols["f32"]["top_values"]] == [0.1]
    assert cols["dur"]["numeric"]["min"] == 2.0
    assert cols["lst"]["types"] == {"array": 2, "null": 1}
    assert cols["st"]["types"] == {"null": 1, "object": 2}


def test_records_python_types() -> None:
    import uuid

    records = [
        {
            "dec": decimal.Decimal("2.50"),
            "td": dt.timedelta(minutes=1),
            "uid": uuid.UUID(int=1),
            "b": b"\x01",
            "d": dt.date(2024, 1, 1),
            "t": dt.time(1, 2, 3),
            "np": np.int32(7),
            "set": frozenset({1}),
        }
    ]
    cols = public(profile(records))
    assert cols["dec"]["top_values"][0]["value"] == 2.5
    assert cols["td"]["numeric"]["max"] == 60.0
    assert cols["uid"]["top_values"][0]["value"] == "00000000-0000-0000-0000-000000000001"
    assert cols["b"]["top_values"][0]["value"] == "AQ=="
    assert cols["d"]["top_values"][0]["value"] == "2024-01-01"
    assert cols["t"]["top_values"][0]["value"] == "01:02:03"
    assert cols["np"]["types"] == {"integer": 1}
    assert cols["set"]["types"] == {"array": 1}
