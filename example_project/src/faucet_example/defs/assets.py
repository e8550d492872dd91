"""Four assets: raw orders (pandas), cleaned orders (pandas), revenue by region (polars) and
the regional report built from it, which must not go out when revenue drifted."""

import dagster as dg
import pandas as pd
import polars as pl
from faucet_example.source import current_day, orders_for_day

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


@dg.asset(owners=["team:analytics"], group_name="orders", kinds={"polars"})
def revenue_by_region(orders: pd.DataFrame) -> pl.DataFrame:
    """Paid revenue and order count per region for the day."""
    frame = pl.from_pandas(orders)
    return (
        frame.filter(pl.col("status") == "paid")
        .group_by("region")
        .agg(pl.col("amount").sum().alias("revenue"), pl.len().alias("orders"))
        .sort("region")
    )


@dg.asset(owners=["team:finance"], group_name="orders", kinds={"polars"})
def regional_report(revenue_by_region: pl.DataFrame) -> pl.DataFrame:
    """Each region's share of the day's paid revenue, as finance receives it. The profile
    check of ``revenue_by_region`` is blocking (``on_drift: fail``): when revenue drifts the
    run fails before this report is built."""
    total = revenue_by_region["revenue"].sum()
    return revenue_by_region.with_columns((pl.col("revenue") / total).alias("share"))
