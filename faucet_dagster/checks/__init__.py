"""The faucet checks on Dagster assets: building the profile checks (a separate check per
asset, or in the asset's own step), what a check does when it runs (load, profile,
record, summarize), and the learned freshness checks with their sensor."""

from faucet_dagster.checks.build import DEFAULT_CHECK_NAME, build_profile_checks
from faucet_dagster.checks.evaluate import PartitionBaseline
from faucet_dagster.checks.freshness import (
    DEFAULT_FRESHNESS_CHECK_NAME,
    build_freshness_checks,
    build_freshness_sensor,
)
from faucet_dagster.checks.in_step import profiled_asset
from faucet_dagster.checks.loading import ProfileLoadContext

__all__ = [
    "DEFAULT_CHECK_NAME",
    "DEFAULT_FRESHNESS_CHECK_NAME",
    "PartitionBaseline",
    "ProfileLoadContext",
    "build_freshness_checks",
    "build_freshness_sensor",
    "build_profile_checks",
    "profiled_asset",
]
