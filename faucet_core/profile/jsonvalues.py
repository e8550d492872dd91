"""Canonical JSON text for values, as a JSON writer would emit them."""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import json
import math
import uuid
from typing import Any

__all__ = ["canonical_json", "json_default"]


def json_default(value: Any) -> Any:
    """Encode the non-JSON Python values a record may hold; refuse anything else."""
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    tolist = getattr(value, "tolist", None)  # numpy scalars and arrays
    if callable(tolist) and type(value).__module__ == "numpy":
        return tolist()
    raise TypeError(f"a value of type {type(value).__name__} has no JSON form")


def canonical_json(value: Any) -> str:
    """Sorted keys, compact separators, UTF-8 text; NaN and infinities become null."""
    return json.dumps(
        _clean(value),
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        allow_nan=False,
        default=json_default,
    )


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
        return json.dumps(key)
    raise TypeError(f"an object key of type {type(key).__name__} has no JSON form")
