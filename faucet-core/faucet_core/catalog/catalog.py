"""``Catalog``: datasets, runs, lineage, owners, consumers, contracts and profiles, in the
faucet store (SQLite or PostgreSQL, the same URL and schema as :class:`ProfileStore`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, func, select
from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError

from faucet_core.catalog.annotate import annotate
from faucet_core.catalog.codec import utc
from faucet_core.catalog.config import CatalogConfig
from faucet_core.catalog.model import (
    Consumer,
    DatasetDetail,
    DatasetEntry,
    DatasetProfileRun,
    DatasetRef,
    DatasetSummary,
    Edge,
    LatestOutcome,
    OwnerSource,
    RunRecord,
)
from faucet_core.catalog.read import (
    consumers_of,
    edges_where,
    entries,
    latest_outcomes,
    profiles_of,
    runs_of,
    schema_history_of,
    snapshots_of,
    summaries,
)
from faucet_core.catalog.resolve import config_target, resolve
from faucet_core.catalog.snapshot import CatalogSnapshot
from faucet_core.catalog.write import PROFILE_HISTORY, RecordSummary, record_batch
from faucet_core.catalog.write_profiles import write_profile
from faucet_core.clock import utc_now
from faucet_core.db.engine import (
    DEFAULT_BUSY_TIMEOUT,
    database_error,
    make_engine,
    reader,
    reason_of,
)
from faucet_core.db.migrations import migrate
from faucet_core.db.schema import (
    catalog_consumers,
    catalog_datasets,
    catalog_edges,
    catalog_profiles,
    catalog_runs,
    catalog_snapshots,
)
from faucet_core.db.transaction import CATALOG_LOCK, Transaction
from faucet_core.db.url import normalize_url
from faucet_core.errors import FaucetError, StoreError

__all__ = ["PROFILE_HISTORY", "AnnotateCallback", "Catalog"]

AnnotateCallback = Callable[[Connection, str], None]
"""A callback :meth:`Catalog.annotate` runs in its own transaction, after the annotation,
with the dataset's id (e.g. to write the audit entry of the change): what it writes
commits with the annotation, and if it raises, nothing is written."""


def _reason(exc: SQLAlchemyError) -> str:
    return reason_of(exc)  # first line, secrets redacted


class Catalog:
    """The data catalog of one store.

    ``url`` is a store URL (``None``: ``FAUCET_STORE_URL`` or the default SQLite file), or
    an open SQLAlchemy ``Engine`` to share (e.g. ``ProfileStore(...).engine``). Every write
    is one transaction: a failure writes nothing.
    """

    def __init__(self, url: str | URL | Engine | None = None) -> None:
        self._owns_engine = not isinstance(url, Engine)
        if isinstance(url, Engine):
            self.engine = url
        else:
            self.engine = make_engine(normalize_url(url))
        try:
            self.schema_version = migrate(self.engine)
        except SQLAlchemyError as exc:
            self.close()
            raise StoreError(f"cannot open the catalog at {self.url}: {_reason(exc)}") from None
        except FaucetError:
            self.close()
            raise

    @property
    def url(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        """A read: deferred on SQLite (never waits behind a writer); a database error is
        our ``StoreError`` naming the catalog (busy, damaged, missing tables)."""
        try:
            with reader(self.engine).connect() as conn:
                yield conn
        except SQLAlchemyError as exc:
            raise database_error(
                exc, f"cannot read the catalog {self.url}", timeout=DEFAULT_BUSY_TIMEOUT
            ) from None

    def close(self) -> None:
        if self._owns_engine:
            self.engine.dispose()

    def __enter__(self) -> Catalog:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Catalog({self.url!r})"

    # -- writing ----------------------------------------------------------------------------
    def record(self, records: Sequence[RunRecord]) -> RecordSummary:
        """Record run events (OpenLineage or Dagster) in one transaction.

        COMPLETE runs write edges (keeping each edge's newest run), schemas and owners;
        START / RUNNING / FAIL / ABORT / OTHER record the run and the datasets it names.
        """
        now = utc_now()
        with self._write("record lineage in") as conn:
            return record_batch(conn, records, now)

    def annotate(
        self,
        ref: str,
        *,
        owners: Sequence[str] | None = None,
        consumers: Sequence[Consumer] = (),
        replace: bool = False,
        remove_owners: Sequence[str] = (),
        clear_owners: bool = False,
        add_owners: Sequence[str] = (),
        remove_consumers: Sequence[str] = (),
        in_transaction: AnnotateCallback | None = None,
    ) -> DatasetDetail:
        """Edit the annotated owners and upsert consumers by name (``replace``: drop the
        consumers not listed first).

        ``owners`` replaces the annotated owners, ``add_owners`` adds some,
        ``remove_owners`` takes some out, ``clear_owners`` drops them all;
        ``remove_consumers`` drops consumers by name (one not declared is refused). Owners
        from code, OpenLineage or the ``catalog:`` block are not touched: a dataset's owners
        are the union of every source's.

        ``in_transaction(conn, dataset_id)`` runs after the annotation, in the same
        transaction: both are written, or neither.
        """
        with self._write("annotate a dataset in") as conn:
            entry_id = resolve(conn, ref, self.url)
            annotate(
                conn,
                entry_id,
                owners,
                consumers,
                replace,
                remove_owners=remove_owners,
                clear_owners=clear_owners,
                add_owners=add_owners,
                remove_consumers=remove_consumers,
            )
            if in_transaction is not None:
                in_transaction(conn, entry_id)
        return self.detail(entry_id)

    def apply_config(self, config: CatalogConfig, touched: Iterable[str] | None = None) -> int:
        """Merge a ``catalog:`` block; only into ``touched`` dataset ids when given (the
        datasets a run read or wrote). Returns the number of datasets annotated."""
        wanted = None if touched is None else set(touched)
        done = 0
        with self._write("merge the catalog block into") as conn:
            for item in config.datasets:
                target = config_target(conn, item.dataset, wanted)
                if target is None:
                    continue
                consumers = [c.to_consumer() for c in item.consumers]
                annotate(
                    conn, target, item.owners, consumers, replace=False, source=OwnerSource.CONFIG
                )
                done += 1
        return done

    def record_profile(
        self,
        dataset: DatasetRef,
        *,
        run_id: str,
        profile: Any,
        status: str,
        findings: Sequence[dict[str, Any]] = (),
        partition: str | None = None,
        recorded_at: dt.datetime | None = None,
    ) -> None:
        """Record one run's profile on ``dataset`` (replacing the same run's, if any) and keep
        the newest :data:`PROFILE_HISTORY`."""
        when = utc(recorded_at or utc_now())
        with self._write("record a profile in") as conn:
            write_profile(
                conn,
                dataset,
                run_id=run_id,
                profile=profile,
                status=status,
                findings=findings,
                partition=partition,
                recorded_at=when,
                keep=PROFILE_HISTORY,
            )

    # -- reading ----------------------------------------------------------------------------
    def resolve(self, ref: str) -> str:
        """The id of the dataset ``ref`` names: a canonical URI, or an id (prefix)."""
        with self._reading() as conn:
            return resolve(conn, ref, self.url)

    def datasets(self) -> list[DatasetEntry]:
        """Every dataset, sorted by URI, with its edge counts and last written run."""
        with self._reading() as conn:
            return entries(conn)

    def dataset_summaries(self) -> list[DatasetSummary]:
        """Every dataset, sorted by URI, with what a list of them shows (its owners and
        last written run), read without its schema, edge counts or owner sources: the
        cheap read for a list of thousands (:meth:`datasets` has the rest)."""
        with self._reading() as conn:
            return summaries(conn)

    def dataset(self, ref: str) -> DatasetEntry:
        with self._reading() as conn:
            return entries(conn, [resolve(conn, ref, self.url)])[0]

    def detail(self, ref: str, *, runs: int = 20, profiles: int | None = 30) -> DatasetDetail:
        """Everything about one dataset: schema, owners, consumers, edges both ways, recent
        runs, contracts and profile history (``profiles``: the newest N, None for all)."""
        with self._reading() as conn:
            key = resolve(conn, ref, self.url)
            return DatasetDetail(
                dataset=entries(conn, [key])[0],
                consumers=consumers_of(conn, key),
                upstream=tuple(edges_where(conn, sinks=[key])),
                downstream=tuple(edges_where(conn, sources=[key])),
                runs=runs_of(conn, key, runs),
                snapshots=snapshots_of(conn, key),
                profiles=profiles_of(conn, key, profiles),
                schema_history=schema_history_of(conn, key),
            )

    def inferred_lineage(self, edge: Edge) -> Any:
        """The column lineage inferred for ``edge`` from its two datasets' stored profiles
        (an :class:`~faucet_core.catalog.inferred.InferredEdge`: every candidate with its
        confidence and evidence). Kept apart from the edge's declared lineage: it is
        computed when asked, never recorded on the edge."""
        from faucet_core.catalog.inferred import infer_edge

        with self._reading() as conn:
            return infer_edge(conn, edge.source_id, edge.sink_id, source_name=edge.source_uri)

    def edges(self, *, sources: Sequence[str] = (), sinks: Sequence[str] = ()) -> list[Edge]:
        """Edges out of the dataset ids ``sources`` and into ``sinks``."""
        with self._reading() as conn:
            return edges_where(conn, sources=sources, sinks=sinks)

    def downstream(self, ref: str, *, depth: int = 5) -> list[tuple[int, Edge]]:
        """Edges reachable downstream of a dataset, breadth first: (hop, edge), hop from 1.
        One query per hop; each dataset is expanded once."""
        with self._reading() as conn:
            start = resolve(conn, ref, self.url)
            seen, frontier = {start}, [start]
            out: list[tuple[int, Edge]] = []
            for hop in range(1, depth + 1):
                if not frontier:
                    break
                edges = edges_where(conn, sources=frontier)
                out.extend((hop, e) for e in edges)
                frontier = sorted({e.sink_id for e in edges} - seen)
                seen.update(frontier)
            return out

    @contextmanager
    def snapshot(self) -> Iterator[CatalogSnapshot]:
        """One connection for a series of reads by id and by frontier (what impact
        planning reads, :class:`~faucet_core.impact.reader.CatalogReader`)."""
        with self.engine.connect() as conn:
            yield CatalogSnapshot(conn)

    def profiles(self, ref: str, *, limit: int | None = None) -> tuple[DatasetProfileRun, ...]:
        with self._reading() as conn:
            return profiles_of(conn, resolve(conn, ref, self.url), limit)

    def last_drift(self) -> dict[str, dt.datetime]:
        """Per dataset id, when its newest drifted profile was recorded (datasets that
        never drifted are absent)."""
        p = catalog_profiles.c
        query = (
            select(p.dataset_id, func.max(p.recorded_at))
            .where(p.status == "drifted")
            .group_by(p.dataset_id)
        )
        with self._reading() as conn:
            return {str(row[0]): utc(row[1]) for row in conn.execute(query)}

    def latest_outcomes(self) -> dict[str, LatestOutcome]:
        """Per dataset id, its newest profile's outcome: run, time, status, findings (the
        datasets with no profile are absent)."""
        with self._reading() as conn:
            return latest_outcomes(conn)

    def overdue_assets(self) -> dict[str, bool]:
        """Per asset key (``a/b``), whether the freshness sensor last found it overdue
        (``faucet_asset_overdue``; assets the sensor never judged are absent)."""
        from faucet_core.store.counters import read_counters
        from faucet_core.store.metrics import ASSET_OVERDUE

        with self._reading() as conn:
            return {
                labels["asset"]: value >= 1.0
                for name, labels, value in read_counters(conn)
                if name == ASSET_OVERDUE and "asset" in labels
            }

    def counts(self) -> dict[str, int]:
        """Row counts of the catalog tables (datasets, edges, runs...)."""
        tables = {
            "datasets": catalog_datasets,
            "edges": catalog_edges,
            "runs": catalog_runs,
            "consumers": catalog_consumers,
            "snapshots": catalog_snapshots,
            "profiles": catalog_profiles,
        }
        with self._reading() as conn:
            return {
                name: int(conn.execute(select(func.count()).select_from(t)).scalar_one())
                for name, t in tables.items()
            }

    # -- internals --------------------------------------------------------------------------
    def _write(self, action: str) -> Transaction:
        """One write transaction; PostgreSQL writers serialise on the catalog's advisory
        lock; database errors become :class:`StoreError`."""

        def error(exc: SQLAlchemyError) -> StoreError:
            return StoreError(f"cannot {action} the catalog {self.url}: {_reason(exc)}")

        return Transaction(self.engine, error, lock=CATALOG_LOCK)
