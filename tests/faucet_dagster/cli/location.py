"""A tiny code location for the CLI tests: two profiled assets, one not profiled."""

import os

import dagster as dg
import pandas as pd

from faucet_dagster import FaucetResource, build_profile_checks


@dg.asset
def orders() -> pd.DataFrame:
    return pd.DataFrame({"amount": [1.0, 2.0], "region": ["eu", "us"]})


@dg.asset
def customers() -> pd.DataFrame:
    return pd.DataFrame({"id": [1, 2]})


@dg.asset
def unprofiled() -> pd.DataFrame:
    return pd.DataFrame({"x": [1]})


defs = dg.Definitions(
    assets=[orders, customers, unprofiled],
    asset_checks=build_profile_checks(
        [orders, customers], config={"min_history": 3}, asset_configs={"customers": {}}
    ),
    resources={"faucet": FaucetResource(store_url=os.environ.get("CLI_TEST_STORE"))},
)
