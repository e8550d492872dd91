"""Inferred lineage in the impact walk only ever adds: on any graph, the known affected
columns and the opaque flags are those of the walk without it; inferred columns come on
top (``breaking (inferred)``), never in place of a known break or of ``unknown``."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core.impact.edges import RawEdge
from faucet_core.impact.walk import NodeState, walk

COLS = ("c0", "c1", "c2")


def _load(edges: Sequence[RawEdge]):  # type: ignore[no-untyped-def]
    def load(frontier: Sequence[str]) -> list[RawEdge]:
        return [e for e in edges if e.source_id in frontier]

    return load


def _sink() -> NodeState:
    state = NodeState(0)
    state.affected["c0"] = {"c0 removed"}
    return state


def test_an_opaque_edge_with_confident_inference_names_the_column_and_stays_opaque() -> None:
    edges = [
        RawEdge("a", "b", "j", None, {"x": ("c0",)}, {("x", "c0"): "inferred 0.95: same name"}),
        RawEdge("b", "c", "j", ({"y": ("x",)}, ())),  # declared downstream of the inferred
        RawEdge("a", "d", "j", ({"z": ("c0",)}, ())),  # declared: a known break
        RawEdge("a", "e", "j", None, {"w": ("c1",)}),  # inferred, but not from c0
    ]
    nodes = walk(_load(edges), "a", _sink(), depth=5).nodes
    assert nodes["b"].inferred == {"x": {"c0 removed"}}
    assert nodes["b"].opaque  # other columns may still change
    assert nodes["b"].evidence["x"] == {"c0: inferred 0.95: same name"}
    assert nodes["c"].inferred == {"y": {"c0 removed"}}
    assert nodes["c"].evidence["y"] == {"c0: inferred 0.95: same name"}
    assert nodes["d"].affected == {"z": {"c0 removed"}}
    assert not nodes["d"].inferred
    assert nodes["e"].opaque
    assert not nodes["e"].inferred  # unknown stays unknown


_edge = st.tuples(
    st.integers(0, 4),
    st.integers(1, 5),
    st.one_of(st.none(), st.dictionaries(st.sampled_from(COLS), st.sets(st.sampled_from(COLS)))),
    st.dictionaries(st.sampled_from(COLS), st.sets(st.sampled_from(COLS), min_size=1)),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_edge, max_size=12))
def test_inference_never_takes_anything_away(raw: list) -> None:  # type: ignore[type-arg]
    plain, inferred = [], []
    for source, sink, lineage, guess in raw:
        if source >= sink:
            source, sink = sink - 1, source + 1  # keep every graph a DAG of 6 nodes
        fields = None if lineage is None else ({k: tuple(v) for k, v in lineage.items()}, ())
        plain.append(RawEdge(f"n{source}", f"n{sink}", "j", fields))
        guessed = {k: tuple(sorted(v)) for k, v in guess.items()} if fields is None else None
        inferred.append(RawEdge(f"n{source}", f"n{sink}", "j", fields, guessed))
    without = walk(_load(plain), "n0", _sink(), depth=6).nodes
    with_ = walk(_load(inferred), "n0", _sink(), depth=6).nodes
    assert set(without) <= set(with_)
    for key, node in without.items():
        assert with_[key].affected == node.affected  # known breaks are the same
        assert with_[key].opaque == node.opaque  # unknown stays unknown
    for key, node in with_.items():
        if key not in without:
            assert not node.affected  # reached only through inference
            assert node.inferred
