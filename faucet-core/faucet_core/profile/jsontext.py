"""A value as JSON text: the one contract every profiling engine keeps.

A value is counted (top values, distinct booleans and texts) by the text a JSON writer
emits for it, whichever engine read it (Arrow batches, Python records, the SQL pushdown,
Spark's executors), so two engines give one profile:

* ``true`` / ``false`` (:func:`boolean_text`), an integer's digits (:func:`integer_text`),
  a float as ``json.dumps`` writes it (:func:`number_text`), a string as a UTF-8 JSON
  string (:func:`string_text`), a date or instant as its ISO 8601 text (:func:`iso_text`:
  ``T``, UTC as ``Z``, no trailing zeros in the fraction);
* a record key or object key that is not a string as ``json.dumps`` names it
  (:func:`key_text`: ``1`` -> ``"1"``, ``None`` -> ``"null"``); a counted text back to its
  value (:func:`text_value`);
* an object or array as canonical JSON (:func:`canonical_json`: sorted keys, compact
  separators, UTF-8), awkward values written so that every value has a text: NaN,
  infinities, ``pd.NA`` and ``NaT`` become ``null``; a numpy ``datetime64`` becomes its
  ISO text (also beyond year 9999); a value nested deeper than Python's recursion limit is
  written by an iterative encoder that gives the same text.

A value longer than :data:`MAX_TRACKED_VALUE_CHARS` (a string's characters, any other
value's JSON text) is counted everywhere but never tracked as a top value
(:func:`is_tracked`). numpy is imported only for a numpy value.
"""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import json
import math
import uuid
from typing import TYPE_CHECKING, Any

from faucet_core.profile.isotext import UNIT_PER_SECOND, epoch_text

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "MAX_TRACKED_VALUE_CHARS",
    "boolean_text",
    "canonical_json",
    "datetime64_value",
    "integer_text",
    "is_missing",
    "is_tracked",
    "iso_text",
    "json_default",
    "key_text",
    "number_text",
    "string_text",
    "text_value",
]

MAX_TRACKED_VALUE_CHARS = 256
"""Values longer than this (a string's characters, any other value's JSON text) are counted
everywhere but never tracked as top values."""


def boolean_text(value: Any) -> str:
    """``true`` or ``false``."""
    return "true" if value else "false"


def integer_text(value: int) -> str:
    """An integer's digits."""
    return str(value)


def number_text(value: float) -> str:
    """A float as ``json.dumps`` writes it."""
    return json.dumps(float(value))


def string_text(value: str) -> str:
    """A string as a JSON string, UTF-8 (not ``\\u`` escapes)."""
    return json.dumps(value, ensure_ascii=False)


def key_text(key: bool | int | float | None) -> str:
    """A record or object key that is not a string, as a JSON writer names it."""
    return json.dumps(key)


def iso_text(value: Any) -> str:
    """ISO 8601 text as the in-memory profiler writes temporals: 'T', UTC as 'Z', no
    trailing zeros in the fraction of a second (an Arrow column's are rendered in the same
    layout, vectorised, by ``arrow_path``; beyond Python's years by ``isotext``)."""
    suffix = ""
    if isinstance(value, dt.datetime) and value.tzinfo is not None:
        value = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
        suffix = "Z"
    text = str(value.isoformat())
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text + suffix


def text_value(key: str) -> Any:
    """The value whose JSON text is ``key`` (a top value as a profile shows it)."""
    return json.loads(key)


def is_tracked(key: str) -> bool:
    """Whether the value whose JSON text is ``key`` is short enough to be a top value."""
    return len(key) <= MAX_TRACKED_VALUE_CHARS or _short_string(key)


def _short_string(key: str) -> bool:
    """Whether ``key``, a JSON text longer than the limit, is a string whose value is not
    (the limit counts a string's characters, not its quotes and escapes)."""
    if key[0] != '"' or len(key) > 6 * MAX_TRACKED_VALUE_CHARS + 2:  # \uXXXX is the longest
        return False
    return len(json.loads(key)) <= MAX_TRACKED_VALUE_CHARS


def is_missing(value: Any) -> bool:
    """``pandas.NA`` and ``pandas.NaT`` (without importing pandas)."""
    return type(value).__name__ in _MISSING_TYPES


_MISSING_TYPES = frozenset({"NAType", "NaTType"})


def json_default(value: Any) -> Any:
    """Encode the non-JSON Python values a record may hold; refuse anything else."""
    if is_missing(value):  # before datetime: NaT is a datetime subclass
        return None
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, decimal.Decimal):
        return None if value.is_nan() else float(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    if type(value).__module__ == "numpy":
        return _numpy_value(value)
    raise TypeError(f"a value of type {type(value).__name__} has no JSON form")


def _numpy_value(value: Any) -> Any:
    """A numpy scalar or array as :func:`json_default` encodes it."""
    import numpy as np

    if isinstance(value, np.datetime64):
        return _datetime64(value)
    if isinstance(value, np.timedelta64):
        return None if np.isnat(value) else float(value / np.timedelta64(1, "s"))
    tolist = getattr(value, "tolist", None)  # numpy scalars and arrays
    if callable(tolist):
        return tolist()
    raise TypeError(f"a value of type {type(value).__name__} has no JSON form")


def _datetime64(value: np.datetime64) -> Any:
    """A numpy datetime64 as its ISO text (see :func:`datetime64_value`); NaT is null."""
    import numpy as np

    if np.isnat(value):
        return None
    plain = datetime64_value(value)
    return plain if isinstance(plain, str) else plain.isoformat()


_PY_FIRST_SECOND = -62_135_596_800  # 0001-01-01T00:00:00
_PY_LAST_SECOND = 253_402_300_799  # 9999-12-31T23:59:59
_EPOCH = dt.datetime(1970, 1, 1)
_COARSE_SECONDS = {"h": 3600, "m": 60}


def datetime64_value(value: np.datetime64) -> dt.datetime | dt.date | str:
    """A (not NaT) numpy datetime64 as a Python date (day units and coarser) or datetime
    (microseconds, finer digits dropped); beyond Python's years 1..9999, as the ISO text of
    :func:`epoch_text` ('T' separator, no trailing zeros in the fraction)."""
    import numpy as np

    unit, _ = np.datetime_data(value.dtype)
    if unit in ("Y", "M", "W", "D"):
        day = value.astype("datetime64[D]")
        days = int(day.astype(np.int64))
        if _PY_FIRST_SECOND // 86_400 <= days <= _PY_LAST_SECOND // 86_400:
            return dt.date(1970, 1, 1) + dt.timedelta(days=days)
        return epoch_text(days, "D", date_only=True)
    if unit in _COARSE_SECONDS:
        count, unit = int(value.astype(np.int64)) * _COARSE_SECONDS[unit], "s"
    elif unit in UNIT_PER_SECOND:
        count = int(value.astype(np.int64))
    else:  # ps, fs, as: a few hours around 1970 at most
        count, unit = int(value.astype("datetime64[ns]").astype(np.int64)), "ns"
    per_second = UNIT_PER_SECOND[unit]
    if _PY_FIRST_SECOND * per_second <= count < (_PY_LAST_SECOND + 1) * per_second:
        return _EPOCH + dt.timedelta(microseconds=count * 1_000_000 // per_second)
    text = epoch_text(count, unit).replace(" ", "T")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _default(value: Any) -> Any:
    return _clean(json_default(value))


def canonical_json(value: Any) -> str:
    """Sorted keys, compact separators, UTF-8 text; NaN and infinities become null."""
    try:
        text = json.dumps(
            _clean(value),
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
            allow_nan=False,
            default=_default,
        )
    except RecursionError:
        text = _iterative_json(value)
    return text


def _clean(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {_key(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


def _key(key: Any) -> str:
    if isinstance(key, str):
        return key
    if key is None or isinstance(key, (bool, int, float)):
        return key_text(key)
    raise TypeError(f"an object key of type {type(key).__name__} has no JSON form")


class _Token(str):
    """Literal JSON punctuation on the encoder's stack (never a value to encode)."""


def _plain(value: Any) -> Any:
    """``value`` as a JSON-native Python value (containers left for the caller)."""
    for _ in range(8):  # json_default maps every type it knows in at most two steps
        if value is None or isinstance(value, (str, bool, int, dict, list, tuple)):
            return value
        if isinstance(value, float):
            return value if math.isfinite(value) else None
        value = json_default(value)
    raise TypeError(f"a value of type {type(value).__name__} has no JSON form")


def _iterative_json(value: Any) -> str:
    """The text :func:`canonical_json` gives, without recursion (for very deep values)."""
    out: list[str] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Token):
            out.append(item)
            continue
        item = _plain(item)
        if isinstance(item, dict):
            entries = sorted({_key(k): v for k, v in item.items()}.items())
            stack.append(_Token("}"))
            for index in range(len(entries) - 1, -1, -1):
                key, child = entries[index]
                stack.append(child)
                prefix = ("{" if index == 0 else ",") + json.dumps(key, ensure_ascii=False) + ":"
                stack.append(_Token(prefix))
            if not entries:
                stack.append(_Token("{"))
        elif isinstance(item, (list, tuple)):
            stack.append(_Token("]"))
            for index in range(len(item) - 1, -1, -1):
                stack.append(item[index])
                stack.append(_Token("[" if index == 0 else ","))
            if not item:
                stack.append(_Token("["))
        else:
            out.append(json.dumps(item, ensure_ascii=False, allow_nan=False))
    return "".join(out)
