"""Python values (records input) -> typed Arrow arrays the vectorised path understands.

A column of a batch of records is a list of Python values. When all non-null
values share one plain type (the common case) the list becomes one Arrow
array. A mixed column is split by JSON type and each part is counted on its
own, so ``types`` reports the mix exactly.

Other Python values are written as a JSON writer would: a ``Decimal`` as a
number (NaN as null, an infinity as a non-finite number, like a float), bytes
as base64 text, a UUID as text, a timedelta as seconds, a numpy scalar as its
Python value and a numpy array as a JSON array (even of one element).
"""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import math
import numbers
import uuid
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from faucet_core.errors import ProfilingInputError
from faucet_core.profile.arrow_path import update_from_arrow, update_json_texts
from faucet_core.profile.jsontext import canonical_json, datetime64_value, is_missing
from faucet_core.profile.jsonvalues import string_array
from faucet_core.profile.model import JsonType
from faucet_core.profile.policy import NESTED_SAMPLE, PolicyState
from faucet_core.profile.state import ColumnState
from faucet_core.text import clip

__all__ = ["update_from_values"]

_PLAIN: dict[type, pa.DataType] = {
    int: pa.int64(),
    float: pa.float64(),
    str: pa.string(),
    bool: pa.bool_(),
}
_NONE = type(None)

# Buckets for a mixed column: each becomes one typed array.
_INT, _BIGINT, _FLOAT, _STR, _BOOL, _TS, _DATE, _TIME, _OBJ, _ARR = range(10)


def update_from_values(
    state: ColumnState, values: Sequence[Any], policy: PolicyState | None = None
) -> None:
    """Count a column's values from a batch of records into ``state``."""
    kinds = set(map(type, values))
    kinds.discard(_NONE)
    if len(kinds) <= 1:
        arrow_type = _PLAIN.get(next(iter(kinds))) if kinds else pa.null()
        if arrow_type is not None:
            try:
                if arrow_type == pa.string():
                    array = string_array(values)
                else:
                    array = pa.array(values, arrow_type)
            except (OverflowError, pa.ArrowInvalid):
                pass  # integers beyond 64 bits: take the general path
            else:
                update_from_arrow(state, array, policy)
                return
    _update_mixed(state, values, policy)


def _update_mixed(state: ColumnState, values: Sequence[Any], policy: PolicyState | None) -> None:
    buckets: list[list[Any]] = [[] for _ in range(10)]
    nulls = 0
    for value in values:
        if value is None:
            nulls += 1
            continue
        bucket, converted = _classify(value, state.name)
        if bucket < 0:
            nulls += 1
        else:
            buckets[bucket].append(converted)
    state.add_rows(nulls, nulls)
    arrays: list[tuple[int, pa.Array]] = []
    for bucket, items in enumerate(buckets):
        if items:
            arrays.append((bucket, _to_array(bucket, items)))
    for bucket, array in arrays:
        if bucket in (_OBJ, _ARR):
            state.add_rows(len(array), 0)
            if policy is not None:
                policy.observe_nested(_sample_objects(values, bucket))
            update_json_texts(state, array, JsonType.OBJECT if bucket == _OBJ else JsonType.ARRAY)
        elif bucket == _BIGINT:
            _big_integers(state, array)
        else:
            update_from_arrow(state, array, policy)


def _to_array(bucket: int, items: list[Any]) -> pa.Array:
    if bucket == _INT:
        return pa.array(items, pa.int64())
    if bucket in (_FLOAT,):
        return pa.array(items, pa.float64())
    if bucket == _BOOL:
        return pa.array(items, pa.bool_())
    if bucket == _TS:
        if all(v.tzinfo is None for v in items):
            return pa.array(items, pa.timestamp("us"))
        # tz-aware (or a mix, naive as UTC): Arrow converts each to UTC in integer arithmetic,
        # so an instant whose UTC date is outside Python's years 1..9999 still converts
        return pa.array(items, pa.timestamp("us", tz="UTC"))
    if bucket == _DATE:
        return pa.array(items, pa.date32())
    if bucket == _TIME:
        return pa.array(items, pa.time64("us"))
    return string_array(items)


def _big_integers(state: ColumnState, array: pa.Array) -> None:
    # Integers beyond 64 bits: exact type and distinct count, float statistics.
    texts = array.to_pylist()
    state.add_rows(len(texts), 0)
    state.add_type(JsonType.INTEGER, len(texts))
    floats = np.array([_float_or_inf(int(t)) for t in texts], dtype=np.float64)
    finite = np.isfinite(floats)
    state.add_nonfinite(int(floats.size - finite.sum()))  # beyond the float range, like +-inf
    state.add_numbers(floats[finite])
    state.add_distinct(set(texts))
    if state.tracks_values:
        counts: dict[str, int] = {}
        for t in texts:
            counts[t] = counts.get(t, 0) + 1
        state.add_counts(list(counts), list(counts.values()))


def _float_or_inf(value: int) -> float:
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _sample_objects(values: Sequence[Any], bucket: int) -> list[Any]:
    want = dict if bucket == _OBJ else (list, tuple)
    return [v for v in values[:256] if isinstance(v, want)][:NESTED_SAMPLE]


def _classify(value: Any, column: str) -> tuple[int, Any]:
    """(bucket, converted value); bucket -1 means the value counts as null."""
    handler = _HANDLERS.get(type(value))
    if handler is not None:
        return handler(value, column)
    return _classify_other(value, column)


def _int_value(value: Any, column: str) -> tuple[int, Any]:
    if -(2**63) <= value < 2**63:
        return _INT, value
    return _BIGINT, str(value)


def _float_value(value: Any, column: str) -> tuple[int, Any]:
    if math.isnan(value):
        return -1, None
    return _FLOAT, value


def _nested(value: Any, column: str) -> tuple[int, Any]:
    try:
        text = canonical_json(value)
    except (TypeError, ValueError) as exc:
        raise ProfilingInputError(
            f"column {column!r}: a nested value cannot be written as JSON ({exc}); "
            "convert it to JSON-compatible types (str keys, numbers, strings, lists, dicts)"
        ) from None
    return (_OBJ if isinstance(value, dict) else _ARR), text


_HANDLERS: dict[type, Callable[[Any, str], tuple[int, Any]]] = {
    int: _int_value,
    float: _float_value,
    bool: lambda v, c: (_BOOL, v),
    str: lambda v, c: (_STR, v),
    dict: _nested,
    list: _nested,
    tuple: _nested,
    dt.datetime: lambda v, c: (_TS, v),
    dt.date: lambda v, c: (_DATE, v),
    dt.time: lambda v, c: (_TIME, v),
}


def _classify_other(value: Any, column: str) -> tuple[int, Any]:
    if is_missing(value):  # before the datetime test: NaT is a datetime subclass
        return -1, None
    if isinstance(value, (np.datetime64, np.timedelta64)):
        return _numpy_time(value, column)
    if type(value).__module__ == "numpy" and hasattr(value, "tolist"):
        plain = value.tolist()  # numpy scalar -> Python scalar, array -> list (a JSON array)
        if type(plain).__module__ != "numpy":
            return _classify(plain, column) if plain is not None else (-1, None)
    if isinstance(value, bool):
        return _BOOL, bool(value)
    if isinstance(value, numbers.Integral):
        return _int_value(int(value), column)
    if isinstance(value, decimal.Decimal):  # as a float: NaN is null, +-inf non-finite
        return (-1, None) if value.is_nan() else (_FLOAT, float(value))
    if isinstance(value, numbers.Real):
        return _float_value(float(value), column)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return _STR, base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, uuid.UUID):
        return _STR, str(value)
    if isinstance(value, dt.timedelta):
        return _FLOAT, value.total_seconds()
    if isinstance(value, dt.datetime):
        return _TS, value
    if isinstance(value, dt.date):
        return _DATE, value
    if isinstance(value, str):
        return _STR, str(value)
    if isinstance(value, dict):
        return _nested(dict(value), column)
    if isinstance(value, (list, tuple, set, frozenset)):
        return _nested(list(value), column)
    raise ProfilingInputError(
        f"column {column!r}: a value of type {type(value).__module__}.{type(value).__qualname__} "
        f"({_short(value)}) has no JSON type; convert it to str, int, float, bool, None, "
        "a datetime/date, a list or a dict before profiling"
    )


def _numpy_time(value: np.datetime64 | np.timedelta64, column: str) -> tuple[int, Any]:
    """A datetime64 as the datetime (or date) it is, a timedelta64 as seconds; NaT is null."""
    if np.isnat(value):
        return -1, None
    if isinstance(value, np.timedelta64):
        return _FLOAT, float(value / np.timedelta64(1, "s"))
    converted = datetime64_value(value)
    if isinstance(converted, dt.datetime):
        return _TS, converted
    if isinstance(converted, dt.date):
        return _DATE, converted
    return _STR, converted  # beyond Python's years 1..9999: its ISO text


def _short(value: Any) -> str:
    try:
        text = repr(value)
    except Exception:
        text = object.__repr__(value)
    return clip(text, 60)
