"""The merge gate never breaks on unchanged code (property test).

For generated Dagster projects (random assets and deps; a declared column schema, a
partial column lineage or nothing; contracts; the warehouse's and the code's spellings of
each type drawn independently, as dbt and a warehouse spell them), every asset is recorded
as its last materialization would record it, then the unchanged project is planned: no
dataset may be ``breaking`` or ``additive``.
"""

from __future__ import annotations

import datetime as dt
import tempfile
from dataclasses import dataclass
from pathlib import Path

import dagster as dg
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faucet_core.catalog import Catalog
from faucet_core.impact import ImpactSeverity
from faucet_dagster.lineage.record import asset_run_record
from faucet_dagster.plan.impact import plan_change_impact

SPELLINGS = {
    "string": ["varchar", "VARCHAR", "text", "TEXT", "character varying(256)", "varchar(256)"],
    "int32": ["integer", "INTEGER", "int", "INT", "int4"],
    "int64": ["bigint", "BIGINT", "int8", "INT8"],
    "double": ["double", "DOUBLE", "double precision", "float8"],
    "decimal": ["numeric(12,2)", "decimal(12, 2)", "NUMERIC(12,2)", "numeric", "DECIMAL"],
    "date": ["date", "DATE"],
    "timestamp": ["timestamp", "TIMESTAMP", "timestamp without time zone"],
    "timestamptz": ["timestamptz", "timestamp with time zone", "TIMESTAMPTZ"],
    "boolean": ["boolean", "BOOLEAN", "bool"],
}
MEANINGS = sorted(SPELLINGS)
KINDS = ["duckdb", "postgres"]
WHEN = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)


@dataclass(frozen=True)
class Column:
    name: str
    meaning: str
    recorded: str
    """What the warehouse reports (the materialization's column schema)."""
    declared: str
    """What the code declares (a dbt yml's data_type, a TableColumn's type)."""
    origin: str | None
    """The parent column it copies (declared in the column lineage), or None."""


@dataclass(frozen=True)
class Asset:
    name: str
    kind: str
    parent: int | None
    plan: str
    """``declared`` (a column schema), ``lineage`` (a partial column lineage) or ``none``."""
    columns: tuple[Column, ...]
    contract: tuple[str, ...]


@st.composite
def projects(draw: st.DrawFn) -> list[Asset]:
    assets: list[Asset] = []
    for i in range(draw(st.integers(1, 5))):
        parent = draw(st.none() | st.integers(0, i - 1)) if i else None
        plan = draw(st.sampled_from(["declared", "lineage", "none"]))
        columns = []
        if parent is not None:  # columns copied from the parent: same meaning, any spelling
            for up in draw(st.lists(st.sampled_from(assets[parent].columns), unique=True)):
                recorded = draw(st.sampled_from(SPELLINGS[up.meaning]))
                declared = draw(st.sampled_from(SPELLINGS[up.meaning]))
                columns.append(Column(f"c_{up.name}", up.meaning, recorded, declared, up.name))
        for j in range(draw(st.integers(0 if columns else 1, 3))):  # an index, a loaded_at
            meaning = draw(st.sampled_from(MEANINGS))
            recorded = draw(st.sampled_from(SPELLINGS[meaning]))
            declared = draw(st.sampled_from(SPELLINGS[meaning]))
            columns.append(Column(f"own{j}", meaning, recorded, declared, None))
        names = [c.name for c in columns]
        contract = tuple(draw(st.lists(st.sampled_from(names), unique=True, max_size=2)))
        kind = draw(st.sampled_from(KINDS))
        assets.append(Asset(f"a{i}", kind, parent, plan, tuple(columns), contract))
    return assets


def _schema(columns: tuple[Column, ...], *, declared: bool) -> dg.TableSchema:
    return dg.TableSchema(
        columns=[dg.TableColumn(c.name, c.declared if declared else c.recorded) for c in columns]
    )


def _lineage(asset: Asset) -> dg.TableColumnLineage:
    parent = dg.AssetKey(f"a{asset.parent}")
    return dg.TableColumnLineage(
        deps_by_column={
            c.name: [dg.TableColumnDep(parent, c.origin)] for c in asset.columns if c.origin
        }
    )


def _defs(assets: list[Asset]) -> dg.Definitions:
    specs = []
    for a in assets:
        metadata: dict[str, object] = {
            "dagster/table_name": f"shop.public.{a.name}",
            "dagster/storage_kind": a.kind,
        }
        if a.plan == "declared":
            metadata["dagster/column_schema"] = _schema(a.columns, declared=True)
        if a.plan == "lineage" and a.parent is not None:
            metadata["dagster/column_lineage"] = _lineage(a)
        if a.contract:
            metadata["faucet/contract"] = {"version": "1", "columns": list(a.contract)}
        deps = [f"a{a.parent}"] if a.parent is not None else []
        specs.append(dg.AssetSpec(a.name, deps=deps, metadata=metadata))
    return dg.Definitions(assets=specs)


def _record(catalog: Catalog, defs: dg.Definitions, assets: list[Asset]) -> None:
    """Each asset's last materialization: the warehouse's column schema as event metadata."""
    graph = defs.resolve_asset_graph()
    records = [
        asset_run_record(
            graph,
            dg.AssetKey(a.name),
            run_id=f"run-{a.name}",
            when=WHEN + dt.timedelta(minutes=i),
            metadata={"dagster/column_schema": _schema(a.columns, declared=False)},
        )
        for i, a in enumerate(assets)
    ]
    catalog.record(records)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(projects())
def test_planning_an_unchanged_project_finds_no_break_and_no_addition(
    assets: list[Asset],
) -> None:
    defs = _defs(assets)
    with (
        tempfile.TemporaryDirectory() as folder,
        Catalog(f"sqlite:///{Path(folder) / 'catalog.db'}") as catalog,
    ):
        _record(catalog, defs, assets)
        change = plan_change_impact(catalog, defs, [a.name for a in assets])
    found = {
        (
            plan.asset,
            a.dataset,
            a.severity.value,
            tuple(f"{c.column} {c.label}" for c in plan.report.schema_delta),
        )
        for plan in change.plans
        if plan.report is not None
        for a in plan.report.affected
        if a.severity in (ImpactSeverity.BREAKING, ImpactSeverity.ADDITIVE)
    }
    assert found == set()
    assert all(p.report is not None for p in change.plans)  # every asset has a recorded run
