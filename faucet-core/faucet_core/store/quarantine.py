"""Finding damaged runs (``faucet doctor``) and moving them aside (``--repair``).

A run is damaged when the store cannot decode it (any column), or when the drift detector
cannot compute with its stored profile. ``quarantine`` moves such runs, and orphan runs
whose baseline no longer exists, into ``faucet_quarantine``: the raw row as JSON (bytes as
base64), the reason and when. Nothing is deleted without a copy.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, delete, insert, inspect, select

from faucet_core.clock import utc_now
from faucet_core.config import ProfilingConfig
from faucet_core.db.schema import baseline_keys, metadata, profile_runs, quarantine
from faucet_core.errors import StoreCorruptError
from faucet_core.store.baseline import load_baseline, probe
from faucet_core.store.models import BaselineKey, SkippedRun
from faucet_core.store.profiles import ProfileStore
from faucet_core.store.rows import raw_runs, run_of, skipped, to_raw, where_of

__all__ = ["KeyHealth", "StoreHealth", "diagnose", "missing_schema", "move_to_quarantine"]


@dataclass(frozen=True)
class KeyHealth:
    """What the detector would read for one baseline, and what it could not."""

    key: BaselineKey
    runs: int
    baseline_runs: int
    """Usable runs in the detection window."""
    damaged: tuple[SkippedRun, ...]


@dataclass(frozen=True)
class StoreHealth:
    keys: tuple[KeyHealth, ...]
    orphans: tuple[SkippedRun, ...] = ()
    schema_problems: tuple[str, ...] = ()
    damaged: tuple[SkippedRun, ...] = field(default=())

    @property
    def healthy(self) -> bool:
        return not (self.damaged or self.orphans or self.schema_problems)


def missing_schema(conn: Connection) -> list[str]:
    """Tables and columns of the current schema that the database lacks."""
    inspector = inspect(conn)
    tables = set(inspector.get_table_names())
    problems = []
    for table in metadata.sorted_tables:
        if table.name not in tables:
            problems.append(f"table {table.name} is missing")
            continue
        have = {c["name"] for c in inspector.get_columns(table.name)}
        problems.extend(
            f"column {table.name}.{c.name} is missing" for c in table.c if c.name not in have
        )
    return problems


def diagnose(store: ProfileStore, configs: Mapping[str, ProfilingConfig]) -> StoreHealth:
    """Read every run of every baseline as ``history`` does, and each baseline window as
    the detector does (decoded, then computed with); name what cannot be read."""
    with store._read("check the store's schema") as conn:
        problems = missing_schema(conn)
    if problems:
        return StoreHealth(keys=(), schema_problems=tuple(problems))
    results: list[KeyHealth] = []
    every: list[SkippedRun] = []
    with store._read("read every baseline") as conn:
        rows = conn.execute(
            select(baseline_keys.c.id, baseline_keys.c.key, baseline_keys.c.partition).order_by(
                baseline_keys.c.key, baseline_keys.c.partition
            )
        ).all()
        for row in rows:
            key = BaselineKey(str(row.key), str(row.partition or ""))
            cfg = configs.get(key.key, ProfilingConfig())
            bad: dict[int, SkippedRun] = {}
            raws = [
                to_raw(r)
                for r in conn.execute(
                    raw_runs()
                    .where(profile_runs.c.baseline_id == row.id)
                    .order_by(profile_runs.c.id)
                ).all()
            ]
            for raw in raws:
                try:
                    run_of(key, raw, conn.dialect)
                except StoreCorruptError as exc:
                    bad[raw.id] = skipped(key, raw, exc)
            window, unreadable = load_baseline(conn, key, int(row.id), cfg.window)
            for item in unreadable:
                bad.setdefault(item.row, item)
            usable = 0
            for run in window:
                problem = probe(run.profile, run, cfg)
                if problem is None:
                    usable += 1
                    continue
                error = StoreCorruptError(
                    f"{where_of(key, run.raw)}: the detector cannot use its stored profile "
                    f"({problem})"
                )
                bad.setdefault(run.raw.id, skipped(key, run.raw, error))
            if not raws:
                continue
            damaged = tuple(sorted(bad.values(), key=lambda s: s.row))
            every.extend(damaged)
            results.append(KeyHealth(key, len(raws), usable, damaged))
        orphan_rows = conn.execute(
            raw_runs("baseline_id", "seq", "run_id").where(
                profile_runs.c.baseline_id.not_in(select(baseline_keys.c.id))
            )
        ).all()
    orphans = tuple(
        SkippedRun(
            key=BaselineKey("(no baseline)", str(r.baseline_id)),
            row=int(r.id),
            seq=r.seq if isinstance(r.seq, int) else None,
            run_id=r.run_id if isinstance(r.run_id, str) else None,
            reason=f"run row {r.id} belongs to baseline id {r.baseline_id}, which no longer "
            "exists (an orphan: never shown, never pruned)",
        )
        for r in orphan_rows
    )
    return StoreHealth(keys=tuple(results), orphans=orphans, damaged=tuple(every))


def _json_value(value: Any) -> Any:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"base64": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def move_to_quarantine(store: ProfileStore, runs: Sequence[SkippedRun]) -> int:
    """Move ``runs`` (by row id) from ``faucet_profile_runs`` to ``faucet_quarantine``, in
    one transaction. Returns how many were moved (a run already gone is not counted)."""
    if not runs:
        return 0
    now = utc_now()
    moved = 0
    with store._transaction(f"cannot quarantine damaged runs in {store.url}") as conn:
        for run in runs:
            row = conn.execute(raw_runs().where(profile_runs.c.id == run.row)).first()
            if row is None:
                continue
            values = {k: _json_value(v) for k, v in to_raw(row).values.items()}
            conn.execute(
                insert(quarantine).values(
                    key=run.key.key,
                    partition=run.key.partition,
                    run_row=run.row,
                    seq=run.seq,
                    run_id=run.run_id,
                    reason=run.reason,
                    quarantined_at=now,
                    row=json.dumps(values, sort_keys=True),
                )
            )
            conn.execute(delete(profile_runs).where(profile_runs.c.id == run.row))
            moved += 1
    return moved
