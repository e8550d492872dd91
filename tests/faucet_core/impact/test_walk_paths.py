"""The walk over mixed paths: known columns always flow, opacity only adds "may change".

A property test records random DAGs with random opaque edges into a real SQLite catalog and
compares ``plan_impact`` with a reference written here the slow, obvious way: enumerate
every path of at most ``depth`` hops from the sink, carry the change along each, and take
the union per dataset. Plus the ``cost_cap <- budget_eur`` regression of issue 13.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faucet_core.catalog import (
    Catalog,
    Consumer,
    DatasetRef,
    FieldRef,
    JobRef,
    Observation,
    RunRecord,
    RunState,
    SchemaField,
)
from faucet_core.impact import ImpactSeverity, from_declared, plan_impact, render_text

T0 = dt.datetime(2026, 2, 1, tzinfo=dt.timezone.utc)
COLS = ("c0", "c1", "c2")
EVERY = "*"


@dataclass(frozen=True)
class GraphEdge:
    source: int
    sink: int
    lineage: dict[str, tuple[str, ...]] | None  # None: opaque
    whole: tuple[str, ...] = ()


def ref(i: int) -> DatasetRef:
    return DatasetRef("file", f"/g/d{i}.csv")


def job(e: GraphEdge) -> str:
    return f"j{e.source}_{e.sink}"


def record(catalog: Catalog, n: int, edges: list[GraphEdge]) -> None:
    cols = tuple(SchemaField(c, "integer") for c in COLS)
    runs = [
        RunRecord(
            job=JobRef("faucet", "writer0"),
            run_id="run-writer0",
            state=RunState.COMPLETE,
            event_time=T0,
            outputs=(Observation(ref(0), schema=cols),),
        )
    ]
    for k, e in enumerate(edges):
        lineage = None
        if e.lineage is not None:
            lineage = {
                o: tuple(FieldRef(ref(e.source), i) for i in ins) for o, ins in e.lineage.items()
            }
        runs.append(
            RunRecord(
                job=JobRef("faucet", job(e)),
                run_id=f"run-{job(e)}",
                state=RunState.COMPLETE,
                event_time=T0 + dt.timedelta(minutes=k + 1),
                inputs=(Observation(ref(e.source)),),
                outputs=(
                    Observation(
                        ref(e.sink),
                        schema=cols,
                        column_lineage=lineage,
                        dataset_lineage=tuple(FieldRef(ref(e.source), w) for w in e.whole),
                    ),
                ),
            )
        )
    catalog.record(runs)


# -- the reference: every path, carried one edge at a time --------------------------------
@dataclass
class Seen:
    depth: int
    cols: dict[str, set[str]] = field(default_factory=dict)
    reads: dict[str, set[str]] = field(default_factory=dict)
    opaque: bool = False
    opaque_depth: int | None = None
    opaque_from: tuple[bool, int] = (False, -1)
    jobs: set[str] = field(default_factory=set)


State = tuple[dict[str, frozenset[str]], bool]


def carry(e: GraphEdge, state: State) -> tuple[State, dict[str, set[str]]]:
    cols, opaque = state
    if e.lineage is None:
        return ({}, opaque or bool(cols)), {}
    out: dict[str, frozenset[str]] = {}
    reads: dict[str, set[str]] = {}
    targets = [*e.lineage.items(), (EVERY, e.whole)]
    for column, ins in targets:
        hit = [c for c in ins if c in cols or EVERY in cols]
        if hit:
            roots = set().union(
                *(cols.get(c, frozenset()) | cols.get(EVERY, frozenset()) for c in hit)
            )
            out[column] = frozenset(roots)
            reads[column] = set(hit)
    return (out, opaque), reads


def reference(edges: list[GraphEdge], start: State, depth: int) -> dict[int, Seen]:
    seen: dict[int, Seen] = {}
    paths: dict[int, list[tuple[int, State]]] = {0: [(0, start)]}  # node -> (length, state)

    def extend(node: int, state: State, length: int) -> None:
        if length == depth:
            return
        for e in edges:
            if e.source != node:
                continue
            (cols, opaque), reads = carry(e, state)
            if not cols and not opaque:
                continue  # nothing flows on this path past here
            s = seen.setdefault(e.sink, Seen(length + 1))
            s.depth = min(s.depth, length + 1)
            for column, roots in cols.items():
                s.cols.setdefault(column, set()).update(roots)
                s.reads.setdefault(column, set()).update(reads[column])
            if opaque:
                s.opaque = True
                if s.opaque_depth is None or length + 1 < s.opaque_depth:
                    s.opaque_depth = length + 1
            s.jobs.add(f"faucet/{job(e)}")
            paths.setdefault(e.sink, []).append((length + 1, (cols, opaque)))
            extend(e.sink, (cols, opaque), length + 1)

    extend(0, start, 0)
    # where a dataset turned opaque: the smallest (source, has lineage) among the edges
    # that make it opaque from a state its source had within one hop less
    for node, s in seen.items():
        if s.opaque_depth is None:
            continue
        ways = []
        for e in edges:
            if e.sink != node:
                continue
            for length, state in paths.get(e.source, []):
                if length <= s.opaque_depth - 1 and carry(e, state)[0][1]:
                    ways.append((ref(e.source).id, e.lineage is not None, e.source))
        s.opaque_from = min(ways)[1:]  # the smallest id: the walk never depends on edge order
    return seen


# -- the property -------------------------------------------------------------------------
@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, list[GraphEdge], tuple[str, ...], int]:
    n = draw(st.integers(2, 7))
    edges = []
    for sink in range(1, n):
        sources = draw(st.sets(st.integers(0, sink - 1), min_size=1, max_size=min(3, sink)))
        for source in sorted(sources):
            if draw(st.integers(0, 3)) == 0:
                edges.append(GraphEdge(source, sink, None))
                continue
            lineage = {}
            for out in COLS:
                ins = draw(st.sets(st.sampled_from(COLS), max_size=2))
                if ins:
                    lineage[out] = tuple(sorted(ins))
            whole = tuple(sorted(draw(st.sets(st.sampled_from(COLS), max_size=1))))
            # lineage that names no column of the source is no lineage: the catalog keeps
            # such an edge opaque ("unknown", never "reads nothing")
            edges.append(GraphEdge(source, sink, lineage if lineage or whole else None, whole))
    dropped = tuple(sorted(draw(st.sets(st.sampled_from(COLS), min_size=1, max_size=2))))
    return n, edges, dropped, draw(st.integers(1, 6))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("walk")


_counter = iter(range(10**6))


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=graphs())
def test_plan_equals_the_union_over_every_path(
    folder: Path, case: tuple[int, list[GraphEdge], tuple[str, ...], int]
) -> None:
    n, edges, dropped, depth = case
    with Catalog(f"sqlite:///{folder / f'g{next(_counter)}.db'}") as catalog:
        record(catalog, n, edges)
        kept = tuple(SchemaField(c, "integer") for c in COLS if c not in dropped)
        report = plan_impact(catalog, ref(0).uri, from_declared(kept), depth=depth)
    start = ({c: frozenset({f"{c} removed"}) for c in dropped}, False)
    want = reference(edges, start, depth)
    got = {a.dataset: a for a in report.affected if a.depth > 0}
    assert set(got) == {ref(i).uri for i in want}, render_text(report)
    for i, s in want.items():
        a = got[ref(i).uri]
        assert a.depth == s.depth
        assert a.severity is (ImpactSeverity.BREAKING if s.cols else ImpactSeverity.UNKNOWN)
        assert {r.column: (set(r.reads), set(r.because)) for r in a.reads} == {
            c: (s.reads[c], s.cols[c]) for c in s.cols
        }
        assert set(a.written_by) == s.jobs
        if s.opaque:
            has_lineage, source = s.opaque_from
            assert (a.opaque_from, a.opaque_edge) == (ref(source).uri, not has_lineage)
        else:
            assert a.opaque_from is None


# -- the regression of issue 13 -----------------------------------------------------------
CAMPAIGNS = DatasetRef("file", "/ads/campaigns.parquet")
SPEND = DatasetRef("postgres://db:5432", "ads.public.spend")
STAGING = DatasetRef("file", "/ads/staging.parquet")
BUDGETS = DatasetRef("file", "/ads/budgets.parquet")


@pytest.fixture
def ads(store_url: str) -> Iterator[Catalog]:
    """campaigns -> spend over an opaque SQL step (1 hop) and over staging with column
    lineage (2 hops); spend -> budgets, whose ``cost_cap`` reads ``budget_eur``."""

    def run(name: str, minute: int, src: DatasetRef, out: DatasetRef, lineage: object) -> RunRecord:
        cl = None
        if lineage is not None:
            cl = {o: (FieldRef(src, i),) for o, i in dict(lineage).items()}  # type: ignore[call-overload]
        return RunRecord(
            job=JobRef("ads", name),
            run_id=f"run-{name}",
            state=RunState.COMPLETE,
            event_time=T0 + dt.timedelta(minutes=minute),
            inputs=(Observation(src),),
            outputs=(Observation(out, column_lineage=cl),),
        )

    with Catalog(store_url) as catalog:
        catalog.record(
            [
                RunRecord(
                    job=JobRef("ads", "campaigns"),
                    run_id="run-campaigns",
                    state=RunState.COMPLETE,
                    event_time=T0,
                    outputs=(
                        Observation(
                            CAMPAIGNS,
                            schema=(
                                SchemaField("id", "integer"),
                                SchemaField("budget_eur", "number"),
                            ),
                        ),
                    ),
                ),
                run("spend_sql", 1, CAMPAIGNS, SPEND, None),
                run("stage", 2, CAMPAIGNS, STAGING, {"id": "id", "budget_eur": "budget_eur"}),
                run(
                    "spend_merge", 3, STAGING, SPEND, {"campaign": "id", "budget_eur": "budget_eur"}
                ),
                run(
                    "budgets", 4, SPEND, BUDGETS, {"cost_cap": "budget_eur", "campaign": "campaign"}
                ),
            ]
        )
        yield catalog


def test_cost_cap_reads_removed_budget_eur_is_breaking_past_an_opaque_path(ads: Catalog) -> None:
    ads.annotate(
        BUDGETS.uri,
        consumers=[
            Consumer("caps", "dashboard", "#ads", ("cost_cap",)),
            Consumer("campaign-list", "export", "", ("campaign",)),  # only the opaque path
        ],
    )
    report = plan_impact(ads, CAMPAIGNS.uri, from_declared((SchemaField("id", "integer"),)))
    got = {a.dataset: a for a in report.affected}
    budgets = got[BUDGETS.uri]
    assert budgets.severity is ImpactSeverity.BREAKING
    assert [(r.column, r.reads, r.because) for r in budgets.reads] == [
        ("cost_cap", ("budget_eur",), ("budget_eur removed",))
    ]
    assert budgets.depth == 2  # the fewest hops: over the opaque spend_sql step
    assert [(c.name, c.severity) for c in budgets.consumers] == [
        ("campaign-list", ImpactSeverity.UNKNOWN),  # campaign is not known to change, may change
        ("caps", ImpactSeverity.BREAKING),
    ]
    assert (budgets.opaque_from, budgets.opaque_edge) == (SPEND.uri, False)
    spend = got[SPEND.uri]
    assert (spend.severity, spend.depth, spend.opaque_from, spend.opaque_edge) == (
        ImpactSeverity.BREAKING,
        1,
        CAMPAIGNS.uri,
        True,
    )
    assert report.severity is ImpactSeverity.BREAKING
    text = render_text(report)
    assert (
        f"  [breaking] depth 2 {BUDGETS.uri} (written by ads/budgets)\n"
        f"      another path into it is opaque (downstream of {SPEND.uri}, whose change is "
        "not fully known): other columns may change too\n"
        "      cost_cap reads budget_eur (budget_eur removed)\n"
    ) in text


def test_depth_is_the_fewest_hops_and_the_bound_cuts_the_longer_known_path(ads: Catalog) -> None:
    planned = from_declared((SchemaField("id", "integer"),))
    for depth, severity in ((2, ImpactSeverity.UNKNOWN), (3, ImpactSeverity.BREAKING)):
        report = plan_impact(ads, CAMPAIGNS.uri, planned, depth=depth)
        budgets = next(a for a in report.affected if a.dataset == BUDGETS.uri)
        assert (budgets.depth, budgets.severity) == (2, severity)
