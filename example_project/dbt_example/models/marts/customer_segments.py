"""A Python model: dbt runs it in DuckDB's Python process. No SQL, so no column lineage
can be derived from it: faucet treats the edges into it as opaque (impact: unknown)."""


def model(dbt, session):
    dbt.config(materialized="table")
    customers = dbt.ref("stg_customers").df()
    orders = dbt.ref("int_customer_orders").df()
    joined = customers.merge(orders, on="customer_id", how="left")
    joined["lifetime_value"] = joined["lifetime_value"].fillna(0.0)
    joined["segment"] = "new"
    joined.loc[joined["lifetime_value"] >= 200, "segment"] = "regular"
    joined.loc[joined["lifetime_value"] >= 600, "segment"] = "vip"
    return joined[["customer_id", "country", "segment", "lifetime_value"]]
