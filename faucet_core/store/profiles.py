"""``ProfileStore``: rolling profile baselines in SQLite or PostgreSQL."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from sqlalchemy import Connection, Row, and_, delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError

from faucet_core.config import OnDrift, ProfilingConfig
from faucet_core.drift import DriftFinding, detect_drift
from faucet_core.errors import FaucetError, StoreError
from faucet_core.profile import TableProfile
from faucet_core.store.codec import (
    decode_findings,
    decode_profile,
    encode_findings,
    encode_profile,
)
from faucet_core.store.counters import add_counters, read_counters, set_gauges
from faucet_core.store.engine import make_engine
from faucet_core.store.migrations import current_version, migrate
from faucet_core.store.models import BaselineKey, ProfileRun, ProfilingOutcome, RunStatus
from faucet_core.store.schema import baseline_keys, profile_runs
from faucet_core.store.url import normalize_url

__all__ = ["ProfileStore"]


def _utc(value: dt.datetime) -> dt.datetime:
    return value.replace(tzinfo=dt.timezone.utc) if value.tzinfo is None else value


class ProfileStore:
    """The baselines of every key, with their rolling history.

    ``url`` is any SQLAlchemy URL of SQLite or PostgreSQL; ``None`` means
    ``FAUCET_STORE_URL`` or the default SQLite file (see :mod:`faucet_core.store.url`).
    Every write is one transaction: a failure leaves the store as it was.
    """

    def __init__(self, url: str | URL | None = None) -> None:
        self._url = normalize_url(url)
        self.engine = make_engine(self._url)
        try:
            self.schema_version = migrate(self.engine)
        except SQLAlchemyError as exc:
            self.engine.dispose()
            raise StoreError(f"cannot open the store at {self.url}: {_reason(exc)}") from None
        except FaucetError:
            self.engine.dispose()
            raise

    @property
    def url(self) -> str:
        """The store URL with any password hidden."""
        return self._url.render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> ProfileStore:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ProfileStore({self.url!r})"

    # -- writing --------------------------------------------------------------------------
    def record(
        self,
        key: str,
        profile: TableProfile,
        config: ProfilingConfig | None = None,
        *,
        partition: str | None = None,
        run_id: str | None = None,
        recorded_at: dt.datetime | None = None,
    ) -> ProfilingOutcome:
        """Compare ``profile`` with the baseline of ``key`` and record it.

        With fewer than ``min_history`` baseline runs the run is ``warming``;
        otherwise ``stable`` or ``drifted``. The run joins the baseline unless it
        drifted under ``on_drift: fail``. Recording the same ``run_id`` twice
        returns the first outcome and adds nothing.
        """
        config = config or ProfilingConfig()
        bkey = BaselineKey(_check_key(key), partition or "")
        when = _utc(recorded_at or dt.datetime.now(dt.timezone.utc))
        blob = encode_profile(profile)
        with self._write("record", bkey) as conn:
            baseline_id, seq = self._lock(conn, bkey)
            if run_id is not None:
                row = conn.execute(
                    select(profile_runs).where(
                        profile_runs.c.baseline_id == baseline_id, profile_runs.c.run_id == run_id
                    )
                ).first()
                if row is not None:
                    return self._outcome_of(bkey, row, config)
            baseline = self._baseline(conn, bkey, baseline_id, config.window)
            findings: tuple[DriftFinding, ...] = ()
            if len(baseline) < config.min_history:
                status = RunStatus.WARMING
            else:
                findings = tuple(detect_drift(profile, baseline, config))
                status = RunStatus.DRIFTED if findings else RunStatus.STABLE
            joins = not (status is RunStatus.DRIFTED and config.on_drift is OnDrift.FAIL)
            conn.execute(
                profile_runs.insert().values(
                    baseline_id=baseline_id,
                    seq=seq,
                    run_id=run_id,
                    recorded_at=when,
                    status=status.value,
                    in_baseline=joins,
                    baseline_runs=len(baseline),
                    row_count=profile.row_count,
                    profile=blob,
                    findings=encode_findings(findings),
                )
            )
            conn.execute(
                update(baseline_keys)
                .where(baseline_keys.c.id == baseline_id)
                .values(next_seq=seq + 1)
            )
            self._prune(conn, baseline_id, config.window)
            labels = {"asset": bkey.key, "row": bkey.partition}
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
                        float(min(config.window, len(baseline) + int(joins))),
                    ),
                ],
            )
        return ProfilingOutcome(
            key=bkey,
            status=status,
            findings=findings,
            baseline_runs=len(baseline),
            min_history=config.min_history,
            in_baseline=joins,
            seq=seq,
            run_id=run_id,
            recorded_at=when,
        )

    def reset(self, key: str, *, column: str | None = None, partition: str | None = None) -> int:
        """Forget history: of the whole key (every partition), of one partition, or of one
        column. Returns the number of runs affected. The next run starts learning again."""
        where = [baseline_keys.c.key == _check_key(key)]
        if partition is not None:
            where.append(baseline_keys.c.partition == partition)
        what = BaselineKey(key, partition or "")
        with self._write("reset", what) as conn:
            ids = [r.id for r in conn.execute(select(baseline_keys.c.id).where(*where))]
            if not ids:
                return 0
            runs = profile_runs.c.baseline_id.in_(ids)
            if column is None:
                emptied = conn.execute(
                    select(baseline_keys.c.key, baseline_keys.c.partition).where(*where)
                ).all()
                count = conn.execute(delete(profile_runs).where(runs)).rowcount
                conn.execute(delete(baseline_keys).where(baseline_keys.c.id.in_(ids)))
                set_gauges(
                    conn,
                    [
                        ("faucet_profile_baseline_runs", {"asset": r.key, "row": r.partition}, 0.0)
                        for r in emptied
                    ],
                )
                return int(count)
            count = 0
            rows = conn.execute(
                select(profile_runs.c.id, profile_runs.c.seq, profile_runs.c.profile).where(runs)
            ).all()
            for row in rows:
                prof = decode_profile(row.profile, f"baseline {what} run {row.seq}")
                if column not in prof.columns:
                    continue
                kept = {n: c for n, c in prof.columns.items() if n != column}
                trimmed = dataclasses.replace(prof, columns=kept)
                conn.execute(
                    update(profile_runs)
                    .where(profile_runs.c.id == row.id)
                    .values(profile=encode_profile(trimmed))
                )
                count += 1
            return count

    # -- reading --------------------------------------------------------------------------
    def keys(self) -> list[BaselineKey]:
        """Every baseline that holds at least one run, sorted."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(baseline_keys.c.key, baseline_keys.c.partition)
                .where(
                    select(profile_runs.c.id)
                    .where(profile_runs.c.baseline_id == baseline_keys.c.id)
                    .exists()
                )
                .order_by(baseline_keys.c.key, baseline_keys.c.partition)
            )
            return [BaselineKey(r.key, r.partition) for r in rows]

    def history(
        self, key: str, *, partition: str | None = None, limit: int | None = None
    ) -> list[ProfileRun]:
        """Stored runs of one baseline, oldest first (the newest ``limit`` if given)."""
        bkey = BaselineKey(key, partition or "")
        with self.engine.connect() as conn:
            query = (
                select(profile_runs)
                .join(baseline_keys, baseline_keys.c.id == profile_runs.c.baseline_id)
                .where(baseline_keys.c.key == key, baseline_keys.c.partition == bkey.partition)
                .order_by(profile_runs.c.seq.desc())
            )
            if limit is not None:
                query = query.limit(limit)
            rows = conn.execute(query).all()
        return [self._run_of(bkey, row) for row in reversed(rows)]

    def latest(self, key: str, *, partition: str | None = None) -> ProfileRun | None:
        runs = self.history(key, partition=partition, limit=1)
        return runs[0] if runs else None

    def baseline(
        self, key: str, *, partition: str | None = None, window: int | None = None
    ) -> list[TableProfile]:
        """The profiles in the baseline of one key, oldest first."""
        bkey = BaselineKey(key, partition or "")
        with self.engine.connect() as conn:
            row = conn.execute(
                select(baseline_keys.c.id).where(
                    baseline_keys.c.key == key, baseline_keys.c.partition == bkey.partition
                )
            ).first()
            if row is None:
                return []
            return self._baseline(conn, bkey, row.id, window)

    def baseline_depth(self, key: str, *, partition: str | None = None) -> int:
        """How many runs the baseline of one key holds."""
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count())
                    .select_from(profile_runs)
                    .join(baseline_keys, baseline_keys.c.id == profile_runs.c.baseline_id)
                    .where(
                        baseline_keys.c.key == key,
                        baseline_keys.c.partition == (partition or ""),
                        profile_runs.c.in_baseline.is_(True),
                    )
                ).scalar_one()
            )

    def metrics(self) -> list[tuple[str, dict[str, str], float]]:
        """Every stored counter and gauge: (name, labels, value)."""
        with self.engine.connect() as conn:
            return read_counters(conn)

    def check(self) -> int:
        """Round-trip to the database; returns the schema version recorded there."""
        with self.engine.connect() as conn:
            return current_version(conn)

    # -- internals ------------------------------------------------------------------------
    def _write(self, action: str, key: BaselineKey) -> Any:
        return _Transaction(self, action, key)

    def _lock(self, conn: Connection, key: BaselineKey) -> tuple[int, int]:
        values = {"key": key.key, "partition": key.partition, "next_seq": 1}
        dialect = conn.dialect.name
        if dialect == "postgresql":
            conn.execute(postgresql.insert(baseline_keys).values(**values).on_conflict_do_nothing())
        else:
            conn.execute(sqlite.insert(baseline_keys).values(**values).on_conflict_do_nothing())
        query = select(baseline_keys.c.id, baseline_keys.c.next_seq).where(
            baseline_keys.c.key == key.key, baseline_keys.c.partition == key.partition
        )
        if dialect == "postgresql":
            query = query.with_for_update()
        row = conn.execute(query).one()
        return int(row.id), int(row.next_seq)

    def _baseline(
        self, conn: Connection, key: BaselineKey, baseline_id: int, window: int | None
    ) -> list[TableProfile]:
        query = (
            select(profile_runs.c.seq, profile_runs.c.profile)
            .where(profile_runs.c.baseline_id == baseline_id, profile_runs.c.in_baseline.is_(True))
            .order_by(profile_runs.c.seq.desc())
        )
        if window is not None:
            query = query.limit(window)
        rows = conn.execute(query).all()
        return [
            decode_profile(r.profile, f"baseline {key} run {r.seq}", check_sketches=False)
            for r in reversed(rows)
        ]

    def _prune(self, conn: Connection, baseline_id: int, window: int) -> None:
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

    def _run_of(self, key: BaselineKey, row: Row[Any]) -> ProfileRun:
        where = f"baseline {key} run {row.seq}"
        return ProfileRun(
            key=key,
            seq=int(row.seq),
            run_id=row.run_id,
            recorded_at=_utc(row.recorded_at),
            status=_status(row.status, where),
            in_baseline=bool(row.in_baseline),
            baseline_runs=int(row.baseline_runs),
            row_count=int(row.row_count),
            profile=decode_profile(row.profile, where),
            findings=decode_findings(row.findings, where),
        )

    def _outcome_of(
        self, key: BaselineKey, row: Row[Any], config: ProfilingConfig
    ) -> ProfilingOutcome:
        where = f"baseline {key} run {row.seq}"
        return ProfilingOutcome(
            key=key,
            status=_status(row.status, where),
            findings=decode_findings(row.findings, where),
            baseline_runs=int(row.baseline_runs),
            min_history=config.min_history,
            in_baseline=bool(row.in_baseline),
            seq=int(row.seq),
            run_id=row.run_id,
            recorded_at=_utc(row.recorded_at),
            duplicate=True,
        )


def _status(value: str, where: str) -> RunStatus:
    from faucet_core.errors import StoreCorruptError

    try:
        return RunStatus(value)
    except ValueError:
        raise StoreCorruptError(f"{where}: unknown status {value!r}") from None


def _check_key(key: str) -> str:
    if not isinstance(key, str) or not key.strip():
        raise StoreError(f"baseline key {key!r} is invalid: it must be a non-empty string")
    if len(key) > 512:
        raise StoreError(f"baseline key {key[:40]!r}... is {len(key)} characters; the limit is 512")
    return key


def _reason(exc: SQLAlchemyError) -> str:
    orig = getattr(exc, "orig", None)
    return str(orig or exc).strip().splitlines()[0]


class _Transaction:
    """``with store._write(...) as conn``: one transaction; database errors become StoreError."""

    def __init__(self, store: ProfileStore, action: str, key: BaselineKey) -> None:
        self._store, self._action, self._key = store, action, key
        self._cm: Any = None

    def __enter__(self) -> Connection:
        try:
            self._cm = self._store.engine.begin()
            conn: Connection = self._cm.__enter__()
            return conn
        except SQLAlchemyError as exc:
            raise StoreError(
                f"cannot {self._action} baseline {self._key} in {self._store.url}: {_reason(exc)}"
            ) from None

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        try:
            self._cm.__exit__(exc_type, exc, tb)
        except SQLAlchemyError as err:
            raise StoreError(
                f"cannot {self._action} baseline {self._key} in {self._store.url}: {_reason(err)}"
            ) from None
        if isinstance(exc, SQLAlchemyError):
            raise StoreError(
                f"cannot {self._action} baseline {self._key} in {self._store.url}: {_reason(exc)}"
            ) from None
