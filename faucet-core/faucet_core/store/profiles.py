"""``ProfileStore``: rolling profile baselines in SQLite or PostgreSQL."""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import Connection, delete, func, select, update
from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError

from faucet_core.config import ProfilingConfig
from faucet_core.db.engine import DEFAULT_BUSY_TIMEOUT, database_error, make_engine, reader
from faucet_core.db.migrations import current_version, migrate
from faucet_core.db.schema import baseline_keys, profile_memory, profile_runs
from faucet_core.db.transaction import Transaction
from faucet_core.db.url import normalize_url, shown_url
from faucet_core.errors import FaucetError, StoreCorruptError, StoreError
from faucet_core.profile import TableProfile
from faucet_core.store.baseline import load_baseline
from faucet_core.store.codec import decode_profile, encode_profile
from faucet_core.store.counters import read_counters, set_gauges
from faucet_core.store.models import (
    REPAIR_HINT,
    BaselineKey,
    ProfileRun,
    ProfilingOutcome,
    SkippedRun,
    check_key,
)
from faucet_core.store.record import InTransaction, record_run
from faucet_core.store.rows import raw_runs, run_of, skipped, to_raw, where_of

__all__ = ["HistoryRead", "InTransaction", "ProfileStore"]

log = logging.getLogger("faucet.store")


@dataclass(frozen=True)
class HistoryRead:
    """The readable runs of one baseline, oldest first, and the damaged ones left out."""

    runs: list[ProfileRun]
    skipped: list[SkippedRun]


class ProfileStore:
    """The baselines of every key, with their rolling history.

    ``url`` is any SQLAlchemy URL of SQLite or PostgreSQL; ``None`` means
    ``FAUCET_STORE_URL`` or the default SQLite file (see :mod:`faucet_core.db.url`).
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
        return record_run(
            self,
            key,
            profile,
            config,
            partition=partition,
            run_id=run_id,
            recorded_at=recorded_at,
            in_transaction=in_transaction,
        )

    def reset(self, key: str, *, column: str | None = None, partition: str | None = None) -> int:
        """Forget history: of the whole key (every partition), of one partition, or of one
        column. Returns the number of runs deleted (or, for a column, trimmed): exactly the
        rows this call changed. The next run starts learning again.

        The baseline rows are locked first, so a ``record`` running at the same time either
        commits before (and its run is counted here) or after (into a fresh baseline)."""
        where = [baseline_keys.c.key == check_key(key)]
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
            # the detector's memory of these keys goes too (a column's reset included:
            # without memory the detector only clears less)
            conn.execute(delete(profile_memory).where(profile_memory.c.baseline_id.in_(ids)))
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

    def _write(self, action: str, key: BaselineKey) -> Transaction:
        return self._transaction(f"cannot {action} baseline {key} in {self.url}")

    def _transaction(self, prefix: str) -> Transaction:
        """``with store._transaction("cannot ... in URL") as conn``: one write transaction;
        database errors become our errors (busy, damaged, schema missing), prefixed with
        ``prefix``. No advisory lock: a writer locks the rows it changes."""
        return Transaction(self.engine, lambda exc: self._error(exc, prefix))
