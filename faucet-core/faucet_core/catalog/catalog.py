"""``Catalog``: datasets, runs, lineage, owners, consumers, contracts and profiles, in the
faucet store (SQLite or PostgreSQL, the same URL and schema as :class:`ProfileStore`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, delete, func, select, text, update
from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError

from faucet_core.catalog.codec import dumps, utc
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
from faucet_core.catalog.owners import edit_owners
from faucet_core.catalog.read import (
    consumers_of,
    edges_where,
    entries,
    find_ids,
    find_uri,
    latest_outcomes,
    profiles_of,
    runs_of,
    schema_history_of,
    snapshots_of,
    summaries,
)
from faucet_core.catalog.uri import (
    ID_LENGTH,
    MIN_ID_PREFIX,
    dataset_id,
    dataset_uri,
    is_id_prefix,
    looks_like_uri,
    split_uri,
)
from faucet_core.catalog.write import (
    CATALOG_LOCK,
    PROFILE_HISTORY,
    RecordSummary,
    record_batch,
    upsert_ignore,
    write_profile,
)
from faucet_core.errors import CatalogError, FaucetError, StoreError
from faucet_core.store.engine import (
    DEFAULT_BUSY_TIMEOUT,
    database_error,
    make_engine,
    reader,
    reason_of,
)
from faucet_core.store.migrations import migrate
from faucet_core.store.schema import catalog_consumers, catalog_datasets, catalog_profiles
from faucet_core.store.url import normalize_url

__all__ = ["PROFILE_HISTORY", "Catalog"]

_PG_LOCK = CATALOG_LOCK  # one catalog writer at a time on PostgreSQL (SQLite: BEGIN IMMEDIATE)


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
        now = dt.datetime.now(dt.timezone.utc)
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
    ) -> DatasetDetail:
        """Edit the annotated owners and upsert consumers by name (``replace``: drop the
        consumers not listed first).

        ``owners`` replaces the annotated owners, ``add_owners`` adds some,
        ``remove_owners`` takes some out, ``clear_owners`` drops them all;
        ``remove_consumers`` drops consumers by name (one not declared is refused). Owners
        from code, OpenLineage or the ``catalog:`` block are not touched: a dataset's owners
        are the union of every source's.
        """
        with self._write("annotate a dataset in") as conn:
            entry_id = self._resolve(conn, ref)
            self._annotate(
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
        return self.detail(entry_id)

    def apply_config(self, config: CatalogConfig, touched: Iterable[str] | None = None) -> int:
        """Merge a ``catalog:`` block; only into ``touched`` dataset ids when given (the
        datasets a run read or wrote). Returns the number of datasets annotated."""
        wanted = None if touched is None else set(touched)
        done = 0
        with self._write("merge the catalog block into") as conn:
            for item in config.datasets:
                target = self._config_target(conn, item.dataset, wanted)
                if target is None:
                    continue
                consumers = [c.to_consumer() for c in item.consumers]
                self._annotate(
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
        when = utc(recorded_at or dt.datetime.now(dt.timezone.utc))
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
            return self._resolve(conn, ref)

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
            return entries(conn, [self._resolve(conn, ref)])[0]

    def detail(self, ref: str, *, runs: int = 20, profiles: int | None = 30) -> DatasetDetail:
        """Everything about one dataset: schema, owners, consumers, edges both ways, recent
        runs, contracts and profile history (``profiles``: the newest N, None for all)."""
        with self._reading() as conn:
            key = self._resolve(conn, ref)
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
            start = self._resolve(conn, ref)
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

    def profiles(self, ref: str, *, limit: int | None = None) -> tuple[DatasetProfileRun, ...]:
        with self._reading() as conn:
            return profiles_of(conn, self._resolve(conn, ref), limit)

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
        from faucet_core.store.schema import (
            catalog_edges,
            catalog_runs,
            catalog_snapshots,
        )

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
    def _write(self, action: str) -> _Transaction:
        return _Transaction(self, action)

    def _resolve(self, conn: Connection, ref: str) -> str:
        value = (ref or "").strip()
        if looks_like_uri(value):
            namespace, name = split_uri(value)
            uri = dataset_uri(namespace, name)
            found = find_uri(conn, sorted({value, uri}))
            if found:
                return found[0][0]
            raise CatalogError(
                f"no dataset {value!r} in the catalog {self.url}: `faucet catalog datasets` "
                "lists the URIs it knows"
            )
        if not is_id_prefix(value):
            raise CatalogError(
                f"{value!r} is neither a dataset URI (scheme://...) nor an id ({MIN_ID_PREFIX} to "
                f"{ID_LENGTH} hex digits, as `faucet catalog datasets` prints it)"
            )
        matches = find_ids(conn, value.lower())
        if not matches:
            raise CatalogError(
                f"no dataset with id {value!r} in the catalog {self.url}: `faucet catalog "
                "datasets` lists the ids it knows"
            )
        if len(matches) > 1:
            shown = ", ".join(f"{i} ({u})" for i, u in matches[:5])
            raise CatalogError(
                f"id prefix {value!r} is ambiguous: it matches {shown}"
                + (" and more" if len(matches) > 5 else "")
                + "; give more digits"
            )
        return matches[0][0]

    def _config_target(self, conn: Connection, ref: str, wanted: set[str] | None) -> str | None:
        if looks_like_uri(ref):
            key = dataset_id(dataset_uri(*split_uri(ref)))
            if wanted is not None:
                return key if key in wanted else None
            exists = conn.execute(
                select(catalog_datasets.c.id).where(catalog_datasets.c.id == key)
            ).first()
            return key if exists else None
        prefix = ref.lower()
        if wanted is not None:
            hits = sorted(k for k in wanted if k.startswith(prefix))
            return hits[0] if len(hits) == 1 else None
        matches = find_ids(conn, prefix)
        return matches[0][0] if len(matches) == 1 else None

    def _annotate(
        self,
        conn: Connection,
        key: str,
        owners: Sequence[str] | None,
        consumers: Sequence[Consumer],
        replace: bool,
        *,
        source: OwnerSource = OwnerSource.ANNOTATION,
        remove_owners: Sequence[str] = (),
        clear_owners: bool = False,
        add_owners: Sequence[str] = (),
        remove_consumers: Sequence[str] = (),
    ) -> None:
        """``owners`` replaces the owner set of ``source`` (the annotated owners unless
        told otherwise), ``add_owners`` adds to it; ``remove_consumers`` drops consumers by
        name (a name not declared is refused); see :meth:`annotate`."""
        now = dt.datetime.now(dt.timezone.utc)
        t = catalog_datasets.c
        c = catalog_consumers.c
        edit_owners(
            conn,
            key,
            source=source,
            owners=owners,
            remove=remove_owners,
            clear=clear_owners,
            add=add_owners,
            now=now,
        )
        if remove_consumers:
            self._drop_consumers(conn, key, remove_consumers)
            conn.execute(update(catalog_datasets).where(t.id == key).values(updated_at=now))
        if replace:
            keep = [x.name for x in consumers]
            conn.execute(delete(catalog_consumers).where(c.dataset_id == key, c.name.not_in(keep)))
        rows = [
            {
                "dataset_id": key,
                "name": x.name,
                "kind": x.kind,
                "contact": x.contact,
                "columns": dumps(list(x.columns)),
            }
            for x in consumers
        ]
        if rows:
            conn.execute(
                delete(catalog_consumers).where(
                    c.dataset_id == key, c.name.in_([x.name for x in consumers])
                )
            )
            upsert_ignore(conn, catalog_consumers, rows)
            conn.execute(update(catalog_datasets).where(t.id == key).values(updated_at=now))

    @staticmethod
    def _drop_consumers(conn: Connection, key: str, names: Sequence[str]) -> None:
        c = catalog_consumers.c
        rows = conn.execute(select(c.name).where(c.dataset_id == key)).all()
        held = {str(row[0]) for row in rows}
        missing = [n for n in names if n not in held]
        if missing:
            known = ", ".join(sorted(held)) or "none"
            raise CatalogError(
                f"dataset {key} has no consumer {missing[0]!r} to remove; its consumers: {known}"
            )
        conn.execute(delete(catalog_consumers).where(c.dataset_id == key, c.name.in_(names)))


class _Transaction:
    """One write transaction; PostgreSQL writers serialise on an advisory lock; database
    errors become :class:`StoreError`."""

    def __init__(self, catalog: Catalog, action: str) -> None:
        self._catalog, self._action = catalog, action
        self._cm: Any = None

    def _error(self, exc: SQLAlchemyError) -> StoreError:
        return StoreError(f"cannot {self._action} the catalog {self._catalog.url}: {_reason(exc)}")

    def __enter__(self) -> Connection:
        try:
            self._cm = self._catalog.engine.begin()
            conn: Connection = self._cm.__enter__()
        except SQLAlchemyError as exc:
            raise self._error(exc) from None
        if conn.dialect.name == "postgresql":
            try:
                conn.execute(text(f"SELECT pg_advisory_xact_lock({_PG_LOCK})"))
            except SQLAlchemyError as exc:
                self._cm.__exit__(type(exc), exc, None)  # roll back, release the connection
                raise self._error(exc) from None
        return conn

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        try:
            self._cm.__exit__(exc_type, exc, tb)
        except SQLAlchemyError as err:
            raise self._error(err) from None
        if isinstance(exc, SQLAlchemyError):
            raise self._error(exc) from None
