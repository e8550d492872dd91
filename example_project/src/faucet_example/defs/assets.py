"""Four assets: raw orders (pandas), cleaned orders (pandas), revenue by region (SQL in
DuckDB, as polars) and the regional report built from it, which must not go out when
revenue drifted."""

import dagster as dg
import duckdb
import pandas as pd
import polars as pl
from faucet_example.source import current_day, orders_for_day

from faucet_dagster import sql_lineage_metadata

REVENUE_SQL = """
select region, sum(amount) as revenue, count(*) as orders
from orders
where status = 'paid'
group by region
order by region
"""

CLEAN_SCHEMA = dg.TableSchema(
    columns=[
        dg.TableColumn("order_id", "integer"),
        dg.TableColumn("region", "string"),
        dg.TableColumn("status", "string"),
        dg.TableColumn("amount", "number"),
        dg.TableColumn("ordered_at", "string"),
    ]
)


@dg.asset(owners=["team:ingest"], group_name="orders", kinds={"pandas"})
def raw_orders() -> pd.DataFrame:
    """One day of orders as the upstream system delivered them."""
    return orders_for_day(current_day())


@dg.asset(
    owners=["team:analytics", "ana@example.com"],
    group_name="orders",
    kinds={"pandas"},
    metadata={
        "dagster/column_schema": CLEAN_SCHEMA,
        "dagster/column_lineage": dg.TableColumnLineage(
            deps_by_column={
                name: [dg.TableColumnDep(asset_key=dg.AssetKey("raw_orders"), column_name=name)]
                for name in ("order_id", "region", "status", "amount", "ordered_at")
            }
        ),
    },
)
def orders(raw_orders: pd.DataFrame) -> pd.DataFrame:
    """Orders without customer contact data."""
    return raw_orders.drop(columns=["customer_email"])


@dg.asset(owners=["team:analytics"], group_name="orders", kinds={"duckdb", "polars"})
def revenue_by_region(context: dg.AssetExecutionContext, orders: pd.DataFrame) -> pl.DataFrame:
    """Paid revenue and order count per region for the day, in SQL. Its column lineage
    (revenue <- orders.amount, filtered by status, grouped by region) is derived from the
    SQL it runs, not written by hand."""
    with duckdb.connect() as conn:
        conn.register("orders", orders)
        result = conn.sql(REVENUE_SQL).pl()
    context.add_output_metadata(
        sql_lineage_metadata(REVENUE_SQL, {"orders": "orders"}, dialect="duckdb", context=context)
    )
    return result


@dg.asset(owners=["team:finance"], group_name="orders", kinds={"polars"})
def regional_report(revenue_by_region: pl.DataFrame) -> pl.DataFrame:
    """Each region's share of the day's paid revenue, as finance receives it. The profile
    check of ``revenue_by_region`` is blocking (``on_drift: fail``): when revenue drifts the
    run fails before this report is built."""
    total = revenue_by_region["revenue"].sum()
    return revenue_by_region.with_columns((pl.col("revenue") / total).alias("share"))
