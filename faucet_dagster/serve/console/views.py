"""What the console's datasets list and lineage show, built from the catalog's own
objects (pure: no I/O). A dataset's profile history is :mod:`~faucet_dagster.serve.console.
dataset_view`'s."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from faucet_core.catalog import (
    ColumnInput,
    DatasetEntry,
    DatasetRef,
    DatasetSummary,
    Edge,
    LatestOutcome,
)
from faucet_core.catalog.model import merged_inputs

__all__ = [
    "SORTS",
    "STATUS_BY_SLUG",
    "DatasetRow",
    "EdgeView",
    "Status",
    "dataset_rows",
    "drifted_columns",
    "edge_views",
    "kind_of",
    "matches",
    "sorted_rows",
    "status_counts",
    "status_of",
    "ts",
]

MAX_QUERY = 200


def ts(value: dt.datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M:%SZ") if value is not None else "-"


def kind_of(entry: DatasetEntry | DatasetSummary, asset: bool) -> str:
    """``Dagster asset`` for a dataset an asset of the location writes, else the URI's
    scheme (``s3``, ``postgres``, ``bigquery``...)."""
    if asset:
        return "Dagster asset"
    scheme, sep, _ = entry.uri.partition("://")
    return scheme if sep else entry.namespace


class Status(str, Enum):
    """A dataset's health at a glance, from its newest event."""

    DRIFTED = "drifted"
    ERROR = "check error"
    WARMING = "warming up"
    STABLE = "stable"
    NEVER = "never run"
    """An asset of the location with no recorded run of its profile check."""
    UNPROFILED = "not profiled"
    """A dataset the catalog knows (OpenLineage, a read input) that no check profiles."""

    @property
    def slug(self) -> str:
        """The status in URLs (``?status=``) and CSS classes."""
        return _SLUGS[self]


_SLUGS = {
    Status.DRIFTED: "drifted",
    Status.ERROR: "error",
    Status.WARMING: "warming",
    Status.STABLE: "stable",
    Status.NEVER: "never",
    Status.UNPROFILED: "unprofiled",
}
STATUS_BY_SLUG = {slug: status for status, slug in _SLUGS.items()}
STATUS_ORDER = {status: rank for rank, status in enumerate(Status)}
_STORED = {"drifted": Status.DRIFTED, "warming": Status.WARMING, "stable": Status.STABLE}


def status_of(
    outcome: LatestOutcome | None, *, asset: bool, error_at: dt.datetime | None
) -> Status:
    """A check error newer than the newest recorded profile wins; then the profile's own
    outcome; an asset with a profile check (``asset``) that recorded none has never run."""
    if error_at is not None and (outcome is None or error_at > outcome.recorded_at):
        return Status.ERROR
    if outcome is not None:
        return _STORED.get(outcome.status, Status.UNPROFILED)
    return Status.NEVER if asset else Status.UNPROFILED


TABLE_LABEL = "(row count)"
"""How a table-level finding's column (``""``) is shown."""


def drifted_columns(findings: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    """The columns the findings are about, in order, the table's volume as
    :data:`TABLE_LABEL`."""
    seen: dict[str, None] = {}
    for f in findings:
        column = str(f.get("column") or "")
        seen[column or TABLE_LABEL] = None
    return tuple(seen)


@dataclass(frozen=True)
class DatasetRow:
    id: str
    uri: str
    kind: str
    owners: tuple[str, ...]
    last_run: str
    last_drift: str
    status: Status = Status.UNPROFILED
    findings: int = 0
    """Findings of the newest run."""
    columns: tuple[str, ...] = ()
    """The columns those findings are about."""
    status_at: str = "-"
    """When the status was set (the newest run, or the check error)."""
    overdue: bool = False
    """The asset that writes the dataset is overdue by its learned freshness check."""


def dataset_rows(
    entries: Sequence[DatasetEntry | DatasetSummary],
    drifts: Mapping[str, dt.datetime],
    assets: Mapping[str, Any],
    *,
    outcomes: Mapping[str, LatestOutcome] | None = None,
    errors: Mapping[str, dt.datetime] | None = None,
    never_run: Mapping[str, DatasetRef] | None = None,
    checked: Collection[str] = (),
    overdue: Mapping[str, bool] | None = None,
) -> list[DatasetRow]:
    """One row per catalog dataset, then one per asset of the location that the catalog
    does not hold yet (``never_run``: dataset id -> the dataset it would write: never
    run). ``errors`` maps a dataset id to its asset's newest check error; ``checked``
    holds the ids of the datasets a profile check of the location profiles (without a
    profile yet: never run; any other dataset without one: not profiled); ``overdue``
    per asset key (``a/b``), as :meth:`Catalog.overdue_assets` reads it."""
    outcomes = outcomes or {}
    errors = errors or {}
    late = overdue or {}

    def is_overdue(dataset_id: str) -> bool:
        if not late:
            return False
        key = assets.get(dataset_id)
        return key is not None and late.get(key.to_user_string(), False)

    rows = []
    for e in entries:
        outcome = outcomes.get(e.id)
        error_at = errors.get(e.id)
        status = status_of(outcome, asset=e.id in checked, error_at=error_at)
        findings = outcome.findings if outcome is not None and status is Status.DRIFTED else ()
        at = error_at if status is Status.ERROR else (outcome.recorded_at if outcome else None)
        rows.append(
            DatasetRow(
                id=e.id,
                uri=e.uri,
                kind=kind_of(e, e.id in assets),
                owners=e.owners,
                last_run=ts(e.last_run_at),
                last_drift=ts(drifts.get(e.id)),
                status=status,
                findings=len(findings),
                columns=drifted_columns(findings),
                status_at=ts(at),
                overdue=is_overdue(e.id),
            )
        )
    known = {e.id for e in entries}
    for dataset_id, ref in sorted((never_run or {}).items(), key=lambda item: item[1].uri):
        if dataset_id in known:
            continue
        error_at = errors.get(dataset_id)
        rows.append(
            DatasetRow(
                id=dataset_id,
                uri=ref.uri,
                kind="Dagster asset",
                owners=(),
                last_run="-",
                last_drift="-",
                status=status_of(None, asset=True, error_at=error_at),
                status_at=ts(error_at),
            )
        )
    return rows


SORTS = ("status", "name", "last_run")
"""``?sort=``: by status (drifted first, the default), by URI, by the newest run."""


def sorted_rows(rows: Sequence[DatasetRow], by: str) -> list[DatasetRow]:
    if by == "name":
        return sorted(rows, key=lambda r: r.uri)
    if by == "last_run":
        ran = sorted((r for r in rows if r.last_run != "-"), key=lambda r: r.uri)
        ran.sort(key=lambda r: r.last_run, reverse=True)
        return ran + sorted((r for r in rows if r.last_run == "-"), key=lambda r: r.uri)
    return sorted(rows, key=lambda r: (STATUS_ORDER[r.status], -r.findings, r.uri))


def status_counts(rows: Sequence[DatasetRow]) -> list[tuple[Status, int]]:
    """How many rows hold each status, in status order (statuses no row holds left out)."""
    counts = Counter(r.status for r in rows)
    return [(s, counts[s]) for s in Status if counts[s]]


def matches(row: DatasetRow, query: str) -> bool:
    """Case-insensitive: every word of ``query`` is in the row's id, URI, kind, owners or
    drifted columns."""
    hay = " ".join((row.id, row.uri, row.kind, *row.owners, *row.columns)).lower()
    return all(word in hay for word in query.lower().split())


# -- lineage -------------------------------------------------------------------------------
@dataclass(frozen=True)
class EdgeView:
    other_id: str
    other_uri: str
    job: str
    run_id: str
    columns: tuple[tuple[str, str], ...] | None
    """(column, what it reads) pairs; None when the step is opaque (lineage unknown)."""


def _inputs(inputs: tuple[ColumnInput, ...]) -> str:
    return ", ".join(
        i.field + (f" [{', '.join(map(str, i.transformations))}]" if i.kinds else "")
        for i in merged_inputs(inputs)
    )


def edge_views(edges: Sequence[Edge], *, upstream: bool) -> list[EdgeView]:
    out = []
    for e in edges:
        columns: tuple[tuple[str, str], ...] | None = None
        if e.column_lineage is not None:
            lineage = e.column_lineage
            pairs = [(name, _inputs(ins)) for name, ins in sorted(lineage.fields.items())]
            if lineage.dataset:
                pairs.append(("(every column)", _inputs(lineage.dataset)))
            columns = tuple(pairs)
        out.append(
            EdgeView(
                other_id=e.source_id if upstream else e.sink_id,
                other_uri=e.source_uri if upstream else e.sink_uri,
                job=str(e.job),
                run_id=e.run_id or "-",
                columns=columns,
            )
        )
    return out
