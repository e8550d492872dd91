"""The downstream walk: which datasets read a changed column, hop by hop.

Breadth first from the sink, one query per hop (per 900 frontier ids). A dataset's state
is the set of its columns the change reaches (``*``: every column, when a filter or join
key changed) and whether it is opaque (reached over an edge without column lineage, or
from an opaque dataset). Only datasets whose state grew are expanded at the next hop, so
a dataset reached again over a longer path with more affected columns is propagated
again; cycles end because states only grow.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from faucet_core.impact.store import RawEdge

__all__ = ["EVERY", "NodeState", "WalkResult", "walk"]

EVERY = "*"
"""The affected column that stands for every column of a dataset."""


@dataclass
class NodeState:
    """What the walk knows about one reached dataset (internal, mutable while walking)."""

    depth: int
    affected: dict[str, set[str]] = field(default_factory=dict)
    """Affected column -> the sink's delta entries it derives from."""
    reads: dict[str, set[str]] = field(default_factory=dict)
    """Affected column -> the affected upstream columns it reads."""
    opaque: bool = False
    opaque_from: str | None = None
    opaque_edge: bool = False
    """True when ``opaque_from``'s edge has no column lineage; False when ``opaque_from``
    is itself unknown."""
    written_by: set[str] = field(default_factory=set)

    def size(self) -> int:
        return sum(len(v) for v in self.affected.values()) + (1 if self.opaque else 0)


@dataclass(frozen=True)
class WalkResult:
    nodes: Mapping[str, NodeState]
    cut: tuple[str, ...]
    """Datasets at the last hop whose state grew there: the walk did not go past them."""


def _hits(ins: Sequence[str], affected: Mapping[str, set[str]]) -> tuple[list[str], set[str]]:
    every = affected.get(EVERY)
    hit, roots = [], set()
    for column in ins:
        got = affected.get(column)
        if got is None and every is not None:
            got = every
        if got is not None:
            hit.append(column)
            roots |= got
    return hit, roots


def _apply(edge: RawEdge, src_id: str, src: NodeState, node: NodeState) -> None:
    if src.opaque or edge.lineage is None:
        node.opaque = True
        if node.opaque_from is None:
            node.opaque_from, node.opaque_edge = src_id, edge.lineage is None
        node.written_by.add(edge.job)
        return
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
    if carried:
        node.written_by.add(edge.job)


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
    frontier = [sink_id] if (sink.affected or sink.opaque) else []
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
            )
            for key in frontier
        }
        for edge in load(frontier):
            src = before_hop[edge.source_id]
            node = nodes.get(edge.sink_id)
            fresh = node is None
            candidate = NodeState(hop) if node is None else node
            before = candidate.size()
            _apply(edge, edge.source_id, src, candidate)
            if candidate.size() > before:
                if fresh:
                    nodes[edge.sink_id] = candidate
                grown.add(edge.sink_id)
        frontier = sorted(grown)
    return WalkResult(nodes, tuple(frontier))
