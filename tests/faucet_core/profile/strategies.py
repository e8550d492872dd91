"""Hypothesis strategies for every input type docs/profiling.md lists, awkward values
included (NaN, infinities, values near the float limit, NaT/NA, Decimal specials, lone
surrogates, deep nesting, calendar edges with extreme offsets, timestamps beyond 9999)."""

from __future__ import annotations

import datetime as dt
import decimal
import uuid
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
from hypothesis import strategies as st

__all__ = [
    "arrow_tables",
    "assert_sound",
    "deep_values",
    "polars_frames",
    "python_values",
    "records",
]

# -- Python values (records input) ----------------------------------------------------------
offsets = st.integers(min_value=-14 * 60, max_value=14 * 60).map(
    lambda m: dt.timezone(dt.timedelta(minutes=m))
)
datetimes = st.one_of(
    st.datetimes(),
    st.datetimes(timezones=offsets),
    st.sampled_from(
        [
            dt.datetime(1, 1, 1, tzinfo=dt.timezone(dt.timedelta(hours=14))),
            dt.datetime(
                9999, 12, 31, 23, 59, 59, 999999, tzinfo=dt.timezone(dt.timedelta(hours=-14))
            ),
            dt.datetime.min,
            dt.datetime.max,
        ]
    ),
)
floats = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1e155, -1e155, 1e308, -1e308, 1.7976931348623157e308, 5e-324, -0.0]),
)
texts = st.text(alphabet=st.characters(blacklist_categories=()), max_size=12)  # surrogates too
decimals = st.one_of(
    st.decimals(allow_nan=True, allow_infinity=True, places=None),
    st.sampled_from(
        [decimal.Decimal("sNaN"), decimal.Decimal("-Infinity"), decimal.Decimal("1e400")]
    ),
)
numpy_scalars = st.one_of(
    st.integers(-(2**63), 2**63 - 1).map(np.int64),
    st.floats(width=32).map(np.float32),
    st.floats().map(np.float64),
    st.integers(-(2**62), 2**62).map(lambda s: np.datetime64(s, "s")),
    st.integers(-(2**62), 2**62).map(lambda ns: np.datetime64(ns, "ns")),
    st.sampled_from([np.datetime64("NaT"), np.timedelta64(90, "s"), np.bool_(True)]),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**400), max_value=10**400),
    floats,
    texts,
    st.binary(max_size=8),
    decimals,
    datetimes,
    st.dates(),
    st.times(),
    st.timedeltas(),
    st.uuids().map(uuid.UUID.__str__),
    st.uuids(),
    st.sampled_from([pd.NaT, pd.NA, pd.Timestamp("2020-01-01 00:00:00.000000001")]),
    numpy_scalars,
)
python_values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.tuples(children, children),
        st.dictionaries(st.one_of(texts, st.integers(-3, 3)), children, max_size=3),
    ),
    max_leaves=8,
)


@st.composite
def deep_values(draw: st.DrawFn) -> Any:
    """A value nested thousands of levels deep (beyond the recursion limit)."""
    depth = draw(st.integers(min_value=1_100, max_value=5_000))
    value: Any = draw(scalars)
    wrap_in_list = draw(st.booleans())
    for _ in range(depth):
        value = [value] if wrap_in_list else {"k": value}
    return value


columns = st.sampled_from(["a", "b", "c", "\ud800d"])  # a lone surrogate in a name too
records = st.lists(
    st.dictionaries(
        columns, st.one_of(python_values, python_values, python_values, deep_values()), max_size=4
    ),
    max_size=12,
)

# -- Arrow tables ---------------------------------------------------------------------------
_INT_TYPES = [pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(), pa.uint32(), pa.uint64()]


def _ints(t: pa.DataType) -> st.SearchStrategy[Any]:
    bits = t.bit_width
    lo, hi = (
        (0, 2**bits - 1)
        if pa.types.is_unsigned_integer(t)
        else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
    )
    return st.integers(lo, hi)


def _column(draw: st.DrawFn, rows: int) -> pa.Array:
    kind = draw(
        st.sampled_from(
            [
                "int",
                "float",
                "float32",
                "decimal",
                "bool",
                "string",
                "view",
                "binary",
                "timestamp",
                "date",
                "time",
                "duration",
                "list",
                "struct",
                "map",
                "dictionary",
                "null",
            ]
        )
    )
    maybe = lambda s: st.one_of(st.none(), s)  # noqa: E731
    if kind == "int":
        t = draw(st.sampled_from(_INT_TYPES))
        return pa.array(draw(st.lists(maybe(_ints(t)), min_size=rows, max_size=rows)), t)
    if kind == "float":
        return pa.array(draw(st.lists(maybe(floats), min_size=rows, max_size=rows)), pa.float64())
    if kind == "float32":
        values = draw(st.lists(maybe(st.floats(width=32)), min_size=rows, max_size=rows))
        return pa.array(values, pa.float32())
    if kind == "decimal":
        values = draw(
            st.lists(maybe(st.decimals(-(10**20), 10**20, places=4)), min_size=rows, max_size=rows)
        )
        return pa.array(values, pa.decimal128(30, 4))
    if kind == "bool":
        return pa.array(draw(st.lists(maybe(st.booleans()), min_size=rows, max_size=rows)))
    if kind in ("string", "view"):
        t = draw(st.sampled_from([pa.string(), pa.large_string(), pa.string_view()]))
        values = draw(st.lists(maybe(st.text(max_size=6)), min_size=rows, max_size=rows))
        return pa.array(values, t)
    if kind == "binary":
        t = draw(st.sampled_from([pa.binary(), pa.large_binary(), pa.binary_view()]))
        return pa.array(
            draw(st.lists(maybe(st.binary(max_size=6)), min_size=rows, max_size=rows)), t
        )
    if kind == "timestamp":
        unit = draw(st.sampled_from(["s", "ms", "us", "ns"]))
        tz = draw(st.sampled_from([None, "UTC", "+14:00", "America/New_York"]))
        values = draw(
            st.lists(maybe(st.integers(-(2**63) + 1, 2**63 - 1)), min_size=rows, max_size=rows)
        )
        return pa.array(values, pa.int64()).cast(pa.timestamp(unit, tz=tz))
    if kind == "date":
        values = draw(
            st.lists(maybe(st.integers(-(2**31), 2**31 - 1)), min_size=rows, max_size=rows)
        )
        return pa.array(values, pa.int32()).cast(pa.date32())
    if kind == "time":
        values = draw(st.lists(maybe(st.integers(0, 86_399_999_999)), min_size=rows, max_size=rows))
        return pa.array(values, pa.int64()).cast(pa.time64("us"))
    if kind == "duration":
        values = draw(st.lists(maybe(st.integers(-(2**62), 2**62)), min_size=rows, max_size=rows))
        return pa.array(values, pa.int64()).cast(pa.duration(draw(st.sampled_from(["s", "ns"]))))
    if kind == "list":
        inner = draw(st.sampled_from([pa.int64(), pa.string_view(), pa.timestamp("s")]))
        leaf = {
            pa.int64(): st.integers(-(2**63), 2**63 - 1),
            pa.string_view(): st.text(max_size=4),
            pa.timestamp("s"): st.integers(-(2**62), 2**62),
        }[inner]
        values = draw(
            st.lists(maybe(st.lists(maybe(leaf), max_size=3)), min_size=rows, max_size=rows)
        )
        if inner == pa.timestamp("s"):
            flat = pa.array(values, pa.list_(pa.int64()))
            return flat.cast(pa.list_(pa.timestamp("s")))
        return pa.array(values, pa.list_(inner))
    if kind == "struct":
        t = pa.struct([("x", pa.int64()), ("s", pa.string()), ("t", pa.timestamp("ms", tz="UTC"))])
        rows_ = draw(
            st.lists(
                maybe(
                    st.fixed_dictionaries(
                        {
                            "x": maybe(st.integers(-(2**63), 2**63 - 1)),
                            "s": maybe(st.text(max_size=4)),
                            "t": maybe(st.integers(-(2**60), 2**60)),
                        }
                    )
                ),
                min_size=rows,
                max_size=rows,
            )
        )
        raw = pa.array(rows_, pa.struct([("x", pa.int64()), ("s", pa.string()), ("t", pa.int64())]))
        return raw.cast(t)
    if kind == "map":
        entries = st.lists(st.tuples(st.text(max_size=3), maybe(st.integers(-5, 5))), max_size=3)
        values = draw(st.lists(maybe(entries), min_size=rows, max_size=rows))
        return pa.array(values, pa.map_(pa.string(), pa.int64()))
    if kind == "dictionary":
        values = draw(
            st.lists(maybe(st.sampled_from(["eu", "us", "ap"])), min_size=rows, max_size=rows)
        )
        return pa.array(values, pa.string()).dictionary_encode()
    return pa.nulls(rows)


@st.composite
def arrow_tables(draw: st.DrawFn) -> pa.Table:
    rows = draw(st.integers(min_value=0, max_value=8))
    width = draw(st.integers(min_value=1, max_value=4))
    return pa.table({f"c{i}": _column(draw, rows) for i in range(width)})


@st.composite
def polars_frames(draw: st.DrawFn) -> Any:
    """polars frames from Arrow tables of the types polars holds (no views of binary in
    old releases, no maps, unsigned 64-bit and nanosecond time included)."""
    import polars as pl

    table = draw(arrow_tables())
    keep = [
        name
        for name, field in zip(table.column_names, table.schema, strict=True)
        if not pa.types.is_map(field.type) and not pa.types.is_dictionary(field.type)
    ]
    frame = pl.from_arrow(table.select(keep)) if keep else pl.DataFrame()
    return frame


# -- invariants -----------------------------------------------------------------------------
def assert_sound(profile: Any, rows: int) -> None:
    """Counts add up; every published statistic is finite."""
    import math

    assert profile.row_count == rows
    for column in profile.columns.values():
        assert sum(column.types.values()) == rows, column
        assert column.null_count == column.types.get("null", 0)
        if column.numeric is not None:
            n = column.numeric
            for value in (n.min, n.max, n.mean, n.stddev, n.p50, n.p95):
                assert math.isfinite(value), column
            assert n.min <= n.p50 <= n.max
            assert n.stddev >= 0
            assert n.count + n.nonfinite == column.types.get("integer", 0) + column.types.get(
                "number", 0
            )
        if column.string is not None:
            assert 0 <= column.string.len_min <= column.string.len_max
