"""Precision and recall of the column lineage faucet infers from profiles, against the
lineage the projects declare or derive.

Two corpora (declared in benchmarks/lineage_projects/README.md before any held-out figure
was taken), each project run for real into a temporary faucet store:

``--corpus tune`` (the threshold and weights were chosen on these):

* the example project (``example_project/src``): ``raw_orders -> orders`` (declared
  ``dagster/column_lineage``) and ``orders -> revenue_by_region`` (derived from its SQL by
  ``sql_lineage_metadata``), ``--days`` days of the simulated source;
* the example dbt project (``example_project/dbt_example``) built ``--dbt-runs`` times
  through dagster-dbt (whose ``fetch_column_metadata`` derives each model's column
  lineage with sqlglot), every model profiled in DuckDB by its faucet check;
* the OpenLineage fixtures of the tests carry no profiles: nothing can be inferred there
  (listed for completeness).

``--corpus held-out`` (nobody tuned on these; measured once per change of the inference):

* ``jaffle_ecom``: a small version of dbt Labs' jaffle-shop (six raw seeds, six staging
  views, six marts), ``--days`` days of seeded history, built through dagster-dbt (its
  column lineage is the truth), profiled in DuckDB;
* ``hacker_news`` and ``stock_bands``: pandas versions of two Dagster examples
  (``project_fully_featured``, ``assets_pandas_type_metadata``), ``--days`` days each,
  profiled in process; their declared ``dagster/column_lineage`` (the ``LINEAGE`` table
  of each module) is the truth.

For every edge whose lineage is known and whose two datasets have stored profiles, the
inferred candidates (computed as ``faucet plan --impact`` does, without looking at the
edge's lineage) are compared with the known pairs ``(output column, input column)``.
Recall is given over every known pair and over the pairs a copy leaves a trace of
(``DIRECT/IDENTITY``: the transformation types come from faucet's own SQL lineage of the
same SQL); a computed column (``sum(amount)``, ``lower(email)``) cannot be inferred from
values by construction.

Run from the repository root::

    .venv/bin/python benchmarks/lineage_inference.py            # --days 5 --dbt-runs 2
    .venv/bin/python benchmarks/lineage_inference.py --corpus held-out --days 5
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
PROJECTS = BENCH / "lineage_projects"
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(REPO))

from _common import machine_info  # noqa: E402

from faucet_core.catalog import Catalog, Edge  # noqa: E402
from faucet_core.inference.columns import CONFIDENT  # noqa: E402
from faucet_core.lineage import sql_lineage  # noqa: E402

THRESHOLDS = (0.5, 0.6, 0.7, CONFIDENT, 0.9)
CORPORA = {
    "tune": ("example project", "dbt example"),
    "held-out": ("jaffle_ecom (dbt)", "hacker_news (pandas)", "stock_bands (pandas)"),
}


@dataclass
class Case:
    """One edge: the known pairs, the identity ones among them, and every candidate."""

    project: str
    edge: str
    truth: set[tuple[str, str]]
    identity: set[tuple[str, str]]
    rows: set[str] = field(default_factory=set)
    """Source columns that decide the output's rows (filter, join, group): a change to
    one reaches every output column, so a candidate naming one is not a wrong impact."""
    candidates: list[tuple[str, str, float, str]] = field(default_factory=list)


@contextlib.contextmanager
def _env(**values: str) -> Iterator[None]:
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _cases(catalog: Catalog, project: str, identity_of, rows_of) -> list[Case]:  # type: ignore[no-untyped-def]
    ids = [e.id for e in catalog.datasets()]
    out = []
    for edge in catalog.edges(sources=ids):
        if edge.column_lineage is None or not edge.column_lineage.fields:
            continue
        inferred = catalog.inferred_lineage(edge)
        if not inferred.runs:
            continue  # a side without stored profiles: nothing to infer from
        truth = {
            (column, i.field) for column, ins in edge.column_lineage.fields.items() for i in ins
        }
        case = Case(project, _edge_name(edge), truth, identity_of(edge, truth), rows_of(edge))
        case.candidates = [
            (c.column, c.source, c.confidence, c.evidence.text()) for c in inferred.candidates
        ]
        out.append(case)
    return out


def _edge_name(edge: Edge) -> str:
    return f"{edge.source_uri.rsplit('/', 1)[-1]} -> {edge.sink_uri.rsplit('/', 1)[-1]}"


def _kinds_identity(edge: Edge, truth: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """Identity pairs from the kinds the edge records; an edge without kinds (a hand
    declaration of copies, as the example's ``orders``) counts every pair."""
    assert edge.column_lineage is not None
    kinds = {
        (column, i.field): i.kinds
        for column, ins in edge.column_lineage.fields.items()
        for i in ins
    }
    if not any(kinds.values()):
        return set(truth)
    return {pair for pair, k in kinds.items() if k == ("DIRECT/IDENTITY",)}


def example_project(store: str, days: int) -> list[Case]:
    from faucet_dagster.location import load_code_location

    src = REPO / "example_project" / "src"
    sys.path.insert(0, str(src))
    here = os.getcwd()
    os.chdir(src)
    try:
        import dagster as dg

        with _env(FAUCET_STORE_URL=store):
            defs = load_code_location("faucet_example.definitions").defs
            job = defs.resolve_implicit_global_asset_job_def()
            with dg.instance_for_test() as instance:
                for day in range(1, days + 1):
                    with _env(FAUCET_EXAMPLE_DAY=str(day)):
                        job.execute_in_process(instance=instance, raise_on_error=False)
    finally:
        os.chdir(here)
    with Catalog(store) as catalog:
        return _cases(
            catalog,
            "example project",
            _kinds_identity,
            lambda e: {i.field for i in e.column_lineage.dataset},
        )


def dbt_project(root: Path, store: str, runs: int) -> list[Case]:
    import dagster as dg

    from tests.faucet_dagster.dbt.project import (
        BuiltProject,
        copy_example,
        dbt_on_path,
        example_module,
    )

    folder = copy_example(root / "dbt_example")
    with dbt_on_path(folder), dg.instance_for_test() as instance:
        example = example_module()
        project = example.prepare(folder)
        defs = example.build_defs(project, store_url=store)
        built = BuiltProject(folder, project, defs, instance, store)
        for _ in range(runs):
            with contextlib.redirect_stdout(sys.stderr):  # dbt's log lines
                assert built.run().success
        identity, rows = _dbt_identity(folder, "shop_dbt_assets")
    with Catalog(store) as catalog:

        def ends(edge: Edge) -> tuple[str, str]:
            return edge.sink_uri.rsplit(".", 1)[-1], edge.source_uri.rsplit(".", 1)[-1]

        def identity_of(edge: Edge, truth: set[tuple[str, str]]) -> set[tuple[str, str]]:
            return {p for p in truth if (*ends(edge), *p) in identity}

        return _cases(catalog, "dbt example", identity_of, lambda e: rows.get(ends(e), set()))


def _dbt_identity(
    folder: Path, assets_name: str
) -> tuple[set[tuple[str, str, str, str]], dict[tuple[str, str], set[str]]]:
    """``(model, parent, column, parent column)`` that faucet's SQL lineage calls
    ``DIRECT/IDENTITY``, and ``{(model, parent): row-deciding parent columns}``, from the
    compiled SQL and the warehouse's column types."""
    import duckdb

    manifest = json.loads((folder / "target" / "manifest.json").read_text())
    nodes = manifest["nodes"]
    (invocation,) = sorted((folder / "target").glob(f"{assets_name}-*"))[-1:]
    conn = duckdb.connect(str(folder / "target" / "warehouse.duckdb"), read_only=True)
    out = set()
    rows: dict[tuple[str, str], set[str]] = {}
    for node in nodes.values():
        if node["resource_type"] != "model" or node["language"] != "sql":
            continue
        schemas, names = {}, {}
        for parent_id in node["depends_on"]["nodes"]:
            parent = nodes[parent_id]
            relation = parent["relation_name"].replace('"', "")
            schema, table = relation.split(".")[-2:]
            found = conn.execute(
                "select column_name, data_type from information_schema.columns "
                "where table_schema = ? and table_name = ?",
                [schema, table],
            ).fetchall()
            schemas[relation] = dict(found)
            names[relation] = parent["name"]
        sql = (
            invocation / "compiled" / node["package_name"] / node["original_file_path"]
        ).read_text()
        lineage = sql_lineage(sql, dialect="duckdb", schemas=schemas)
        for column, sources in lineage.fields.items():
            for s in sources:
                if s.kinds == ("DIRECT/IDENTITY",):
                    out.add((node["name"], names[s.table], column, s.column))
        for s in lineage.dataset:
            rows.setdefault((node["name"], names[s.table]), set()).add(s.column)
    conn.close()
    return out, rows


def _project_edges(catalog: Catalog) -> dict[tuple[str, str], Edge]:
    """``{(sink asset, source asset): edge}`` of every edge between Dagster assets."""
    ids = [e.id for e in catalog.datasets()]
    out = {}
    for edge in catalog.edges(sources=ids):
        out[(edge.sink_uri.rsplit("/", 1)[-1], edge.source_uri.rsplit("/", 1)[-1])] = edge
    return out


def pandas_project(module_name: str, store: str, days: int) -> list[Case]:
    """A held-out pandas project: its assets with profile checks, ``days`` runs; the
    known pairs are its ``LINEAGE`` table (what its assets declare), including the edges
    that read no column by name (only join or filter on one)."""
    import importlib

    import dagster as dg

    from faucet_dagster import FaucetResource, build_profile_checks

    sys.path.insert(0, str(PROJECTS))
    module = importlib.import_module(module_name)
    defs = dg.Definitions(
        assets=module.ASSETS,
        asset_checks=build_profile_checks(module.ASSETS, config={"min_history": 2}),
        resources={"faucet": FaucetResource(store_url=store)},
        executor=dg.in_process_executor,
    )
    job = defs.resolve_implicit_global_asset_job_def()
    with dg.instance_for_test() as instance:
        for day in range(1, days + 1):
            with _env(FAUCET_LINEAGE_DAY=str(day)):
                assert job.execute_in_process(instance=instance, raise_on_error=False).success
    project = f"{module_name} (pandas)"
    out = []
    with Catalog(store) as catalog:
        edges = _project_edges(catalog)
        for sink, reads in module.LINEAGE.items():
            for source, declared in reads.items():
                edge = edges[(sink, source)]
                inferred = catalog.inferred_lineage(edge)
                truth = {(c, i) for c, ins in declared.fields.items() for i in ins}
                identity = {
                    (c, i)
                    for c, ins in declared.fields.items()
                    for i, k in ins.items()
                    if k == "DIRECT/IDENTITY"
                }
                case = Case(project, _edge_name(edge), truth, identity, set(declared.rows))
                case.candidates = [
                    (c.column, c.source, c.confidence, c.evidence.text())
                    for c in inferred.candidates
                ]
                out.append(case)
    return out


def jaffle_ecom(root: Path, store: str, days: int) -> list[Case]:
    """The held-out dbt project: ``days`` builds, each over that day's seeded history."""
    import shutil

    import dagster as dg

    folder = root / "jaffle_ecom"
    shutil.copytree(
        PROJECTS / "jaffle_ecom",
        folder,
        ignore=shutil.ignore_patterns(
            "target", "logs", ".user.yml", "*.duckdb", "__pycache__", "*.csv"
        ),
    )
    warehouse = folder / "target" / "warehouse.duckdb"
    bin_dir = str(Path(sys.executable).parent)
    sys.path.insert(0, str(folder))
    from faucet_jaffle_ecom.data import write_seeds
    from faucet_jaffle_ecom.project import ASSETS_NAME, build_defs, prepare

    with _env(
        PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        FAUCET_DBT_DUCKDB_PATH=str(warehouse),
    ):
        write_seeds(folder / "seeds", 1)
        with contextlib.redirect_stdout(sys.stderr):
            project = prepare(folder)
        defs = build_defs(project, warehouse=warehouse, store_url=store)
        job = defs.resolve_implicit_global_asset_job_def()
        with dg.instance_for_test() as instance:
            for day in range(1, days + 1):
                write_seeds(folder / "seeds", day)
                with contextlib.redirect_stdout(sys.stderr):  # dbt's log lines
                    assert job.execute_in_process(instance=instance, raise_on_error=False).success
        identity, rows = _dbt_identity(folder, ASSETS_NAME)
    with Catalog(store) as catalog:

        def ends(edge: Edge) -> tuple[str, str]:
            return edge.sink_uri.rsplit(".", 1)[-1], edge.source_uri.rsplit(".", 1)[-1]

        def identity_of(edge: Edge, truth: set[tuple[str, str]]) -> set[tuple[str, str]]:
            return {p for p in truth if (*ends(edge), *p) in identity}

        return _cases(catalog, "jaffle_ecom (dbt)", identity_of, lambda e: rows.get(ends(e), set()))


def _score(cases: list[Case], threshold: float) -> tuple[int, int, int, int, int, int]:
    tp = fp = fn = fn_identity = identity = reaching = 0
    for case in cases:
        got = {(c, s) for c, s, conf, _ in case.candidates if conf >= threshold}
        tp += len(got & case.truth)
        wrong = got - case.truth
        fp += len(wrong)
        reaching += sum(1 for _, s in wrong if s in case.rows)
        fn += len(case.truth - got)
        identity += len(case.identity)
        fn_identity += len(case.identity - got)
    return tp, fp, fn, identity, fn_identity, reaching


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.2f}" if b else "-"


def report(cases: list[Case], seconds: float, args: argparse.Namespace) -> str:
    lines = [f"# Lineage inference: precision and recall ({args.corpus} corpus)", ""]
    projects = sorted({c.project for c in cases})
    lines += [
        "| project | edges compared | known pairs | identity pairs |",
        "|---|---|---|---|",
    ]
    for name in projects:
        mine = [c for c in cases if c.project == name]
        lines.append(
            f"| {name} | {len(mine)} | {sum(len(c.truth) for c in mine)} | "
            f"{sum(len(c.identity) for c in mine)} |"
        )
    if args.corpus == "tune":
        lines += [
            "| OpenLineage fixtures (tests) | 0 | - | - |",
            "",
            "The OpenLineage fixtures record no profiles: there is nothing to infer from.",
        ]
    lines += [
        "",
        "Precision counts a candidate correct only when the known lineage names the pair; "
        "*of the wrong, row-deciding* counts the wrong ones whose upstream column filters, "
        "joins or groups the edge's rows (a change to it does reach the column: a wrong "
        "pair, not a wrong impact).",
        "",
        "| confidence >= | predicted | correct | wrong | of the wrong, row-deciding "
        "| precision | recall (all known) | recall (identity) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for threshold in THRESHOLDS:
        tp, fp, fn, identity, fn_identity, reaching = _score(cases, threshold)
        mark = " (impact uses this)" if threshold == CONFIDENT else ""
        lines.append(
            f"| {threshold:.2f}{mark} | {tp + fp} | {tp} | {fp} | {reaching} | "
            f"{_ratio(tp, tp + fp)} | {_ratio(tp, tp + fn)} | "
            f"{_ratio(identity - fn_identity, identity)} |"
        )
    contested = [
        (conf, (c, s) in case.truth)
        for case in cases
        for c, s, conf, why in case.candidates
        if "also held by" in why
    ]
    kept = [ok for conf, ok in contested if conf >= CONFIDENT]
    demoted = [ok for conf, ok in contested if conf < CONFIDENT]
    lines += [
        "",
        f"Columns confident over several inputs of one asset (faucet_core.inference.rivals): "
        f"{len(kept)} candidate(s) kept ({sum(kept)} correct), {len(demoted)} demoted "
        f"below {CONFIDENT} ({sum(demoted)} of them correct).",
        "",
    ]
    for name in projects:
        mine = [c for c in cases if c.project == name]
        tp, fp, fn, identity, fn_identity, _ = _score(mine, CONFIDENT)
        lines.append(
            f"- {name} at {CONFIDENT}: precision {_ratio(tp, tp + fp)}, recall "
            f"{_ratio(tp, tp + fn)} (identity {_ratio(identity - fn_identity, identity)})"
        )
    lines += ["", f"## Wrong and missed at confidence {CONFIDENT}", ""]
    for case in cases:
        got = {(c, s): (conf, why) for c, s, conf, why in case.candidates if conf >= CONFIDENT}
        for (column, source), (conf, why) in sorted(got.items()):
            if (column, source) not in case.truth:
                role = " (row-deciding upstream column)" if source in case.rows else ""
                lines.append(
                    f"- wrong{role}: {case.edge}: {column} <- {source} ({conf:.2f}: {why})"
                )
        for column, source in sorted(case.identity - set(got)):
            best = [
                (conf, why) for c, s, conf, why in case.candidates if (c, s) == (column, source)
            ]
            detail = f"{best[0][0]:.2f}: {best[0][1]}" if best else "no candidate"
            lines.append(f"- missed copy: {case.edge}: {column} <- {source} ({detail})")
    lines += [
        "",
        "## Run",
        "",
        f"- command: `.venv/bin/python benchmarks/lineage_inference.py --corpus {args.corpus} "
        f"--days {args.days}" + (f" --dbt-runs {args.dbt_runs}`" if args.corpus == "tune" else "`"),
        f"- wall time {seconds:.0f} s (mostly the Dagster and dbt runs that fill the store)",
        machine_info(),
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=5, help="example project runs")
    parser.add_argument("--dbt-runs", type=int, default=2, help="dbt example builds (tune)")
    parser.add_argument(
        "--corpus",
        choices=sorted(CORPORA),
        default="tune",
        help="tune: the projects the inference was tuned on; held-out: the ones nobody "
        "tuned on (benchmarks/lineage_projects/README.md)",
    )
    args = parser.parse_args()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        if args.corpus == "tune":
            cases = example_project(f"sqlite:///{root / 'example.db'}", args.days)
            cases += dbt_project(root, f"sqlite:///{root / 'dbt.db'}", args.dbt_runs)
        else:
            cases = jaffle_ecom(root, f"sqlite:///{root / 'jaffle.db'}", args.days)
            for name in ("hacker_news", "stock_bands"):
                cases += pandas_project(name, f"sqlite:///{root / name}.db", args.days)
    print(report(cases, time.perf_counter() - start, args))


if __name__ == "__main__":
    main()
