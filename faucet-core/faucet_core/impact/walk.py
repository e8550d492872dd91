"""The downstream walk: which datasets read a changed column, hop by hop.

Breadth first from the sink, one query per hop (per 900 frontier ids). A dataset's state
has two parts that never cancel each other:

* the **known** affected columns (``*``: every column, when a filter or join key changed),
  carried over edges with column lineage from the known affected columns upstream;
* the **inferred** affected columns: carried over an opaque edge's confident inferred
  lineage (from the stored profiles), and on from there over any lineage. They only add:
  the edge stays opaque, and a dataset's known columns are never replaced by them;
* whether it is **opaque**: reached over an edge without column lineage from a dataset
  the change reaches, or over any edge from an opaque dataset. Opaque means "more may
  change than is known", never "nothing is known": known columns still flow through an
  opaque dataset's lineage edges, and a dataset with a known break stays breaking.

The result is the union over every path of at most ``depth`` hops (each edge's transfer is
a union-preserving function of its source's state, so the hop-by-hop union equals the
union over paths). Only datasets whose state grew are expanded at the next hop, so a
dataset reached again over a longer path with more affected columns is propagated again;
cycles end because states only grow. ``depth`` of a dataset is the fewest hops over which
anything (known or opaque) reaches it; a later, longer path may add columns or opacity
but never changes it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from faucet_core.impact.edges import RawEdge

__all__ = ["EVERY", "NodeState", "WalkResult", "walk"]

EVERY = "*"
"""The affected column that stands for every column of a dataset."""


@dataclass
class NodeState:
    """What the walk knows about one reached dataset (internal, mutable while walking)."""

    depth: int
    affected: dict[str, set[str]] = field(default_factory=dict)
    """Known affected column -> the sink's delta entries it derives from."""
    reads: dict[str, set[str]] = field(default_factory=dict)
    """Known affected column -> the affected upstream columns it reads."""
    opaque: bool = False
    """Some path into it is opaque: columns beyond the known ones may change."""
    opaque_from: str | None = None
    """The upstream dataset of the first hop it turned opaque (smallest id among them)."""
    opaque_edge: bool = False
    """True when ``opaque_from``'s edge has no column lineage; False when ``opaque_from``
    is itself opaque."""
    written_by: set[str] = field(default_factory=set)
    """Jobs of the edges that carried something into it."""
    inferred: dict[str, set[str]] = field(default_factory=dict)
    """Column -> delta entries, reached over inferred lineage somewhere upstream."""
    inferred_reads: dict[str, set[str]] = field(default_factory=dict)
    """Inferred column -> the affected upstream columns it reads."""
    evidence: dict[str, set[str]] = field(default_factory=dict)
    """Inferred column -> why (the inference's evidence, on the hop it was inferred)."""

    def flowing(self) -> int:
        """The size of what flows on from it (grows only: the walk's progress measure)."""
        return (
            sum(len(v) for v in self.affected.values())
            + sum(len(v) for v in self.inferred.values())
            + (1 if self.opaque else 0)
        )

    @property
    def reached(self) -> bool:
        return bool(self.affected) or bool(self.inferred) or self.opaque


@dataclass(frozen=True)
class WalkResult:
    nodes: Mapping[str, NodeState]
    cut: tuple[str, ...]
    """Datasets at the last hop whose state grew there: the walk did not go past them."""


def _hits(ins: Sequence[str], affected: Mapping[str, set[str]]) -> tuple[list[str], set[str]]:
    """The input columns among ``ins`` that are affected, and the delta entries behind them
    (a column's own entries plus those of ``*``: the union keeps the transfer
    path-independent)."""
    every = affected.get(EVERY)
    hit, roots = [], set()
    for column in ins:
        got = affected.get(column)
        if got is None and every is None:
            continue
        hit.append(column)
        if got is not None:
            roots |= got
        if every is not None:
            roots |= every
    return hit, roots


def _carry(edge: RawEdge, src: NodeState, node: NodeState) -> bool:
    """Carry ``src``'s known columns over ``edge``'s column lineage into ``node``."""
    if edge.lineage is None or not src.affected:
        return False
    fields, whole = edge.lineage
    carried = False
    for out, ins in fields.items():
        hit, roots = _hits(ins, src.affected)
        if hit:
            node.affected.setdefault(out, set()).update(roots)
            node.reads.setdefault(out, set()).update(hit)
            carried = True
    hit, roots = _hits(whole, src.affected)
    if hit:
        node.affected.setdefault(EVERY, set()).update(roots)
        node.reads.setdefault(EVERY, set()).update(hit)
        carried = True
    return carried


def _merged(a: Mapping[str, set[str]], b: Mapping[str, set[str]]) -> dict[str, set[str]]:
    out = {k: set(v) for k, v in a.items()}
    for k, v in b.items():
        out.setdefault(k, set()).update(v)
    return out


def _carry_inferred(edge: RawEdge, src: NodeState, node: NodeState) -> bool:
    """Carry ``src``'s inferred columns over the edge's lineage, and, over an opaque edge
    with confident inferred lineage, everything affected at ``src``."""
    carried = False
    if edge.lineage is not None:
        if not src.inferred:
            return False
        fields, whole = edge.lineage
        for out, ins in (*fields.items(), (EVERY, whole)):
            hit, roots = _hits(ins, src.inferred)
            if hit:
                node.inferred.setdefault(out, set()).update(roots)
                node.inferred_reads.setdefault(out, set()).update(hit)
                for column in hit:
                    node.evidence.setdefault(out, set()).update(src.evidence.get(column, ()))
                carried = True
        return carried
    if not edge.inferred:
        return False
    upstream = _merged(src.affected, src.inferred)
    if not upstream:
        return False
    why = edge.evidence or {}
    for out, ins in edge.inferred.items():
        hit, roots = _hits(ins, upstream)
        if hit:
            node.inferred.setdefault(out, set()).update(roots)
            node.inferred_reads.setdefault(out, set()).update(hit)
            node.evidence.setdefault(out, set()).update(
                f"{column}: {why[(out, column)]}" for column in hit if (out, column) in why
            )
            carried = True
    return carried


def _apply(edge: RawEdge, src: NodeState, node: NodeState) -> tuple[bool, bool]:
    """Apply one edge; returns (carried anything, made ``node`` opaque over this edge)."""
    carried = _carry(edge, src, node)
    carried = _carry_inferred(edge, src, node) or carried
    opaque = src.opaque or (edge.lineage is None and bool(src.affected or src.inferred))
    if opaque:
        node.opaque = True
    if carried or opaque:
        node.written_by.add(edge.job)
    return carried or opaque, opaque


def walk(
    load: Callable[[Sequence[str]], list[RawEdge]],
    sink_id: str,
    sink: NodeState,
    *,
    depth: int,
) -> WalkResult:
    """Walk ``depth`` hops downstream of ``sink_id`` whose state is ``sink``; ``load`` returns
    the edges out of a frontier."""
    nodes: dict[str, NodeState] = {sink_id: sink}
    frontier = [sink_id] if sink.reached else []
    for hop in range(1, depth + 1):
        if not frontier:
            break
        grown: set[str] = set()
        # each hop propagates the frontier's states as they were when the hop began, so
        # the result does not depend on the order the store returns edges in
        before_hop = {
            key: NodeState(
                nodes[key].depth,
                {c: set(r) for c, r in nodes[key].affected.items()},
                opaque=nodes[key].opaque,
                inferred={c: set(r) for c, r in nodes[key].inferred.items()},
                evidence={c: set(r) for c, r in nodes[key].evidence.items()},
            )
            for key in frontier
        }
        # the hop a dataset turns opaque, its smallest (source id, has lineage) way in
        # names where from: independent of the order the store returns edges in
        opaque_via: dict[str, tuple[str, bool]] = {}
        for edge in load(frontier):
            src = before_hop[edge.source_id]
            node = nodes.get(edge.sink_id)
            candidate = NodeState(hop) if node is None else node
            newly = not candidate.opaque or edge.sink_id in opaque_via
            before = candidate.flowing()
            touched, opaque = _apply(edge, src, candidate)
            if opaque and newly:
                way = (edge.source_id, edge.lineage is not None)
                opaque_via[edge.sink_id] = min(opaque_via.get(edge.sink_id, way), way)
            if touched and node is None:
                nodes[edge.sink_id] = candidate
            if candidate.flowing() > before:
                grown.add(edge.sink_id)
        for key, (source, has_lineage) in opaque_via.items():
            nodes[key].opaque_from, nodes[key].opaque_edge = source, not has_lineage
        frontier = sorted(grown)
    return WalkResult(nodes, tuple(frontier))
