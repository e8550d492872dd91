"""``ProfileStore``: rolling profile baselines in SQLite or PostgreSQL."""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError

from faucet_core.config import OnDrift, ProfilingConfig
from faucet_core.drift import DriftFinding
from faucet_core.errors import FaucetError, StoreCorruptError, StoreError
from faucet_core.profile import TableProfile
from faucet_core.redact import redact
from faucet_core.store.baseline import detect, load_baseline
from faucet_core.store.codec import decode_profile, encode_findings, encode_profile
from faucet_core.store.counters import add_counters, read_counters, set_gauges
from faucet_core.store.engine import DEFAULT_BUSY_TIMEOUT, database_error, make_engine, reader
from faucet_core.store.migrations import current_version, migrate
from faucet_core.store.models import (
    BaselineKey,
    ProfileRun,
    ProfilingOutcome,
    RunStatus,
    SkippedRun,
)
from faucet_core.store.rows import raw_runs, run_of, skipped, to_raw, where_of
from faucet_core.store.schema import baseline_keys, profile_runs
from faucet_core.store.url import normalize_url, shown_url

__all__ = ["HistoryRead", "InTransaction", "ProfileStore"]

log = logging.getLogger("faucet.store")

InTransaction = Callable[[Connection, ProfilingOutcome], None]
"""A callback ``record`` runs inside its own transaction (in a savepoint), e.g. to write
the catalog's copy of the profile in the same commit."""

_LOCK_ATTEMPTS = 20
REPAIR_HINT = "run `faucet doctor --repair` to move damaged runs to the quarantine table"


def _utc(value: dt.datetime) -> dt.datetime:
    return value.replace(tzinfo=dt.timezone.utc) if value.tzinfo is None else value


@dataclass(frozen=True)
class HistoryRead:
    """The readable runs of one baseline, oldest first, and the damaged ones left out."""

    runs: list[ProfileRun]
    skipped: list[SkippedRun]


class ProfileStore:
    """The baselines of every key, with their rolling history.

    ``url`` is any SQLAlchemy URL of SQLite or PostgreSQL; ``None`` means
    ``FAUCET_STORE_URL`` or the default SQLite file (see :mod:`faucet_core.store.url`).
    Every write is one transaction: a failure leaves the store as it was. On SQLite, a
    writer waits up to ``busy_timeout`` seconds for another writer; readers never wait.
    """

    def __init__(
        self, url: str | URL | None = None, *, busy_timeout: float = DEFAULT_BUSY_TIMEOUT
    ) -> None:
        self._url = normalize_url(url)
        self.busy_timeout = busy_timeout
        self.engine = make_engine(self._url, busy_timeout=busy_timeout)
        self._reader = reader(self.engine)
        try:
            self.schema_version = migrate(self.engine)
        except SQLAlchemyError as exc:
            self.engine.dispose()
            raise self._error(exc, f"cannot open the store at {self.url}") from None
        except FaucetError:
            self.engine.dispose()
            raise

    @property
    def url(self) -> str:
        """The store URL with any password hidden."""
        return shown_url(self._url)

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
        in_transaction: InTransaction | None = None,
    ) -> ProfilingOutcome:
        """Compare ``profile`` with the baseline of ``key`` and record it.

        With fewer than ``min_history`` baseline runs the run is ``warming`` (unless it
        wrote no records after runs that wrote some: ``drifted`` on ``row_count``);
        otherwise ``stable`` or ``drifted``. The run joins the baseline unless it
        drifted under ``on_drift: fail``. Recording the same ``run_id`` twice
        returns the first outcome and adds nothing. Damaged baseline runs are left out
        and listed in ``skipped_runs``.

        ``in_transaction(conn, outcome)`` runs before the commit, inside a savepoint:
        what it writes commits with the run, or not at all. If it raises, its writes are
        rolled back, the run is still recorded, and the outcome's
        ``in_transaction_error`` says why.
        """
        config = config or ProfilingConfig()
        bkey = BaselineKey(_check_key(key), partition or "")
        when = _utc(recorded_at or dt.datetime.now(dt.timezone.utc))
        blob = encode_profile(profile)
        with self._write("record", bkey) as conn:
            baseline_id, seq = self._lock(conn, bkey)
            if run_id is not None:
                row = conn.execute(
                    raw_runs().where(
                        profile_runs.c.baseline_id == baseline_id, profile_runs.c.run_id == run_id
                    )
                ).first()
                if row is not None:
                    done = self._outcome_of(bkey, to_raw(row), config, conn)
                    return _run_callback(conn, done, in_transaction)
            usable, bad = load_baseline(conn, bkey, baseline_id, config.window)
            findings: Sequence[DriftFinding] = ()
            # an empty run after runs with records is a finding even while warming up
            if len(usable) >= config.min_history or (profile.row_count == 0 and usable):
                findings, usable, unusable = detect(bkey, profile, usable, config, when)
                bad.extend(unusable)
            if findings:
                status = RunStatus.DRIFTED
            elif len(usable) < config.min_history:
                status = RunStatus.WARMING
            else:
                status = RunStatus.STABLE
            for run in bad:
                log.warning(
                    "faucet: %s; it was left out of the baseline (%s)", run.reason, REPAIR_HINT
                )
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
                        float(min(config.window, len(usable) + int(joins))),
                    ),
                ],
            )
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

    def reset(self, key: str, *, column: str | None = None, partition: str | None = None) -> int:
        """Forget history: of the whole key (every partition), of one partition, or of one
        column. Returns the number of runs deleted (or, for a column, trimmed): exactly the
        rows this call changed. The next run starts learning again.

        The baseline rows are locked first, so a ``record`` running at the same time either
        commits before (and its run is counted here) or after (into a fresh baseline)."""
        where = [baseline_keys.c.key == _check_key(key)]
        if partition is not None:
            where.append(baseline_keys.c.partition == partition)
        what = BaselineKey(key, partition or "")
        with self._write("reset", what) as conn:
            locked = conn.execute(
                select(baseline_keys.c.id, baseline_keys.c.key, baseline_keys.c.partition)
                .where(*where)
                .order_by(baseline_keys.c.id)
                .with_for_update()
            ).all()
            ids = [r.id for r in locked]
            if not ids:
                return 0
            runs = profile_runs.c.baseline_id.in_(ids)
            if column is None:
                count = conn.execute(delete(profile_runs).where(runs)).rowcount
                conn.execute(delete(baseline_keys).where(baseline_keys.c.id.in_(ids)))
                set_gauges(
                    conn,
                    [
                        ("faucet_profile_baseline_runs", {"asset": r.key, "row": r.partition}, 0.0)
                        for r in locked
                    ],
                )
                return int(count)
            names = {r.id: BaselineKey(r.key, r.partition) for r in locked}
            count = 0
            rows = conn.execute(raw_runs("baseline_id", "seq", "profile").where(runs)).all()
            for row in rows:
                raw = to_raw(row)
                where_run = where_of(names[row.baseline_id], raw)
                try:
                    prof = decode_profile(bytes(raw.values["profile"]), where_run)
                except (StoreCorruptError, TypeError, ValueError) as exc:
                    raise StoreCorruptError(
                        f"{str(exc) if isinstance(exc, StoreCorruptError) else where_run}; "
                        f"nothing was reset: {REPAIR_HINT}, then reset again"
                    ) from None
                if column not in prof.columns:
                    continue
                kept = {n: c for n, c in prof.columns.items() if n != column}
                trimmed = dataclasses.replace(prof, columns=kept)
                conn.execute(
                    update(profile_runs)
                    .where(profile_runs.c.id == raw.id)
                    .values(profile=encode_profile(trimmed))
                )
                count += 1
            return count

    # -- reading --------------------------------------------------------------------------
    def keys(self) -> list[BaselineKey]:
        """Every baseline that holds at least one run, sorted."""
        with self._read("list the baselines") as conn:
            rows = conn.execute(
                select(baseline_keys.c.key, baseline_keys.c.partition)
                .where(
                    select(profile_runs.c.id)
                    .where(profile_runs.c.baseline_id == baseline_keys.c.id)
                    .exists()
                )
                .order_by(baseline_keys.c.key, baseline_keys.c.partition)
            ).all()
        return [BaselineKey(str(r.key), str(r.partition or "")) for r in rows]

    def read_history(
        self, key: str, *, partition: str | None = None, limit: int | None = None
    ) -> HistoryRead:
        """Stored runs of one baseline, oldest first (the newest ``limit`` if given), and
        the damaged runs among them, left out and named."""
        bkey = BaselineKey(key, partition or "")
        with self._read(f"read the history of baseline {bkey}") as conn:
            query = (
                raw_runs()
                .join(baseline_keys, baseline_keys.c.id == profile_runs.c.baseline_id)
                .where(baseline_keys.c.key == key, baseline_keys.c.partition == bkey.partition)
                .order_by(profile_runs.c.seq.desc())
            )
            if limit is not None:
                query = query.limit(limit)
            rows = [to_raw(r) for r in conn.execute(query).all()]
            dialect = conn.dialect
        runs: list[ProfileRun] = []
        bad: list[SkippedRun] = []
        for raw in reversed(rows):
            try:
                runs.append(run_of(bkey, raw, dialect))
            except StoreCorruptError as exc:
                bad.append(skipped(bkey, raw, exc))
        return HistoryRead(runs, bad)

    def history(
        self,
        key: str,
        *,
        partition: str | None = None,
        limit: int | None = None,
        strict: bool = False,
    ) -> list[ProfileRun]:
        """Stored runs of one baseline, oldest first (the newest ``limit`` if given).

        A damaged run is left out with a logged warning, or, with ``strict``, raises
        :class:`StoreCorruptError` naming it. :meth:`read_history` returns both."""
        read = self.read_history(key, partition=partition, limit=limit)
        for bad in read.skipped:
            if strict:
                raise StoreCorruptError(f"{bad.reason}; {REPAIR_HINT}")
            log.warning("faucet: %s; it was left out (%s)", bad.reason, REPAIR_HINT)
        return read.runs

    def latest(self, key: str, *, partition: str | None = None) -> ProfileRun | None:
        runs = self.history(key, partition=partition, limit=1)
        return runs[0] if runs else None

    def read_baseline(
        self, key: str, *, partition: str | None = None, window: int | None = None
    ) -> tuple[list[TableProfile], list[SkippedRun]]:
        """The profiles in the baseline of one key, oldest first, as the detector reads
        them, and the damaged runs left out."""
        bkey = BaselineKey(key, partition or "")
        with self._read(f"read baseline {bkey}") as conn:
            row = conn.execute(
                select(baseline_keys.c.id).where(
                    baseline_keys.c.key == key, baseline_keys.c.partition == bkey.partition
                )
            ).first()
            if row is None:
                return [], []
            runs, bad = load_baseline(conn, bkey, int(row.id), window)
        return [r.profile for r in runs], bad

    def baseline(
        self,
        key: str,
        *,
        partition: str | None = None,
        window: int | None = None,
        strict: bool = False,
    ) -> list[TableProfile]:
        """The profiles in the baseline of one key, oldest first (damaged runs: as in
        :meth:`history`)."""
        profiles, bad = self.read_baseline(key, partition=partition, window=window)
        for run in bad:
            if strict:
                raise StoreCorruptError(f"{run.reason}; {REPAIR_HINT}")
            log.warning("faucet: %s; it was left out (%s)", run.reason, REPAIR_HINT)
        return profiles

    def baseline_depth(self, key: str, *, partition: str | None = None) -> int:
        """How many runs the baseline of one key holds."""
        with self._read(f"count the baseline runs of {key}") as conn:
            value = conn.execute(
                select(func.count())
                .select_from(profile_runs)
                .join(baseline_keys, baseline_keys.c.id == profile_runs.c.baseline_id)
                .where(
                    baseline_keys.c.key == key,
                    baseline_keys.c.partition == (partition or ""),
                    profile_runs.c.in_baseline.is_(True),
                )
            ).scalar_one()
        return int(value)

    def metrics(self) -> list[tuple[str, dict[str, str], float]]:
        """Every stored counter and gauge: (name, labels, value)."""
        with self._read("read the metrics") as conn:
            return read_counters(conn)

    def check(self) -> int:
        """Round-trip to the database; returns the schema version recorded there."""
        with self._read("read the schema version") as conn:
            return current_version(conn)

    # -- internals ------------------------------------------------------------------------
    def _error(self, exc: BaseException, prefix: str) -> StoreError:
        return database_error(exc, prefix, timeout=self.busy_timeout)

    @contextmanager
    def _read(self, doing: str) -> Iterator[Connection]:
        """A read-only connection (a deferred transaction on SQLite); database errors
        become our errors naming the store."""
        try:
            with self._reader.connect() as conn:
                yield conn
        except SQLAlchemyError as exc:
            raise self._error(exc, f"cannot {doing} in {self.url}") from None

    def _write(self, action: str, key: BaselineKey) -> Any:
        return self._transaction(f"cannot {action} baseline {key} in {self.url}")

    def _transaction(self, prefix: str) -> Any:
        """``with store._transaction("cannot ... in URL") as conn``: one write transaction."""
        return _Transaction(self, prefix)

    def _lock(self, conn: Connection, key: BaselineKey) -> tuple[int, int]:
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
            f"cannot lock baseline {key} in {self.url}: it was reset {_LOCK_ATTEMPTS} times "
            "while this run waited; record it again"
        )

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

    def _outcome_of(
        self, key: BaselineKey, raw: Any, config: ProfilingConfig, conn: Connection
    ) -> ProfilingOutcome:
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


def _check_key(key: str) -> str:
    if not isinstance(key, str) or not key.strip():
        raise StoreError(f"baseline key {key!r} is invalid: it must be a non-empty string")
    if len(key) > 512:
        raise StoreError(f"baseline key {key[:40]!r}... is {len(key)} characters; the limit is 512")
    return key


class _Transaction:
    """``with store._write(...) as conn``: one transaction; database errors become our
    errors (busy, damaged, schema missing), prefixed with what failed and where."""

    def __init__(self, store: ProfileStore, prefix: str) -> None:
        self._store, self._prefix = store, prefix
        self._cm: Any = None

    def __enter__(self) -> Connection:
        try:
            self._cm = self._store.engine.begin()
            conn: Connection = self._cm.__enter__()
            return conn
        except SQLAlchemyError as exc:
            raise self._store._error(exc, self._prefix) from None

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        try:
            self._cm.__exit__(exc_type, exc, tb)
        except SQLAlchemyError as err:
            raise self._store._error(err, self._prefix) from None
        if isinstance(exc, SQLAlchemyError):
            raise self._store._error(exc, self._prefix) from None
