"""The example project's orders pipeline with its declared column lineage removed: the
same four assets and the same profile checks, but ``orders`` no longer states
``dagster/column_lineage``. What ``faucet plan --impact`` still knows comes from the SQL
``revenue_by_region`` runs and from what the profiles let faucet infer.

The example's package (``example_project/src``) must be importable. No ``from __future__
import annotations``: Dagster inspects the annotations.
"""

import dagster as dg
from faucet_example.defs import assets as example

from faucet_dagster import FaucetResource, build_profile_checks


def _undeclared(spec: dg.AssetSpec) -> dg.AssetSpec:
    metadata = {k: v for k, v in spec.metadata.items() if k != "dagster/column_lineage"}
    return spec.replace_attributes(metadata=metadata)


orders = example.orders.map_asset_specs(_undeclared)
profiled = [example.raw_orders, orders, example.revenue_by_region]

defs = dg.Definitions(
    assets=[*profiled, example.regional_report],
    asset_checks=build_profile_checks(profiled, config={"min_history": 5}),
    resources={"faucet": FaucetResource()},  # the store: FAUCET_STORE_URL
    executor=dg.in_process_executor,
)
