"""The record workflow of :meth:`ProfileStore.record`, in one write transaction: lock the
baseline row, load its window, detect drift, insert the run, prune the window, count.

On PostgreSQL a writer locks its baseline row (``SELECT ... FOR UPDATE``), so writers of
different keys never wait for each other; on SQLite the transaction's ``BEGIN IMMEDIATE``
holds the write lock (see :mod:`faucet_core.db.transaction`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, and_, delete, select, update
from sqlalchemy.dialects import postgresql, sqlite

from faucet_core.clock import utc_now
from faucet_core.config import OnDrift, ProfilingConfig
from faucet_core.db.schema import baseline_keys, profile_runs
from faucet_core.drift import DriftFinding
from faucet_core.errors import FaucetError, StoreError
from faucet_core.profile import TableProfile
from faucet_core.redact import redact
from faucet_core.store.baseline import detect, load_baseline
from faucet_core.store.codec import encode_findings, encode_profile
from faucet_core.store.counters import add_counters, set_gauges
from faucet_core.store.memory import load_memory, remember_leaving
from faucet_core.store.models import (
    REPAIR_HINT,
    BaselineKey,
    ProfilingOutcome,
    RunStatus,
    check_key,
)
from faucet_core.store.rows import raw_runs, run_of, to_raw

if TYPE_CHECKING:
    from faucet_core.store.profiles import ProfileStore

__all__ = ["InTransaction", "record_run", "utc"]

log = logging.getLogger("faucet.store")

InTransaction = Callable[[Connection, ProfilingOutcome], None]
"""A callback ``record`` runs inside its own transaction (in a savepoint), e.g. to write
the catalog's copy of the profile in the same commit."""

_LOCK_ATTEMPTS = 20


def utc(value: dt.datetime) -> dt.datetime:
    return value.replace(tzinfo=dt.timezone.utc) if value.tzinfo is None else value


def record_run(
    store: ProfileStore,
    key: str,
    profile: TableProfile,
    config: ProfilingConfig | None = None,
    *,
    partition: str | None = None,
    run_id: str | None = None,
    recorded_at: dt.datetime | None = None,
    in_transaction: InTransaction | None = None,
) -> ProfilingOutcome:
    """What :meth:`ProfileStore.record` does (see there)."""
    config = config or ProfilingConfig()
    bkey = BaselineKey(check_key(key), partition or "")
    when = utc(recorded_at or utc_now())
    blob = encode_profile(profile)
    with store._write("record", bkey) as conn:
        baseline_id, seq = _lock(conn, bkey, store.url)
        if run_id is not None:
            row = conn.execute(
                raw_runs().where(
                    profile_runs.c.baseline_id == baseline_id, profile_runs.c.run_id == run_id
                )
            ).first()
            if row is not None:
                done = _outcome_of(bkey, to_raw(row), config, conn)
                return _run_callback(conn, done, in_transaction)
        usable, bad = load_baseline(conn, bkey, baseline_id, config.window)
        findings: Sequence[DriftFinding] = ()
        # an empty run after runs with records is a finding even while warming up
        if len(usable) >= config.min_history or (profile.row_count == 0 and usable):
            findings, usable, unusable = detect(
                bkey,
                profile,
                usable,
                config,
                when,
                older=lambda: load_memory(conn, bkey, baseline_id, config.memory),
            )
            bad.extend(unusable)
        if findings:
            status = RunStatus.DRIFTED
        elif len(usable) < config.min_history:
            status = RunStatus.WARMING
        else:
            status = RunStatus.STABLE
        for run in bad:
            log.warning("faucet: %s; it was left out of the baseline (%s)", run.reason, REPAIR_HINT)
        joins = not (status is RunStatus.DRIFTED and config.on_drift is OnDrift.FAIL)
        conn.execute(
            profile_runs.insert().values(
                baseline_id=baseline_id,
                seq=seq,
                run_id=run_id,
                recorded_at=when,
                status=status.value,
                in_baseline=joins,
                baseline_runs=len(usable),
                row_count=profile.row_count,
                profile=blob,
                findings=encode_findings(findings),
            )
        )
        conn.execute(
            update(baseline_keys).where(baseline_keys.c.id == baseline_id).values(next_seq=seq + 1)
        )
        remember_leaving(conn, bkey, baseline_id, config.window, config.memory)
        _prune(conn, baseline_id, config.window)
        _count(conn, bkey, status, findings, profile, config, len(usable), joins)
        outcome = ProfilingOutcome(
            key=bkey,
            status=status,
            findings=tuple(findings),
            baseline_runs=len(usable),
            min_history=config.min_history,
            in_baseline=joins,
            seq=seq,
            run_id=run_id,
            recorded_at=when,
            skipped_runs=tuple(bad),
        )
        outcome = _run_callback(conn, outcome, in_transaction)
    return outcome


def _lock(conn: Connection, key: BaselineKey, url: str) -> tuple[int, int]:
    """Lock the baseline row of ``key`` (creating it), even while a ``reset`` deletes it:
    a row deleted under us is looked up (or created) again."""
    dialect = conn.dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    query = select(baseline_keys.c.id, baseline_keys.c.next_seq).where(
        baseline_keys.c.key == key.key, baseline_keys.c.partition == key.partition
    )
    if dialect == "postgresql":
        query = query.with_for_update()
    for _ in range(_LOCK_ATTEMPTS):
        row = conn.execute(query).first()
        if row is not None:
            return int(row.id), int(row.next_seq)
        created = conn.execute(
            insert(baseline_keys)
            .values(key=key.key, partition=key.partition, next_seq=1)
            .on_conflict_do_nothing()
            .returning(baseline_keys.c.id, baseline_keys.c.next_seq)
        ).first()
        if created is not None:
            return int(created.id), int(created.next_seq)
    raise StoreError(
        f"cannot lock baseline {key} in {url}: it was reset {_LOCK_ATTEMPTS} times "
        "while this run waited; record it again"
    )


def _prune(conn: Connection, baseline_id: int, window: int) -> None:
    """Keep the newest ``window`` runs in the baseline and as many left out of it."""
    mine = profile_runs.c.baseline_id == baseline_id
    for in_baseline in (True, False):
        cutoff = conn.execute(
            select(profile_runs.c.seq)
            .where(mine, profile_runs.c.in_baseline.is_(in_baseline))
            .order_by(profile_runs.c.seq.desc())
            .offset(window)
            .limit(1)
        ).scalar()
        if cutoff is not None:
            conn.execute(
                delete(profile_runs).where(
                    and_(
                        mine,
                        profile_runs.c.in_baseline.is_(in_baseline),
                        profile_runs.c.seq <= cutoff,
                    )
                )
            )


def _count(
    conn: Connection,
    key: BaselineKey,
    status: RunStatus,
    findings: Sequence[DriftFinding],
    profile: TableProfile,
    config: ProfilingConfig,
    usable: int,
    joins: bool,
) -> None:
    """The run's counters (outcome, findings) and its baseline's gauges."""
    labels = {"asset": key.key, "row": key.partition}
    add_counters(
        conn,
        [("faucet_profile_runs_total", {**labels, "outcome": status.value}, 1.0)]
        + [
            (
                "faucet_profile_drift_total",
                {**labels, "column": f.column, "metric": f.metric.value},
                1.0,
            )
            for f in findings
        ],
    )
    set_gauges(
        conn,
        [
            ("faucet_profile_columns", labels, float(len(profile.columns))),
            (
                "faucet_profile_baseline_runs",
                labels,
                float(min(config.window, usable + int(joins))),
            ),
        ],
    )


def _outcome_of(
    key: BaselineKey, raw: Any, config: ProfilingConfig, conn: Connection
) -> ProfilingOutcome:
    """The outcome of a run recorded before (the same ``run_id``), marked duplicate."""
    run = run_of(key, raw, conn.dialect, profile=_no_profile)
    return ProfilingOutcome(
        key=key,
        status=run.status,
        findings=run.findings,
        baseline_runs=run.baseline_runs,
        min_history=config.min_history,
        in_baseline=run.in_baseline,
        seq=run.seq,
        run_id=run.run_id,
        recorded_at=run.recorded_at,
        duplicate=True,
    )


def _no_profile(_blob: bytes, _where: str) -> TableProfile:
    return TableProfile(row_count=0, columns={})


def _run_callback(
    conn: Connection, outcome: ProfilingOutcome, callback: InTransaction | None
) -> ProfilingOutcome:
    if callback is None:
        return outcome
    try:
        with conn.begin_nested():
            callback(conn, outcome)
    except Exception as exc:
        text = str(exc) if isinstance(exc, FaucetError) else f"{type(exc).__name__}: {exc}"
        return dataclasses.replace(outcome, in_transaction_error=redact(text))
    return outcome
