"""Stored run rows -> values, one column at a time, so a damaged row is named, not fatal.

Runs are read with their columns untyped (the driver's raw values) and converted here:
a ``recorded_at`` that is not a timestamp, a ``row_count`` that is not a number, an
unknown status or an unreadable profile becomes a :class:`StoreCorruptError` that names
the baseline, the run and the column, instead of a driver or ``ValueError`` traceback.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Select, select, type_coerce
from sqlalchemy.engine import Dialect
from sqlalchemy.types import NullType

from faucet_core.db.schema import profile_runs
from faucet_core.errors import StoreCorruptError
from faucet_core.profile import TableProfile
from faucet_core.store.codec import decode_findings, decode_profile
from faucet_core.store.models import BaselineKey, ProfileRun, RunStatus, SkippedRun
from faucet_core.text import clip

__all__ = ["RawRun", "raw_runs", "run_of", "skipped", "where_of"]


@dataclass(frozen=True)
class RawRun:
    """A stored run as the driver returned it (nothing converted yet)."""

    id: int
    values: Mapping[str, Any]

    def seq(self) -> int | None:
        value = self.values.get("seq")
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def run_id(self) -> str | None:
        value = self.values.get("run_id")
        return value if isinstance(value, str) else None


def raw_runs(*columns: str) -> Select[Any]:
    """SELECT of ``faucet_profile_runs`` (the given columns, else all) without conversion."""
    chosen = [profile_runs.c[name] for name in columns] if columns else list(profile_runs.c)
    if "id" not in {c.name for c in chosen}:
        chosen.insert(0, profile_runs.c.id)
    labelled: list[Any] = [type_coerce(c, NullType()).label(c.name) for c in chosen]
    return select(*labelled)


def to_raw(row: Any) -> RawRun:
    values = dict(row._mapping)
    return RawRun(int(values["id"]), values)


def where_of(key: BaselineKey, raw: RawRun) -> str:
    """``baseline orders::p1 run 3`` (the row id when the seq itself is damaged)."""
    seq = raw.seq()
    return f"baseline {key} run {seq}" if seq is not None else f"baseline {key} row {raw.id}"


def _typed(column: Column[Any], value: Any, dialect: Dialect, where: str) -> Any:
    if value is None:
        if column.nullable:
            return None
        raise StoreCorruptError(f"{where}: column {column.name} is empty (NULL)")
    process = column.type.dialect_impl(dialect).result_processor(dialect, None)
    try:
        return process(value) if process is not None else value
    except (ValueError, TypeError, OverflowError, AttributeError):
        raise StoreCorruptError(
            f"{where}: column {column.name} holds {_shown(value)}, which is not a valid "
            f"{column.type.python_type.__name__}"
        ) from None


def _shown(value: Any) -> str:
    return clip(repr(value), 60)


def _check(value: Any, kind: type | tuple[type, ...], column: str, where: str) -> Any:
    if isinstance(value, bool) and kind is not bool:
        value = None
    if not isinstance(value, kind):
        raise StoreCorruptError(f"{where}: column {column} holds {_shown(value)}")
    return value


def _number(value: Any, column: str, where: str, *, minimum: int = 0) -> int:
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise StoreCorruptError(
            f"{where}: column {column} holds {_shown(value)}, not a whole number >= {minimum}"
        )
    return int(value)


def _flag(value: Any, column: str, where: str) -> bool:
    if value in (0, 1, True, False):
        return bool(value)
    raise StoreCorruptError(f"{where}: column {column} holds {_shown(value)}, not a boolean")


def status_of(value: Any, where: str) -> RunStatus:
    try:
        return RunStatus(value)
    except ValueError:
        raise StoreCorruptError(f"{where}: unknown status {value!r}") from None


def recorded_at_of(raw: RawRun, dialect: Dialect) -> dt.datetime | None:
    """The run's ``recorded_at`` in UTC, or None when it is missing or damaged (the
    detector then judges without the runs' weekdays)."""
    try:
        value = _typed(profile_runs.c.recorded_at, raw.values.get("recorded_at"), dialect, "")
    except StoreCorruptError:
        return None
    return _utc(value) if isinstance(value, dt.datetime) else None


def _utc(value: dt.datetime) -> dt.datetime:
    return value.replace(tzinfo=dt.timezone.utc) if value.tzinfo is None else value


def run_of(
    key: BaselineKey,
    raw: RawRun,
    dialect: Dialect,
    *,
    profile: Callable[[bytes, str], TableProfile] | None = None,
) -> ProfileRun:
    """A :class:`ProfileRun` from a raw row; raises StoreCorruptError naming the column."""
    where = where_of(key, raw)
    v = {c.name: _typed(c, raw.values.get(c.name), dialect, where) for c in profile_runs.c}
    recorded_at = _check(v["recorded_at"], dt.datetime, "recorded_at", where)
    decode = profile or (lambda blob, at: decode_profile(blob, at))
    return ProfileRun(
        key=key,
        seq=_number(v["seq"], "seq", where, minimum=1),
        run_id=None if v["run_id"] is None else _check(v["run_id"], str, "run_id", where),
        recorded_at=_utc(recorded_at),
        status=status_of(v["status"], where),
        in_baseline=_flag(raw.values.get("in_baseline"), "in_baseline", where),
        baseline_runs=_number(v["baseline_runs"], "baseline_runs", where),
        row_count=_number(v["row_count"], "row_count", where),
        profile=decode(v["profile"], where),
        findings=decode_findings(v["findings"], where),
    )


def skipped(key: BaselineKey, raw: RawRun, error: StoreCorruptError) -> SkippedRun:
    return SkippedRun(key=key, row=raw.id, seq=raw.seq(), run_id=raw.run_id(), reason=str(error))
