"""faucet's SQL column lineage against dagster-dbt's, on the example dbt project's compiled
SQL: for every model, each output column reads the same upstream columns (dagster-dbt
lists the columns of a projection's expression; faucet lists the same, with their
transformation types, and the columns that filter, join and group the rows apart)."""

from __future__ import annotations

import json

import dagster as dg

from faucet_core.lineage import sql_lineage
from tests.faucet_dagster.dbt.project import BuiltProject


def _materializations(built: BuiltProject) -> dict[str, dg.AssetMaterialization]:
    """The first build's materializations by dbt unique id."""
    assert built.first is not None
    out = {}
    for event in built.first.get_asset_materialization_events():
        materialization = event.materialization
        out[materialization.metadata["unique_id"].value] = materialization
    return out


def test_every_model_matches_dagster_dbt(built: BuiltProject) -> None:
    events = _materializations(built)
    manifest = json.loads((built.folder / "target" / "manifest.json").read_text())
    nodes = {n["unique_id"]: n for n in manifest["nodes"].values()}
    # dagster-dbt runs each invocation in a target folder of its own
    assert built.first is not None
    (invocation,) = (built.folder / "target").glob(f"shop_dbt_assets-{built.first.run_id[:7]}-*")
    compared = 0
    for node in nodes.values():
        if node["resource_type"] != "model" or node["language"] != "sql":
            continue
        lineage = events[node["unique_id"]].metadata.get("dagster/column_lineage")
        assert lineage is not None, node["name"]
        parents = [nodes[p] for p in node["depends_on"]["nodes"]]
        schemas = {}
        for parent in parents:
            schema = events[parent["unique_id"]].metadata["dagster/column_schema"].value
            schemas[parent["relation_name"].replace('"', "")] = {
                c.name: c.type for c in schema.columns
            }
        compiled = invocation / "compiled" / node["package_name"]
        sql = (compiled / node["original_file_path"]).read_text()
        ours = sql_lineage(sql, dialect="duckdb", schemas=schemas)
        assert ours.known, (node["name"], ours.error)
        assert not ours.opaque, node["name"]
        assert not ours.unresolved, node["name"]
        by_relation = {p["relation_name"].replace('"', ""): p["name"] for p in parents}
        mine = {
            column: {(by_relation[s.table], s.column) for s in sources}
            for column, sources in ours.fields.items()
        }
        theirs = {
            column: {(d.asset_key.path[-1], d.column_name) for d in deps}
            for column, deps in lineage.value.deps_by_column.items()
        }
        assert mine == theirs, node["name"]
        schema = events[node["unique_id"]].metadata["dagster/column_schema"].value
        assert [c.name for c in ours.columns] == [c.name for c in schema.columns]
        compared += 1
    assert compared == 8
