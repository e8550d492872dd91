"""``sql_lineage_metadata`` on real materializations: assets that run their SQL in DuckDB
attach the derived lineage; the catalog records it on the edges it is complete for and
leaves the others opaque; bad arguments are one clear error.

No ``from __future__ import annotations``: Dagster inspects the annotations."""

import datetime as dt
from pathlib import Path

import dagster as dg
import duckdb
import pytest

from faucet_core.catalog import Catalog, CatalogConfig
from faucet_core.errors import CatalogError, ConfigError
from faucet_dagster import sql_lineage_metadata
from faucet_dagster.lineage.record import record_in_catalog

CUSTOMERS = "postgres://db:5432/shop.public.customers"
ORDERS_SCHEMA = dg.TableSchema(
    columns=[
        dg.TableColumn("id", "integer"),
        dg.TableColumn("customer_id", "integer"),
        dg.TableColumn("amount", "double"),
    ]
)


def _defs(db: str) -> dg.Definitions:
    @dg.asset(metadata={"dagster/column_schema": ORDERS_SCHEMA})
    def orders() -> None:
        with duckdb.connect(db) as conn:
            conn.execute(
                "create or replace table orders as select range as id, range % 7 as customer_id,"
                " range * 1.5 as amount from range(50)"
            )
            conn.execute(
                "create or replace table customers as select range as id, 'c' || range as name "
                "from range(7)"
            )

    @dg.asset(deps=[orders])
    def by_customer(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
        sql = """
        select c.name, sum(o.amount) as total
        from orders o join customers c on o.customer_id = c.id
        group by c.name
        """
        with duckdb.connect(db) as conn:
            conn.execute(f"create or replace table by_customer as {sql}")
        metadata = sql_lineage_metadata(
            sql, {"orders": "orders", "customers": CUSTOMERS}, dialect="duckdb", context=context
        )
        return dg.MaterializeResult(metadata=metadata)

    @dg.asset(deps=[orders])
    def broken(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
        sql = "select id from orders where"  # what sqlglot cannot parse is no lineage
        return dg.MaterializeResult(
            metadata=sql_lineage_metadata(sql, ["orders"], dialect="duckdb", context=context)
        )

    return dg.Definitions(assets=[orders, by_customer, broken])


def test_materialized_sql_lineage_is_recorded_where_complete(
    tmp_path: Path, instance: dg.DagsterInstance
) -> None:
    defs = _defs(str(tmp_path / "w.duckdb"))
    result = dg.materialize(defs.assets or [], instance=instance)
    assert result.success
    events = {
        e.materialization.asset_key: e.materialization
        for e in result.get_asset_materialization_events()
    }
    meta = events[dg.AssetKey("by_customer")].metadata
    # Dagster's own: only asset deps (the URI table has no asset key)
    lineage = meta["dagster/column_lineage"].value
    assert {
        c: [(d.asset_key.to_user_string(), d.column_name) for d in deps]
        for c, deps in lineage.deps_by_column.items()
    } == {
        "name": [],
        "total": [("orders", "amount")],
    }
    # customers' columns are not known: the output's types are not all known
    assert "dagster/column_schema" not in meta
    graph = defs.resolve_asset_graph()
    with Catalog(f"sqlite:///{tmp_path / 'c.db'}") as catalog:
        for key in (dg.AssetKey("by_customer"), dg.AssetKey("broken")):
            record_in_catalog(
                catalog, CatalogConfig(), graph, key, run_id=result.run_id,
                when=dt.datetime.now(dt.timezone.utc), metadata=events[key].metadata,
            )  # fmt: skip
        edges = {e.source_uri: e for e in catalog.detail("dagster://by_customer").upstream}
        assert set(edges) == {"dagster://orders", CUSTOMERS}
        # the table read by URI: every reference to it is qualified, so its lineage is whole
        from_uri = edges[CUSTOMERS].column_lineage
        assert from_uri is not None
        assert from_uri.as_map() == {"name": ["name"]}
        assert [i.field for i in from_uri.dataset] == ["id", "name"]  # join key, grouping
        edge = edges["dagster://orders"]
        assert edge.column_lineage is not None
        assert edge.column_lineage.to_json() == {
            "fields": {
                "total": [
                    {
                        "field": "amount",
                        "transformations": [{"type": "DIRECT", "subtype": "AGGREGATION"}],
                    }
                ]
            },
            "dataset": [
                {
                    "field": "customer_id",
                    "transformations": [{"type": "INDIRECT", "subtype": "JOIN"}],
                }
            ],
        }
        # the SQL could not be parsed: the edge stays opaque, nothing is guessed
        (opaque,) = catalog.detail("dagster://broken").upstream
        assert opaque.column_lineage is None
    error = events[dg.AssetKey("broken")].metadata["faucet/column_lineage"].value["error"]
    assert error.startswith("sqlglot cannot parse the SQL")


def test_schemas_expand_star_and_type_the_output() -> None:
    meta = sql_lineage_metadata(
        "select *, amount * 2 as double from t",
        {"t": dg.AssetKey(["raw", "t"])},
        schemas={"t": {"id": "int", "amount": "double"}},
        dialect="duckdb",
    )
    schema = meta["dagster/column_schema"]
    assert [(c.name, c.type) for c in schema.columns] == [
        ("id", "INT"),
        ("amount", "DOUBLE"),
        ("double", "DOUBLE"),
    ]
    deps = meta["dagster/column_lineage"].deps_by_column
    assert deps["double"] == [dg.TableColumnDep(dg.AssetKey(["raw", "t"]), "amount")]


@pytest.mark.parametrize(
    ("reads", "schemas", "message"),
    [
        ({"t": 3}, None, "table 't' maps to 3; give the asset key"),
        ({"": "a"}, None, "table name '' is not a name"),
        ("t", None, "reads is a str; give a mapping"),
        ({"t": "a"}, {"u": {"x": "int"}}, "schemas names 'u', which reads does not"),
    ],
)
def test_bad_arguments_are_one_clear_error(reads, schemas, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError) as info:
        sql_lineage_metadata("select 1", reads, schemas=schemas)
    assert message in str(info.value)


def test_a_bad_uri_is_named() -> None:
    with pytest.raises(CatalogError, match="dataset URI 'nope://' names nothing"):
        sql_lineage_metadata("select 1", {"t": "nope://"})
