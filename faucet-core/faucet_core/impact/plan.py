"""``plan_impact``: the schema delta at a sink and the datasets it reaches downstream."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from faucet_core.catalog.inferred import InferredEdge
from faucet_core.catalog.model import Consumer, Contract, Edge
from faucet_core.errors import CatalogError, ImpactError
from faucet_core.impact.delta import schema_delta
from faucet_core.impact.edges import RawEdge, raw_edge
from faucet_core.impact.planned import PlannedSchema
from faucet_core.impact.reader import CatalogReader
from faucet_core.impact.report import (
    AffectedDataset,
    ColumnChange,
    ColumnRead,
    ConsumerHit,
    ContractHit,
    ImpactReport,
    ImpactSeverity,
    PlannedFrom,
)
from faucet_core.impact.sqltypes import dialect_of
from faucet_core.impact.walk import EVERY, NodeState, walk

__all__ = ["DEFAULT_DEPTH", "NoRecordedRunError", "plan_impact"]

DEFAULT_DEPTH = 5


class NoRecordedRunError(ImpactError):
    """The sink was never written in the catalog: there is nothing observed to compare."""

    def __init__(self, message: str, dataset: str) -> None:
        super().__init__(message)
        self.dataset = dataset


def _raw(edge: Edge) -> RawEdge:
    lineage = None
    if edge.column_lineage is not None:
        fields = {k: tuple(i.field for i in v) for k, v in edge.column_lineage.fields.items()}
        lineage = (fields, tuple(i.field for i in edge.column_lineage.dataset))
    return RawEdge(edge.source_id, edge.sink_id, str(edge.job), lineage)


def _sink_state(delta: Sequence[ColumnChange], planned: PlannedSchema) -> NodeState:
    state = NodeState(0)
    if planned.source is PlannedFrom.UNKNOWN:
        state.opaque = True
        return state
    for change in delta:
        if change.flows:
            state.affected.setdefault(change.column, set()).add(f"{change.column} {change.label}")
            state.reads.setdefault(change.column, set())
    return state


def _hit(columns: Sequence[str], node: NodeState) -> tuple[str, ...]:
    """The ``columns`` known to be affected at ``node`` (an opaque path adds none)."""
    if EVERY in node.affected:
        return tuple(columns)
    return tuple(c for c in columns if c in node.affected)


def plan_impact(
    catalog: CatalogReader,
    sink: str,
    planned: PlannedSchema,
    *,
    renames: Mapping[str, str] | None = None,
    drops: Sequence[str] = (),
    depth: int = DEFAULT_DEPTH,
    extra_edges: Sequence[Edge] = (),
    extra_owners: Mapping[str, Sequence[str]] | None = None,
    infer: bool = True,
) -> ImpactReport:
    """Who breaks if ``sink`` (a dataset URI or id) starts writing ``planned``.

    ``extra_owners`` (dataset id -> owners) adds owners known outside the catalog, such as
    the owners a code location declares on assets no run has recorded yet.

    ``renames`` (``{old: new}``) and ``drops`` are what the writer declares it renames and
    drops. ``extra_edges`` are edges known outside the catalog (a code location's asset
    graph); a catalog edge with the same ends and job wins (it holds a run's lineage).
    ``infer``: over an edge without column lineage, use the lineage confidently inferred
    from the two datasets' stored profiles (a column reached only that way is
    ``breaking (inferred)``, with its evidence; the edge stays opaque).
    Raises :class:`ImpactError` when the sink has no recorded run.
    """
    if depth < 0:
        raise ImpactError(f"depth {depth} is negative: give 0 (the sink only) or more hops")
    try:
        sink_id = catalog.resolve(sink)
    except CatalogError:
        raise NoRecordedRunError(
            f"{sink}: no recorded run (the catalog {catalog.url} does not know the dataset); "
            "materialize the asset once, or ingest its OpenLineage events, then plan again",
            sink,
        ) from None
    extra: dict[str, list[RawEdge]] = {}
    for edge in extra_edges:
        extra.setdefault(edge.source_id, []).append(_raw(edge))
    with catalog.snapshot() as view:
        last = view.last_run_of(sink_id)
        if last is None:
            raise NoRecordedRunError(
                f"{sink}: no recorded run in the catalog {catalog.url}; the catalog has "
                "nothing observed to compare with: materialize it once, then plan again",
                sink,
            )
        entry = view.entry(sink_id)
        notes = list(planned.notes)
        if planned.source is PlannedFrom.UNKNOWN:
            delta: tuple[ColumnChange, ...] = ()
        elif entry.schema is None:
            delta = ()
            notes.append(
                "the catalog has no observed schema of the sink, so there is nothing to diff "
                "against; to make it known, record one (a run with a profile check, or a "
                "declared column schema), then plan again"
            )
            planned = PlannedSchema(PlannedFrom.UNKNOWN, None, planned.notes)
        else:
            dialect = dialect_of(entry.uri)
            delta, more = schema_delta(
                entry.schema, planned, renames=renames, drops=drops, dialect=dialect
            )
            notes.extend(more)

        inferred: dict[tuple[str, str], RawEdge] = {}

        def with_inferred(edge: RawEdge) -> RawEdge:
            """An opaque edge with the confident lineage inferred from the profiles."""
            if edge.lineage is not None or not infer:
                return edge
            key = (edge.source_id, edge.sink_id)
            if key not in inferred:
                got = inferred_over(edge.source_id, edge.sink_id)
                inferred[key] = replace(edge, inferred=got.lineage(), evidence=got.evidence())
            found = inferred[key]
            return replace(edge, inferred=found.inferred, evidence=found.evidence)

        names: dict[str, str] = {}
        into: dict[str, dict[str, InferredEdge]] = {}

        def inferred_over(source_id: str, sink_id: str) -> InferredEdge:
            """One edge's inferred lineage, weighed against the sink's other inputs (all
            of a sink's edges are inferred together, once)."""
            per = into.get(sink_id)
            if per is None or source_id not in per:
                sources: dict[str, str | None] = {
                    e.source_id: e.source_uri for e in view.edges_into(sink_id)
                }
                sources.setdefault(source_id, names.get(source_id))
                per = into[sink_id] = view.infer_into(sink_id, sources)
            return per[source_id]

        def load(frontier: Sequence[str]) -> list[RawEdge]:
            found = [raw_edge(row) for row in view.edges_from(frontier)]
            known = {(e.source_id, e.sink_id, e.job) for e in found}
            for source in frontier:
                found.extend(
                    e for e in extra.get(source, ()) if (e.source_id, e.sink_id, e.job) not in known
                )
            if infer and any(e.lineage is None for e in found):
                names.update((k, v[0]) for k, v in view.datasets_of(frontier).items())
            return [with_inferred(e) for e in found]

        result = walk(load, sink_id, _sink_state(delta, planned), depth=depth)
        if result.cut:
            past = view.edges_leaving(result.cut) + sum(len(extra.get(c, ())) for c in result.cut)
            if past:
                notes.append(
                    f"the walk stopped at depth {depth}: {len(result.cut)} dataset(s) there have "
                    f"{past} edge(s) further downstream; pass a larger --depth to follow them"
                )
        ids = sorted(result.nodes)
        info = view.datasets_of(ids)
        consumers = view.consumers_of(ids)
        contracts = view.contracts_of(ids)
    uris = {e.sink_id: e.sink_uri for e in extra_edges} | {
        e.source_id: e.source_uri for e in extra_edges
    }
    sink_severity = ImpactSeverity.worst(c.severity for c in delta)
    if planned.source is PlannedFrom.UNKNOWN:
        sink_severity = ImpactSeverity.UNKNOWN
    affected = []
    for key in ids:
        node = result.nodes[key]
        uri, owners = info.get(key, (uris.get(key, key), ()))
        if extra_owners and key in extra_owners:
            owners = tuple(sorted(set(owners) | set(extra_owners[key])))
        only_inferred = False
        if key == sink_id:
            severity = sink_severity
            written_by: tuple[str, ...] = (last[1],)
            reads = tuple(
                ColumnRead(c.column, (), (c.label,))
                for c in delta
                if c.severity is not ImpactSeverity.NONE
            )
            changed = tuple(c.column for c in delta)
        else:
            only_inferred = not node.affected and bool(node.inferred)
            severity = (
                ImpactSeverity.BREAKING
                if node.affected or node.inferred
                else ImpactSeverity.UNKNOWN
            )
            written_by = tuple(sorted(node.written_by))
            reads = tuple(
                ColumnRead(col, tuple(sorted(node.reads[col])), tuple(sorted(node.affected[col])))
                for col in sorted(node.affected)
            ) + tuple(
                ColumnRead(
                    col,
                    tuple(sorted(node.inferred_reads[col])),
                    tuple(sorted(node.inferred[col])),
                    inferred=True,
                    evidence=tuple(sorted(node.evidence.get(col, ()))),
                )
                for col in sorted(node.inferred)
                if col not in node.affected
            )
            changed = tuple(node.affected)
        hits = _contracts(contracts.get(key, ()), node, changed if key == sink_id else None)
        if hits and severity is not ImpactSeverity.UNKNOWN:
            severity = (
                ImpactSeverity.BREAKING
                if any(_flows(h, delta, key == sink_id) for h in hits)
                else severity
            )
        if severity is ImpactSeverity.NONE:
            continue
        affected.append(
            AffectedDataset(
                dataset=uri,
                id=key,
                depth=node.depth,
                severity=severity,
                written_by=written_by,
                reads=reads,
                contracts=hits,
                owners=owners,
                consumers=_consumers(consumers.get(key, ()), node, delta, severity, key == sink_id),
                opaque_from=(
                    info.get(node.opaque_from, (node.opaque_from, ()))[0]
                    if node.opaque_from
                    else None
                ),
                opaque_edge=node.opaque_edge,
                inferred=key != sink_id and only_inferred,
            )
        )
    affected.sort(key=lambda a: (a.depth, a.dataset))
    notify = sorted({o for a in affected for o in a.owners})
    return ImpactReport(
        severity=ImpactSeverity.worst(a.severity for a in affected),
        planned_from=planned.source,
        sink_dataset=entry.uri,
        sink_id=sink_id,
        last_run=last[0],
        depth=depth,
        schema_delta=delta,
        affected=tuple(affected),
        owners=tuple(notify),
        notes=tuple(notes),
        sample_rule=planned.rule if planned.source is PlannedFrom.SAMPLE else None,
    )


def _contracts(
    found: Sequence[tuple[str, Contract]], node: NodeState, sink_columns: tuple[str, ...] | None
) -> tuple[ContractHit, ...]:
    hits = []
    for job, contract in found:
        if sink_columns is not None:
            touched = tuple(c for c in contract.columns if c in sink_columns)
        else:
            touched = _hit(contract.columns, node)
        if touched:
            hits.append(ContractHit(contract.version, job, contract.columns, touched))
    return tuple(hits)


def _flows(hit: ContractHit, delta: Sequence[ColumnChange], at_sink: bool) -> bool:
    if not at_sink:
        return True
    return any(c.flows and c.column in hit.affected for c in delta)


def _consumers(
    found: Sequence[Consumer],
    node: NodeState,
    delta: Sequence[ColumnChange],
    severity: ImpactSeverity,
    at_sink: bool,
) -> tuple[ConsumerHit, ...]:
    """The consumers the change reaches: one that declares columns only when one of them is
    affected (at the sink: with the worst severity among them; downstream: ``unknown`` when
    none is known to be but an opaque path reaches the dataset), one that declares none by
    any change."""
    out = []
    for consumer in found:
        level = severity
        if consumer.columns and severity is not ImpactSeverity.UNKNOWN:
            if at_sink:
                level = ImpactSeverity.worst(
                    c.severity for c in delta if c.column in consumer.columns
                )
            elif not _hit(consumer.columns, node):
                level = ImpactSeverity.UNKNOWN if node.opaque else ImpactSeverity.NONE
            if level is ImpactSeverity.NONE:
                continue
        out.append(
            ConsumerHit(consumer.name, consumer.kind, consumer.contact, consumer.columns, level)
        )
    return tuple(out)
