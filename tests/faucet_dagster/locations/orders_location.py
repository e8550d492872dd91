"""A code location for the subprocess tests: ``orders`` (then ``report``) with a profile check.

The day's data comes from ``FAUCET_TEST_DAY`` and ``FAUCET_TEST_NULL_SHARE``; the store from
``FAUCET_STORE_URL`` (what ``FaucetResource()`` reads when no ``store_url`` is given);
``FAUCET_TEST_ON_DRIFT`` picks the check's ``on_drift``.
"""

import os
import random

import dagster as dg
import pandas as pd

from faucet_dagster import FaucetResource, build_profile_checks

ROWS = 400
MIN_HISTORY = 3


def orders_frame(day: int, null_share: float) -> pd.DataFrame:
    rng = random.Random(day)
    amounts = [
        None if rng.random() < null_share else round(rng.uniform(10, 100), 2) for _ in range(ROWS)
    ]
    regions = [rng.choice(["eu", "us", "apac"]) for _ in range(ROWS)]
    return pd.DataFrame({"amount": amounts, "region": regions})


@dg.asset
def orders() -> pd.DataFrame:
    day = int(os.environ.get("FAUCET_TEST_DAY", "0"))
    return orders_frame(day, float(os.environ.get("FAUCET_TEST_NULL_SHARE", "0.01")))


@dg.asset
def report(orders: pd.DataFrame) -> int:
    return len(orders)


defs = dg.Definitions(
    assets=[orders, report],
    asset_checks=build_profile_checks(
        [orders],
        config={
            "min_history": MIN_HISTORY,
            "on_drift": os.environ.get("FAUCET_TEST_ON_DRIFT", "warn"),
        },
    ),
    resources={"faucet": FaucetResource()},
)
