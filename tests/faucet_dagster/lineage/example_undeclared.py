"""The example project's orders pipeline with its declared column lineage removed: the
same four assets and the same profile checks, but ``orders`` no longer states
``dagster/column_lineage``. What ``faucet plan --impact`` still knows comes from the SQL
``revenue_by_region`` runs and from what the profiles let faucet infer.

The example's package is imported from ``example_project/src``. No ``from __future__
import annotations``: Dagster inspects the annotations.
"""

import sys
from pathlib import Path

import dagster as dg
import pandas as pd

from faucet_dagster import FaucetResource, build_profile_checks

_SRC = str(Path(__file__).resolve().parents[3] / "example_project" / "src")
if _SRC not in sys.path:
    sys.path.insert(0, _SRC)

from faucet_example.defs import assets as example  # noqa: E402


@dg.asset(
    owners=["team:analytics", "ana@example.com"],
    group_name="orders",
    kinds={"pandas"},
    metadata={"dagster/column_schema": example.CLEAN_SCHEMA},  # no dagster/column_lineage
)
def orders(raw_orders: pd.DataFrame) -> pd.DataFrame:
    """The example's ``orders``, computed by the example's own code."""
    return example.orders(raw_orders)


profiled = [example.raw_orders, orders, example.revenue_by_region]

defs = dg.Definitions(
    assets=[*profiled, example.regional_report],
    asset_checks=build_profile_checks(profiled, config={"min_history": 5}),
    resources={"faucet": FaucetResource()},  # the store: FAUCET_STORE_URL
    executor=dg.in_process_executor,
)
