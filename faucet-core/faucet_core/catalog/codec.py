"""Catalog values <-> stored text (JSON) and times."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from faucet_core.catalog.model import ColumnLineage, SchemaField
from faucet_core.errors import StoreCorruptError

__all__ = [
    "config_digest",
    "decode_lineage",
    "decode_list",
    "decode_schema",
    "dumps",
    "encode_lineage",
    "encode_schema",
    "utc",
]


def utc(value: dt.datetime) -> dt.datetime:
    """Timezone-aware UTC (SQLite hands naive datetimes back)."""
    if value.tzinfo is None:
        return value.replace(tzinfo=dt.timezone.utc)
    return value.astimezone(dt.timezone.utc)


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, default=str)


def _loads(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise StoreCorruptError(f"{where}: stored JSON is unreadable ({exc})") from None


def encode_schema(fields: Sequence[SchemaField]) -> str:
    return dumps([f.to_dict() for f in fields])


def decode_schema(text: str | None, where: str) -> tuple[SchemaField, ...] | None:
    if text is None:
        return None
    try:
        return tuple(SchemaField.from_dict(f) for f in _loads(text, where))
    except (KeyError, TypeError, AttributeError) as exc:
        raise StoreCorruptError(f"{where}: stored schema is unreadable ({exc!r})") from None


def encode_lineage(lineage: ColumnLineage | None) -> str | None:
    return None if lineage is None else dumps(lineage.to_dict())


def decode_lineage(text: str | None, where: str) -> ColumnLineage | None:
    if text is None:
        return None
    try:
        return ColumnLineage.from_dict(_loads(text, where))
    except (KeyError, TypeError, AttributeError, IndexError) as exc:
        raise StoreCorruptError(f"{where}: stored column lineage is unreadable ({exc!r})") from None


def decode_list(text: str | None, where: str) -> tuple[str, ...]:
    if not text:
        return ()
    value = _loads(text, where)
    if not isinstance(value, list):
        raise StoreCorruptError(f"{where}: expected a JSON list, found {type(value).__name__}")
    return tuple(str(v) for v in value)


def config_digest(config: Mapping[str, Any]) -> str:
    return hashlib.sha256(dumps(config).encode("utf-8")).hexdigest()
