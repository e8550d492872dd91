"""Awkward and bad input: documented behaviour, or a ProfilingInputError that names the
column or value and says how to fix it."""

from __future__ import annotations

import decimal
import json
import math
from typing import Any

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

from faucet_core import PolicyConfig, ProfilingConfig, ProfilingInputError, profile
from tests.faucet_core.profile.helpers import exact, public


class Opaque:
    def __repr__(self) -> str:
        return "<Opaque thing>"


def test_mixed_types_in_one_column_are_each_counted() -> None:
    values = [1, 2, "x", 2.5, True, None, {"a": 1}, [1], "y", float("nan"), 2**70]
    prof = profile([{"m": v} for v in values])
    column = prof["m"]
    assert column.types == {
        "array": 1,
        "boolean": 1,
        "integer": 3,
        "null": 2,
        "number": 1,
        "object": 1,
        "string": 2,
    }
    assert column.null_count == 2
    assert column.numeric is not None
    assert column.numeric.count == 4  # the integers and the number; not the boolean
    assert column.numeric.min == 1.0
    assert column.string is not None
    assert column.string.count == 2
    values_seen = {json.dumps(t.value) for t in column.top_values or ()}
    assert values_seen == {
        "1",
        "2",
        '"x"',
        "2.5",
        "true",
        '{"a": 1}',
        "[1]",
        '"y"',
        str(2**70),
    }


def test_nan_and_infinity_in_records() -> None:
    column = profile([{"f": v} for v in [1.0, math.nan, math.inf, -math.inf, 2.0]])["f"]
    assert column.types == {"null": 1, "number": 4}
    assert column.numeric is not None
    assert (column.numeric.count, column.numeric.nonfinite) == (2, 2)
    assert (column.numeric.min, column.numeric.max) == (1.0, 2.0)


@pytest.mark.parametrize(
    "data",
    [
        pd.DataFrame({"a": pd.Series([], dtype="int64"), "s": pd.Series([], dtype="str")}),
        pd.DataFrame(columns=["a", "s"]),
        pl.DataFrame({"a": pl.Series([], dtype=pl.Int64), "s": pl.Series([], dtype=pl.String)}),
        pa.table({"a": pa.array([], pa.int64()), "s": pa.array([], pa.string())}),
        pa.RecordBatchReader.from_batches(pa.schema([("a", pa.int64()), ("s", pa.string())]), []),
    ],
    ids=["pandas", "pandas-object", "polars", "arrow", "empty-reader"],
)
def test_zero_rows_keep_the_columns(data: Any) -> None:
    prof = profile(data)
    assert prof.row_count == 0
    assert list(prof.columns) == ["a", "s"]
    for column in prof.columns.values():
        assert column.null_rate == 0.0
        assert column.types == {}
        assert column.distinct == 0
        assert column.numeric is None
        assert column.top_values == ()


def test_an_all_null_column() -> None:
    prof = profile([{"a": None, "b": 1}] * 5 + [{"b": 2}])
    column = prof["a"]
    assert column.null_rate == 1.0
    assert column.types == {"null": 6}
    assert (column.distinct, column.numeric, column.string) == (0, None, None)
    assert column.top_values == ()
    frame = public(profile(pd.DataFrame({"a": [None] * 3, "f": [math.nan] * 3})))
    assert frame["a"]["types"] == frame["f"]["types"] == {"null": 3}


@pytest.mark.parametrize("policy", [None, PolicyConfig.pii()], ids=["plain", "pii-policy"])
def test_a_ten_megabyte_string(policy: PolicyConfig | None) -> None:
    big = "x" * 10_000_000
    digits = "1" * 10_000_000
    prof = profile([{"s": big}, {"s": digits}, {"s": "a"}], ProfilingConfig(policy=policy))
    column = prof["s"]
    assert column.string is not None
    assert (column.string.len_min, column.string.len_max) == (1, 10_000_000)
    assert column.distinct == 3
    assert column.classified == ()
    # never tracked: values longer than 256 characters are not top values
    assert [t.value for t in column.top_values or ()] == ["a"]
    assert len(prof.to_json()) < 10_000


@pytest.mark.parametrize(
    ("key", "column"),
    [(1, "1"), (-2, "-2"), (1.5, "1.5"), (True, "true"), (None, "null")],
    ids=["int", "negative", "float", "bool", "none"],
)
def test_non_string_keys_become_their_json_text(key: Any, column: str) -> None:
    prof = profile([{key: "v", "other": 1}])
    assert list(prof.columns) == [column, "other"]
    assert column == json.loads(json.dumps({key: 0})).popitem()[0]  # as json.dumps does


def test_an_object_key_is_refused() -> None:
    with pytest.raises(ProfilingInputError) as info:
        profile([{"a": 1}, {("x", 1): 2}])
    assert str(info.value) == (
        "record 1 has a key of type tuple (('x', 1)); column names must be strings: "
        "convert the keys first"
    )


def test_keys_that_collide_once_written_are_refused() -> None:
    with pytest.raises(ProfilingInputError) as info:
        profile([{1: "a", "1": "b"}])
    assert str(info.value) == (
        "record 0 has the keys 1 and '1', both column '1' once written as JSON; rename one of them"
    )


def test_bytes_values_are_base64_strings() -> None:
    prof = profile([{"b": b"\x00\xff"}, {"b": bytearray(b"hi")}, {"b": memoryview(b"")}])
    column = prof["b"]
    assert column.types == {"string": 3}
    assert sorted(t.value for t in column.top_values or ()) == ["", "AP8=", "aGk="]
    assert column.distinct == 3  # the empty string counts as a value


@pytest.mark.parametrize(
    ("records", "message"),
    [
        (
            [{"o": Opaque()}],
            "column 'o': a value of type tests.faucet_core.profile.test_bad_input.Opaque "
            "(<Opaque thing>) has no JSON type; convert it to str, int, float, bool, None, a "
            "datetime/date, a list or a dict before profiling",
        ),
        (
            [{"o": 1}, {"o": "x"}, {"o": Opaque()}],
            "column 'o': a value of type tests.faucet_core.profile.test_bad_input.Opaque "
            "(<Opaque thing>) has no JSON type; convert it to str, int, float, bool, None, a "
            "datetime/date, a list or a dict before profiling",
        ),
        (
            [{"o": {"inner": Opaque()}}],
            "column 'o': a nested value cannot be written as JSON (a value of type Opaque has "
            "no JSON form); convert it to JSON-compatible types (str keys, numbers, strings, "
            "lists, dicts)",
        ),
        (
            [{"n": 1}, None],
            "record 1 is a NoneType, not a mapping; pass an iterable of dicts (one dict per "
            "record) or a DataFrame",
        ),
    ],
    ids=["object", "object-in-mixed-column", "nested-object", "record-not-a-mapping"],
)
def test_unprofilable_records(records: list[Any], message: str) -> None:
    with pytest.raises(ProfilingInputError, match=exact(message)):
        profile(records)


def test_an_object_in_a_dataframe_names_the_column() -> None:
    frame = pd.DataFrame({"ok": [1, 2], "bad": [Opaque(), None]})
    with pytest.raises(ProfilingInputError, match=r"^column 'bad': a value of type .*Opaque"):
        profile(frame)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"a": 1},
            "cannot profile a dict: pass a DataFrame, an Arrow table or batch reader, or an "
            "iterable of dict records (a single dict is one record: wrap it in a list)",
        ),
        (
            "a,b\n1,2",
            "cannot profile a str: pass a DataFrame, an Arrow table or batch reader, or an "
            "iterable of dict records (a single dict is one record: wrap it in a list)",
        ),
        (
            42,
            "cannot profile a builtins.int: pass a pandas or polars DataFrame, a pyarrow "
            "Table/RecordBatch/RecordBatchReader, or an iterable of dict records",
        ),
        (
            ["a", "b"],
            "record 0 is a str, not a mapping; pass an iterable of dicts (one dict per record) "
            "or a DataFrame",
        ),
    ],
    ids=["single-dict", "str", "int", "list-of-str"],
)
def test_data_of_the_wrong_kind(data: Any, message: str) -> None:
    with pytest.raises(ProfilingInputError, match=exact(message)):
        profile(data)


@pytest.mark.parametrize(
    "data",
    [
        pd.DataFrame([[1, 2]], columns=["x", "x"]),
        pa.Table.from_arrays([pa.array([1]), pa.array(["a"])], names=["x", "x"]),
    ],
    ids=["pandas", "arrow"],
)
def test_duplicate_column_names(data: Any) -> None:
    with pytest.raises(
        ProfilingInputError,
        match=exact("column 'x' appears twice in the input; rename one of them"),
    ):
        profile(data)


def test_non_string_dataframe_column_names() -> None:
    with pytest.raises(
        ProfilingInputError,
        match=exact(
            "column name 0 is a int; column names must be strings: rename the column "
            "(e.g. df.columns = df.columns.astype(str))"
        ),
    ):
        profile(pd.DataFrame({0: [1]}))


@pytest.mark.parametrize(
    "array",
    [
        pa.array([pa.MonthDayNano([1, 2, 3])], pa.month_day_nano_interval()),
        pa.UnionArray.from_sparse(pa.array([0], pa.int8()), [pa.array([1]), pa.array(["a"])]),
    ],
    ids=["interval", "union"],
)
def test_an_arrow_type_without_json_form_names_the_column(array: pa.Array) -> None:
    with pytest.raises(
        ProfilingInputError,
        match=exact(f"column 'c': Arrow type {array.type} has no JSON type; cast the column first"),
    ):
        profile(pa.table({"c": array}))


def test_an_arrow_map_with_binary_keys_names_the_column() -> None:
    array = pa.array([[(b"k", 1)]], pa.map_(pa.binary(), pa.int64()))
    with pytest.raises(ProfilingInputError, match=r"^column 'm': a nested value cannot be"):
        profile(pa.table({"m": array}))


def test_integers_beyond_64_bits() -> None:
    values = [2**70, -(2**70), 5, 2**64, 2**64, None]
    column = profile([{"n": v} for v in values])["n"]
    assert column.types == {"integer": 5, "null": 1}
    assert column.distinct == 4
    assert column.numeric is not None
    assert column.numeric.max == float(2**70)
    assert column.numeric.min == -float(2**70)
    top = column.top_values
    assert top is not None
    assert (top[0].value, top[0].count) == (2**64, 2)
    assert {t.value for t in top} == {2**70, -(2**70), 5, 2**64}
    frame = profile(pd.DataFrame({"n": [2**70, 5]}))["n"]  # an object column in pandas
    assert frame.types == {"integer": 2}


def test_uint64_beyond_int64_hashes_like_the_records_path() -> None:
    big = 2**63 + 5
    arrow = profile(pa.table({"n": pa.array([big, 1], pa.uint64())}))
    records = profile([{"n": big}, {"n": 1}])
    assert arrow["n"].distinct == 2
    assert arrow.merge(records)["n"].distinct == 2  # the same values, counted once


def test_decimal_special_values_behave_like_floats() -> None:
    values = [
        decimal.Decimal("1.5"),
        decimal.Decimal("Infinity"),
        decimal.Decimal("NaN"),
        decimal.Decimal("sNaN"),
        None,
    ]
    column = profile([{"d": v} for v in values])["d"]
    assert column.types == {"null": 3, "number": 2}
    assert column.numeric is not None
    assert (column.numeric.count, column.numeric.nonfinite) == (1, 1)


def test_numpy_values_in_records() -> None:
    records = [
        {"arr": np.array([1, 2]), "one": np.array([1.5]), "s": np.int64(3), "b": np.bool_(True)},
        {"arr": np.array([[1], [2]]), "one": [1.5], "s": np.float32(0.5), "b": None},
        {"arr": {"nested": np.arange(2)}, "one": None, "s": np.nan, "b": np.bool_(False)},
    ]
    cols = public(profile(records))
    assert cols["arr"]["types"] == {"array": 2, "object": 1}
    assert [t["value"] for t in cols["arr"]["top_values"]] == [
        [1, 2],
        [[1], [2]],
        {"nested": [0, 1]},
    ]
    assert cols["one"]["types"] == {"array": 2, "null": 1}  # an array of one is an array
    assert cols["one"]["distinct"] == 1
    assert cols["s"]["types"] == {"integer": 1, "null": 1, "number": 1}
    assert cols["b"]["types"] == {"boolean": 2, "null": 1}
