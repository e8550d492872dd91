"""A small asset graph for the lineage tests.

``raw_orders`` (external, a PostgreSQL table) -> ``orders`` (schema, column lineage,
owners, a contract; profiled) -> ``report`` (no column lineage: opaque).

No ``from __future__ import annotations``: Dagster inspects the ``context`` annotation.
"""

import dagster as dg
import pandas as pd

from faucet_dagster import FaucetResource, build_profile_checks

RAW_URI = "postgres://shop.raw.orders"

raw_orders = dg.AssetSpec(
    "raw_orders",
    metadata={"dagster/table_name": "shop.raw.orders", "dagster/storage_kind": "postgres"},
)

ORDERS_SCHEMA = dg.TableSchema(
    columns=[dg.TableColumn("id", "integer"), dg.TableColumn("total", "float")]
)


@dg.asset(
    deps=[raw_orders],
    owners=["team:sales"],
    metadata={
        "dagster/column_schema": ORDERS_SCHEMA,
        "faucet/contract": {"version": 3, "columns": ["id", "total"]},
    },
)
def orders(context: dg.AssetExecutionContext) -> pd.DataFrame:
    context.add_output_metadata(
        {
            "dagster/column_lineage": dg.TableColumnLineage(
                deps_by_column={
                    "id": [dg.TableColumnDep(dg.AssetKey("raw_orders"), "order_id")],
                    "total": [
                        dg.TableColumnDep(dg.AssetKey("raw_orders"), "amount"),
                        dg.TableColumnDep(dg.AssetKey("raw_orders"), "discount"),
                    ],
                }
            )
        }
    )
    return pd.DataFrame({"id": range(50), "total": [float(i) for i in range(50)]})


@dg.asset
def report(orders: pd.DataFrame) -> int:
    return len(orders)


checks = build_profile_checks([orders])


def definitions(store_url: str, **resource: object) -> dg.Definitions:
    return dg.Definitions(
        assets=[raw_orders, orders, report],
        asset_checks=checks,
        resources={"faucet": FaucetResource(store_url=store_url, **resource)},  # type: ignore[arg-type]
    )
