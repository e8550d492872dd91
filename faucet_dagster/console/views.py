"""What the console's pages show, built from the catalog's own objects (pure: no I/O).

The drift marks of a column's sparklines come from :func:`faucet_dagster.summary.
drift_marks`, the rule every view shares: a run is marked on a column only for that
column's own findings.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from faucet_core.catalog import ColumnInput, DatasetDetail, DatasetEntry, Edge
from faucet_core.catalog.model import DatasetProfileRun, merged_inputs
from faucet_core.drift.numfmt import fmt_number, fmt_rate
from faucet_core.profile import ColumnProfile
from faucet_dagster.console.sparkline import svg_sparkline
from faucet_dagster.summary import drift_marks, shown_distinct

__all__ = [
    "ColumnView",
    "DatasetRow",
    "EdgeView",
    "column_views",
    "dataset_rows",
    "edge_views",
    "kind_of",
    "matches",
    "ts",
]

MAX_QUERY = 200


def ts(value: dt.datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M:%SZ") if value is not None else "-"


def kind_of(entry: DatasetEntry, asset: bool) -> str:
    """``Dagster asset`` for a dataset an asset of the location writes, else the URI's
    scheme (``s3``, ``postgres``, ``bigquery``...)."""
    if asset:
        return "Dagster asset"
    scheme, sep, _ = entry.uri.partition("://")
    return scheme if sep else entry.namespace


@dataclass(frozen=True)
class DatasetRow:
    id: str
    uri: str
    kind: str
    owners: tuple[str, ...]
    last_run: str
    last_drift: str
    overdue: bool = False
    """The asset that writes the dataset is overdue by its learned freshness check."""


def dataset_rows(
    entries: Sequence[DatasetEntry],
    drifts: Mapping[str, dt.datetime],
    assets: Mapping[str, Any],
    overdue: Mapping[str, bool] | None = None,
) -> list[DatasetRow]:
    """``overdue``: per asset key (``a/b``), as :meth:`Catalog.overdue_assets` reads it."""
    late = overdue or {}

    def is_overdue(dataset_id: str) -> bool:
        key = assets.get(dataset_id)
        return key is not None and late.get(key.to_user_string(), False)

    return [
        DatasetRow(
            id=e.id,
            uri=e.uri,
            kind=kind_of(e, e.id in assets),
            owners=e.owners,
            last_run=ts(e.last_run_at),
            last_drift=ts(drifts.get(e.id)),
            overdue=is_overdue(e.id),
        )
        for e in entries
    ]


def matches(row: DatasetRow, query: str) -> bool:
    """Case-insensitive: every word of ``query`` is in the row's id, URI, kind or owners."""
    hay = " ".join((row.id, row.uri, row.kind, *row.owners)).lower()
    return all(word in hay for word in query.lower().split())


# -- a dataset's profile -------------------------------------------------------------------
_METRIC_LABEL = {
    "distinct": "distinct",
    "mean": "mean",
    "min": "min",
    "max": "max",
    "string_length": "mean length",
}


def _metric_value(col: ColumnProfile, metric: str) -> float | None:
    """A column's number for a series metric; None when the run has none (or the column
    is classified: its mean and extremes are values, never shown)."""
    if metric == "distinct":
        return float(shown_distinct(col))
    if metric in ("mean", "min", "max"):
        if col.numeric is None or col.classified:
            return None
        return float(getattr(col.numeric, metric))
    if metric == "string_length":
        return float(col.string.len_mean) if col.string is not None else None
    return None


@dataclass(frozen=True)
class ColumnView:
    name: str
    type: str
    null_rate: str
    distinct: str
    numbers: str
    findings: tuple[str, ...]
    null_spark: Markup
    metric: str
    """The label of the drifted metric plotted in ``metric_spark`` ('' when none)."""
    metric_spark: Markup | None


def _numbers(col: ColumnProfile) -> str:
    if col.numeric is not None and not col.classified:
        n = col.numeric
        return f"min {fmt_number(n.min)}, mean {fmt_number(n.mean)}, max {fmt_number(n.max)}"
    if col.string is not None:
        s = col.string
        return f"length {s.len_min}-{s.len_max} (mean {s.len_mean:.1f})"
    return "-"


def _drifted_metric(name: str, history: Sequence[DatasetProfileRun]) -> str | None:
    """The metric of the newest finding about column ``name`` when it is a plotted series
    other than the null rate (that one always is)."""
    for run in reversed(history):
        about = [str(f.get("metric", "")) for f in run.findings if f.get("column") == name]
        if about:
            return next((m for m in about if m in _METRIC_LABEL), None)
    return None


def column_views(detail: DatasetDetail) -> list[ColumnView]:
    """The latest profile's columns, each with its null-rate sparkline (and the drifted
    metric's) over the stored runs."""
    latest = detail.latest_profile
    if latest is None:
        return []
    types = {f.name: f.type or "?" for f in detail.dataset.schema or ()}
    out = []
    for name, col in latest.profile.columns.items():
        seen = [p for p in detail.profiles if name in p.profile.columns]
        marks = drift_marks(name, (p.findings for p in seen))
        runs = [f"{ts(p.recorded_at)} run {p.run_id}" for p in seen]
        rates = [p.profile.columns[name].null_rate for p in seen]
        null_spark = svg_sparkline(rates, marks, label=f"{name} null rate", runs=runs)
        metric = _drifted_metric(name, seen)
        metric_spark = None
        if metric is not None:
            series = [
                (_metric_value(p.profile.columns[name], metric), m, r)
                for p, m, r in zip(seen, marks, runs, strict=True)
            ]
            kept = [s for s in series if s[0] is not None]
            if kept:
                metric_spark = svg_sparkline(
                    [float(v) for v, _, _ in kept if v is not None],
                    [m for _, m, _ in kept],
                    label=f"{name} {_METRIC_LABEL[metric]}",
                    runs=[r for _, _, r in kept],
                )
        out.append(
            ColumnView(
                name=name,
                type=types.get(name, ", ".join(sorted(col.types)) or "?"),
                null_rate=fmt_rate(col.null_rate),
                distinct=f"{shown_distinct(col):,}",
                numbers=_numbers(col),
                findings=tuple(
                    str(f.get("message", "")) for f in latest.findings if f.get("column") == name
                ),
                null_spark=null_spark,
                metric=_METRIC_LABEL[metric] if metric_spark is not None and metric else "",
                metric_spark=metric_spark,
            )
        )
    return out


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
