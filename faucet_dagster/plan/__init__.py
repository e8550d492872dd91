"""Planning a change's impact over the code location's asset graph and the catalog
(``faucet plan --impact``, ``POST /v1/plan``, the console's impact page)."""

from faucet_dagster.plan.impact import (
    DROPS_KEY,
    RENAMES_KEY,
    asset_edges,
    plan_asset_impact,
    plan_change_impact,
    select_assets,
)

__all__ = [
    "DROPS_KEY",
    "RENAMES_KEY",
    "asset_edges",
    "plan_asset_impact",
    "plan_change_impact",
    "select_assets",
]
