"""Fold one typed Arrow array into a :class:`ColumnState`, vectorised.

How Arrow types map to JSON types (the type a JSON writer would emit):

===================================  ===========  =========================================
Arrow type                           JSON type    notes
===================================  ===========  =========================================
int8..int64, uint8..uint64           integer
float16/32/64                        number       NaN counts as null; +-inf as a number
                                                  that no numeric statistic includes;
                                                  float32 as its shortest decimal text
decimal128/256                       number       statistics on the float value
bool                                 boolean
string, large_string, string_view    string
binary, large_binary, fixed binary   string       base64 text, as JSON writers encode bytes
timestamp, date32/64, time32/64      string       ISO 8601 text: 'T' separator, an aware
                                                  timestamp in UTC ('Z'), no trailing zeros
                                                  in the fraction (the text, and so the
                                                  profile, does not depend on the unit)
duration                             number       seconds
struct, map                          object       one column, canonical JSON value
                                                  (a map's keys become object keys)
list, large_list, fixed_size_list    array        one column, canonical JSON value
dictionary (categorical)             its values   counted per dictionary entry
null                                 null
===================================  ===========  =========================================
"""

from __future__ import annotations

import base64
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from faucet_core.errors import ProfilingInputError
from faucet_core.profile.arrow_distinct import (
    add_value_counts,
    candidates,
    feed_numbers,
    feed_texts,
    too_many_to_count,
)
from faucet_core.profile.hll_hash import float_coupons, int_coupons
from faucet_core.profile.isotext import UNIT_PER_SECOND, epoch_text
from faucet_core.profile.jsontext import (
    boolean_text,
    canonical_json,
    integer_text,
    number_text,
    string_text,
)
from faucet_core.profile.jsonvalues import string_array
from faucet_core.profile.model import JsonType
from faucet_core.profile.policy import NESTED_SAMPLE, PolicyState
from faucet_core.profile.state import ColumnState

__all__ = ["json_type_of", "update_from_arrow"]


def json_type_of(arrow_type: pa.DataType) -> JsonType:
    """The JSON type a value of ``arrow_type`` is written as."""
    t = arrow_type
    if pa.types.is_dictionary(t):
        return json_type_of(t.value_type)
    if pa.types.is_interval(t):  # no ISO text Arrow can render, no single number
        raise ProfilingInputError(f"Arrow type {t} has no JSON type; cast the column first")
    if pa.types.is_integer(t):
        return JsonType.INTEGER
    if pa.types.is_floating(t) or pa.types.is_decimal(t) or pa.types.is_duration(t):
        return JsonType.NUMBER
    if pa.types.is_boolean(t):
        return JsonType.BOOLEAN
    if (
        pa.types.is_string(t)
        or pa.types.is_large_string(t)
        or _is_string_view(t)
        or pa.types.is_binary(t)
        or pa.types.is_large_binary(t)
        or pa.types.is_fixed_size_binary(t)
        or _is_binary_view(t)
        or pa.types.is_temporal(t)
    ):
        return JsonType.STRING
    if pa.types.is_struct(t) or pa.types.is_map(t):
        return JsonType.OBJECT
    if (
        pa.types.is_list(t)
        or pa.types.is_large_list(t)
        or pa.types.is_fixed_size_list(t)
        or (hasattr(pa.types, "is_list_view") and pa.types.is_list_view(t))
    ):
        return JsonType.ARRAY
    if pa.types.is_null(t):
        return JsonType.NULL
    raise ProfilingInputError(f"Arrow type {t} has no JSON type; cast the column first")


def _is_string_view(t: pa.DataType) -> bool:
    return bool(getattr(pa.types, "is_string_view", lambda _t: False)(t))


def _is_binary_view(t: pa.DataType) -> bool:
    return bool(getattr(pa.types, "is_binary_view", lambda _t: False)(t))


def update_from_arrow(
    state: ColumnState, array: pa.Array | pa.ChunkedArray, policy: PolicyState | None = None
) -> None:
    """Count every value of ``array`` (one batch of one column) into ``state``."""
    if isinstance(array, pa.ChunkedArray):
        for chunk in array.chunks:
            update_from_arrow(state, chunk, policy)
        return
    if pa.types.is_dictionary(array.type):
        array = array.dictionary_decode()
    if _is_string_view(array.type):  # few compute kernels take views: count the same text
        array = array.cast(pa.large_string())
    elif _is_binary_view(array.type):
        array = array.cast(pa.large_binary())
    if policy is not None:
        policy.observe_type(array.type)
    t = array.type
    rows = len(array)
    try:
        kind = json_type_of(t)
    except ProfilingInputError as exc:
        raise ProfilingInputError(f"column {state.name!r}: {exc}") from None
    nested = kind in (JsonType.OBJECT, JsonType.ARRAY)
    # nested values are read as Python values, nulls skipped there (Arrow's filter has no
    # kernel for every nested type, e.g. a list of string_view)
    valid = array.drop_null() if array.null_count and not nested else array
    if kind is JsonType.NUMBER and pa.types.is_floating(t):
        state.add_rows(rows, array.null_count)
        _floats(state, valid)
        return
    state.add_rows(rows, array.null_count)
    if rows == array.null_count:  # nothing but nulls
        return
    if kind is JsonType.INTEGER:
        _integers(state, valid)
    elif kind is JsonType.NUMBER:
        seconds = pa.types.is_duration(t)
        _floats(state, _duration_seconds(valid) if seconds else pc.cast(valid, pa.float64()))
    elif kind is JsonType.BOOLEAN:
        _booleans(state, valid)
    elif kind is JsonType.STRING:
        if pa.types.is_temporal(t):
            _temporals(state, valid)
        elif _is_text(t):
            _strings(state, valid, policy)
        else:
            encoded = [base64.b64encode(b).decode("ascii") for b in valid.to_pylist()]
            _strings(state, pa.array(encoded, pa.string()), policy)
    elif kind in (JsonType.OBJECT, JsonType.ARRAY):
        values = _python_values(valid)
        if array.null_count:
            values = [v for v in values if v is not None]
        if _has_map(t):  # Arrow gives a map as (key, value) pairs: a JSON writer, an object
            values = [_maps_to_dicts(v, t) for v in values]
        texts = [_nested_json(v, state.name) for v in values]
        if policy is not None:
            policy.observe_nested(values[:NESTED_SAMPLE])
        update_json_texts(state, string_array(texts), kind)


def _python_values(array: pa.Array) -> list[Any]:
    """``array.to_pylist()``; where a value has no Python form (a nested timestamp beyond
    year 9999), converted scalar by scalar with such values as their ISO text."""
    try:
        values: list[Any] = array.to_pylist()
    except (OverflowError, ValueError, pa.ArrowException):
        values = [_scalar_value(scalar) for scalar in array]
    return values


def _scalar_value(scalar: pa.Scalar) -> Any:
    if not scalar.is_valid:
        return None
    t = scalar.type
    if pa.types.is_struct(t):
        return {t.field(i).name: _scalar_value(scalar[i]) for i in range(t.num_fields)}
    if pa.types.is_map(t):
        return [(_scalar_value(k), _scalar_value(v)) for k, v in _map_entries(scalar)]
    if json_type_of(t) is JsonType.ARRAY:
        return [_scalar_value(v) for v in scalar.values]
    try:
        return scalar.as_py()
    except (OverflowError, ValueError, pa.ArrowException):
        if pa.types.is_temporal(t):
            return _iso_texts(pa.array([scalar], t))[0].as_py()
        raise


def _map_entries(scalar: pa.Scalar) -> list[tuple[pa.Scalar, pa.Scalar]]:
    entries = scalar.values
    if entries is None:
        return []
    return list(zip(entries.field(0), entries.field(1), strict=True))


def _is_text(t: pa.DataType) -> bool:
    return pa.types.is_string(t) or pa.types.is_large_string(t) or _is_string_view(t)


def _has_map(t: pa.DataType) -> bool:
    if pa.types.is_map(t):
        return True
    if pa.types.is_struct(t):
        return any(_has_map(t.field(i).type) for i in range(t.num_fields))
    if json_type_of(t) is JsonType.ARRAY:
        return _has_map(t.value_type)
    return False


def _maps_to_dicts(value: Any, t: pa.DataType) -> Any:
    """``value`` (from ``to_pylist``) with every map as a dict; a repeated key keeps its last
    value, as a JSON reader would."""
    if value is None:
        return None
    if pa.types.is_map(t):
        return {k: _maps_to_dicts(v, t.item_type) for k, v in value}
    if pa.types.is_struct(t):
        fields = [t.field(i) for i in range(t.num_fields)]
        return {f.name: _maps_to_dicts(value.get(f.name), f.type) for f in fields}
    if json_type_of(t) is JsonType.ARRAY:
        return [_maps_to_dicts(v, t.value_type) for v in value]
    return value


def _nested_json(value: Any, column: str) -> str:
    try:
        return canonical_json(value)
    except (TypeError, ValueError) as exc:
        raise ProfilingInputError(
            f"column {column!r}: a nested value cannot be written as JSON ({exc}); "
            "cast the column to JSON-compatible types (string map keys, no binary keys)"
        ) from None


def update_json_texts(state: ColumnState, texts: pa.Array, kind: JsonType) -> None:
    """Count canonical JSON texts of objects or arrays (no string statistics)."""
    state.add_type(kind, len(texts))
    uniques = pc.unique(texts)
    state.add_distinct(uniques.to_pylist())
    add_value_counts(state, texts, None, lambda s: s)


_INT64_MAX = 2**63 - 1


def _integers(state: ColumnState, valid: pa.Array) -> None:
    state.add_type(JsonType.INTEGER, len(valid))
    values = valid.to_numpy()
    state.add_numbers(values.astype(np.float64, copy=False))
    uniques, counts = candidates(state, valid)
    if pa.types.is_uint64(valid.type) and values.size and int(values.max()) > _INT64_MAX:
        # uint64 beyond int64: hash the decimal text, as the records path does for big integers
        state.add_distinct([v if v <= _INT64_MAX else str(v) for v in uniques.to_pylist()])
    else:
        feed_numbers(state, uniques.to_numpy(), int_coupons)
    add_value_counts(state, valid, counts, integer_text)


def _floats(state: ColumnState, valid: pa.Array) -> None:
    if pa.types.is_float32(valid.type):
        # the shortest text of each float32, as a JSON writer prints it (0.1, not 0.100000001)
        valid = pc.cast(pc.cast(valid, pa.string()), pa.float64())
    values = valid.to_numpy(zero_copy_only=False).astype(np.float64, copy=False)
    finite = np.isfinite(values)
    if not finite.all():
        nan = np.isnan(values)
        n_nan = int(nan.sum())
        if n_nan:  # NaN has no JSON form: a JSON writer emits null
            state.add_rows(0, n_nan)
        n_inf = int((~finite).sum()) - n_nan
        state.add_nonfinite(n_inf)
        state.add_type(JsonType.NUMBER, n_inf)
        if n_inf:
            state.add_distinct(float(v) for v in np.unique(values[np.isinf(values)]))
        values = values[finite]
        valid = pa.array(values, pa.float64())
    state.add_type(JsonType.NUMBER, int(values.size))
    state.add_numbers(values)
    if values.size:
        uniques, counts = candidates(state, valid)
        feed_numbers(state, uniques.to_numpy(zero_copy_only=False), float_coupons)
        add_value_counts(state, valid, counts, number_text)


def _duration_seconds(valid: pa.Array) -> pa.Array:
    unit = valid.type.unit
    scale = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}[unit]
    return pa.array(valid.cast(pa.int64()).to_numpy().astype(np.float64) * scale, pa.float64())


def _booleans(state: ColumnState, valid: pa.Array) -> None:
    n = len(valid)
    state.add_type(JsonType.BOOLEAN, n)
    trues = int(pc.sum(valid).as_py() or 0)
    present = [k for k, c in ((boolean_text(True), trues), (boolean_text(False), n - trues)) if c]
    state.add_distinct(present)
    if state.tracks_values:
        state.add_counts(present, [c for c in (trues, n - trues) if c])


def _strings(state: ColumnState, valid: pa.Array, policy: PolicyState | None) -> None:
    n = len(valid)
    state.add_type(JsonType.STRING, n)
    counts = None
    if policy is not None:
        counts = pc.value_counts(valid) if state.tracks_values else None
        uniques = pc.unique(valid) if counts is None else counts.field("values")
        state.unique_ratio = len(uniques) / n if n else 0.0
        policy.observe_strings(uniques)
    else:
        uniques, counts = candidates(state, valid)
    if counts is not None:  # the lengths of the distinct values, weighted by their counts
        lengths = char_lengths(uniques)
        total = int(lengths @ counts.field("counts").to_numpy().astype(np.int64))
    else:
        lengths = char_lengths(valid)
        total = int(lengths.sum())
    if n:
        state.add_length_summary(int(lengths.min()), int(lengths.max()), total, n)
    feed_texts(state, uniques, bool(n and lengths.min() == 0))
    add_value_counts(state, valid, counts, string_text)


def char_lengths(texts: pa.Array) -> np.ndarray:
    """Characters per string (int64): the byte lengths from the offsets when the text is
    ASCII, else Arrow's ``utf8_length``."""
    t = texts.type
    n = len(texts)
    if n == 0:
        return np.zeros(0, np.int64)
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        offsets = np.frombuffer(
            texts.buffers()[1], np.int64 if pa.types.is_large_string(t) else np.int32
        )
        offsets = offsets[texts.offset : texts.offset + n + 1]
        data = texts.buffers()[2]
        first, last = int(offsets[0]), int(offsets[-1])
        if last == first or (np.frombuffer(data, np.uint8, last - first, first) < 128).all():
            return np.diff(offsets).astype(np.int64, copy=False)
    lengths: np.ndarray = pc.utf8_length(texts).to_numpy().astype(np.int64, copy=False)
    return lengths


def _temporals(state: ColumnState, valid: pa.Array) -> None:
    """Dates, times and timestamps count as their ISO text (see :func:`_iso_texts`), without
    rendering every value: distinct values are hashed as the instant in nanoseconds (so the
    storage unit and time zone do not matter), lengths follow from the instant's digits, and
    only the frequent values of a categorical column are rendered."""
    try:
        instants, base = _instants(valid)
    except (pa.ArrowInvalid, OverflowError):  # beyond the nanosecond range: render everything
        _strings(state, _iso_texts(valid), None)
        return
    n = len(valid)
    state.add_type(JsonType.STRING, n)
    ns = instants.to_numpy()
    if base == _DATE_LENGTH:
        state.add_length_summary(base, base, base * n, n)
    else:
        lo, hi, total = fraction_digits_summary(ns % 1_000_000_000)
        state.add_length_summary(base + lo, base + hi, base * n + total, n)
    counts = None
    if state.tracks_values and not too_many_to_count(state, instants):
        # the distinct raw values are the distinct instants, in order
        counts = pc.value_counts(valid)
        state.unique_ratio = len(counts) / n if n else 0.0
        feed_numbers(state, _instants(counts.field("values"))[0].to_numpy(), int_coupons)
    else:
        feed_numbers(state, candidates(state, instants)[0].to_numpy(), int_coupons)
    if state.tracks_values:
        if counts is None:
            counts = pc.value_counts(valid)
        texts = _iso_texts(counts.field("values")).to_pylist()
        keys = [string_text(x) for x in texts]
        state.add_counts(keys, counts.field("counts").to_pylist())


_DATE_LENGTH = 10  # YYYY-MM-DD


def _instants(valid: pa.Array) -> tuple[pa.Array, int]:
    """(int64 nanoseconds since the epoch or midnight, length of the text without a fraction).

    Assumes four-digit years, as ISO 8601 text has them."""
    t = valid.type
    if pa.types.is_timestamp(t):
        aware = t.tz is not None
        ns = valid.cast(pa.timestamp("ns", tz="UTC" if aware else None)).cast(pa.int64())
        return ns, 19 + int(aware)  # YYYY-MM-DDTHH:MM:SS[Z]
    if pa.types.is_date(t):
        days = valid.cast(pa.date32()).cast(pa.int32()).cast(pa.int64())
        bounds = pc.min_max(days)
        if bounds["min"].as_py() < _FIRST_DAY or bounds["max"].as_py() > _LAST_DAY:
            raise OverflowError("a date outside years 1..9999")  # text length differs
        return days, _DATE_LENGTH
    ns = valid.cast(pa.time64("ns")).cast(pa.int64())
    return ns, 8  # HH:MM:SS


_FIRST_DAY = -719_162  # 0001-01-01
_LAST_DAY = 2_932_896  # 9999-12-31


def fraction_digits_summary(fraction_ns: np.ndarray) -> tuple[int, int, int]:
    """(fewest, most, total) characters the fractions of a second add to the texts: '' for
    none, else '.' + 9 digits less the trailing zeros. Multiples of 10**p are multiples of
    10**(p-1), so each step divides only the values still divisible (in float64, exact
    below 10**9: a quotient is whole exactly when the division is)."""
    n = int(fraction_ns.size)
    whole = fraction_ns[fraction_ns != 0]
    nonzero = int(whole.size)
    if nonzero == 0:
        return 0, 0, 0
    zeros_total, zeros_max, zeros_min = 0, 0, 0  # trailing zeros, over the nonzero fractions
    steps = 9
    for _ in range(2):  # micro- or millisecond data: skip three steps every value passes
        if (whole % 1_000).any():
            break
        whole = whole // 1_000
        zeros_total, zeros_max, zeros_min = zeros_total + 3 * nonzero, zeros_max + 3, zeros_min + 3
        steps -= 3
    rest = whole.astype(np.float64)
    for _ in range(steps):
        quotient = rest / 10.0
        rest = quotient[np.floor(quotient) == quotient]
        if rest.size == 0:
            break
        zeros_total += int(rest.size)
        zeros_max += 1
        zeros_min += rest.size == nonzero
    fewest = 0 if nonzero < n else 10 - zeros_max
    return fewest, 10 - zeros_min, 10 * nonzero - zeros_total


def _iso_texts(values: pa.Array) -> pa.Array:
    """ISO 8601 text of temporal values: 'T' between date and time, a time zone as UTC ('Z'),
    the fraction of a second without trailing zeros (none when it is zero)."""
    t = values.type
    if pa.types.is_timestamp(t) and t.tz is not None:
        values = values.cast(pa.timestamp(t.unit, tz="UTC"))
    texts = _arrow_texts(values)
    texts = pc.replace_substring(texts, " ", "T", max_replacements=1)
    texts = pc.replace_substring_regex(texts, r"\.0+(Z?)$", r"\1")
    return pc.replace_substring_regex(texts, r"(\.[0-9]*[1-9])0+(Z?)$", r"\1\2")


def _arrow_texts(values: pa.Array) -> pa.Array:
    """Arrow's string cast of temporal values, with the values outside years 1..9999
    rendered by :func:`epoch_text` (Arrow writes ``<value out of range: N>`` for some and
    garbled text for others, e.g. an aware timestamp far beyond year 9999)."""
    texts = pc.cast(values, pa.string())
    t = values.type
    if pa.types.is_date32(t):
        unit, date_only, ints = "D", True, values.cast(pa.int32()).cast(pa.int64())
    elif pa.types.is_date64(t):
        unit, date_only, ints = "ms", True, values.cast(pa.int64())
    elif pa.types.is_timestamp(t):
        unit, date_only, ints = t.unit, False, values.cast(pa.int64())
    else:
        return texts
    per_day = 1 if unit == "D" else 86_400 * UNIT_PER_SECOND[unit]
    low = pa.scalar(max(_FIRST_DAY * per_day, -(2**63)), pa.int64())
    high = pa.scalar(min((_LAST_DAY + 1) * per_day - 1, 2**63 - 1), pa.int64())
    outside = pc.or_(pc.less(ints, low), pc.greater(ints, high))
    if not pc.any(outside).as_py():
        return texts
    aware = pa.types.is_timestamp(t) and t.tz is not None
    fixed = [
        epoch_text(v, unit, date_only=date_only, aware=aware) if bad else text
        for v, bad, text in zip(
            ints.to_pylist(), outside.to_pylist(), texts.to_pylist(), strict=True
        )
    ]
    return pa.array(fixed, pa.string())
