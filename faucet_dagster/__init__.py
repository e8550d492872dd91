"""faucet_dagster: faucet's profiling, drift checks and impact analysis for Dagster."""

from faucet_dagster.checks import DEFAULT_CHECK_NAME, build_profile_checks
from faucet_dagster.component import ProfilingComponent
from faucet_dagster.evaluate import PartitionBaseline
from faucet_dagster.loading import ProfileLoadContext
from faucet_dagster.resources import FaucetResource

__all__ = [
    "DEFAULT_CHECK_NAME",
    "FaucetResource",
    "PartitionBaseline",
    "ProfileLoadContext",
    "ProfilingComponent",
    "build_profile_checks",
]
