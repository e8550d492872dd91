"""Orders joined to customers, no column lineage declared anywhere: ``order_lines`` (a
left join from the orders: it keeps their rows) and ``big_orders`` (the same join,
filtered: it keeps neither side's rows). Both carry ``customer_id``, which equals the key
of either input. One run is one day (``FAUCET_TEST_DAY``), seeded.

No ``from __future__ import annotations``: Dagster inspects the annotations."""

import os

import dagster as dg
import numpy as np
import pandas as pd

from faucet_dagster import FaucetResource, build_profile_checks


def _day() -> int:
    return int(os.environ.get("FAUCET_TEST_DAY", "1"))


@dg.asset
def orders() -> pd.DataFrame:
    rng = np.random.default_rng(_day())
    rows = 2500 + 100 * _day()
    return pd.DataFrame(
        {
            "order_id": np.arange(_day() * 100_000, _day() * 100_000 + rows),
            "customer_id": rng.integers(1000, 1000 + 300 + 10 * _day(), rows),
            "amount": np.round(rng.lognormal(3, 0.5, rows), 2),
        }
    )


@dg.asset
def customers() -> pd.DataFrame:
    rng = np.random.default_rng(50 + _day())
    ids = np.arange(1000, 1000 + 300 + 10 * _day())
    return pd.DataFrame(
        {
            "customer_id": ids,
            "country": rng.choice(["de", "fr", "us", "jp", "br", "in"], len(ids)),
        }
    )


@dg.asset
def order_lines(orders: pd.DataFrame, customers: pd.DataFrame) -> pd.DataFrame:
    return orders.merge(customers, on="customer_id", how="left")


@dg.asset
def big_orders(orders: pd.DataFrame, customers: pd.DataFrame) -> pd.DataFrame:
    joined = orders.merge(customers, on="customer_id", how="left")
    return joined[joined["amount"] > 25].reset_index(drop=True)


assets = [orders, customers, order_lines, big_orders]

defs = dg.Definitions(
    assets=assets,
    asset_checks=build_profile_checks(assets, config={"min_history": 5}),
    resources={"faucet": FaucetResource()},  # the store: FAUCET_STORE_URL
    executor=dg.in_process_executor,
)
