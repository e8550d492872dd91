"""faucet_dagster: faucet's profiling, drift checks and impact analysis for Dagster."""

from faucet_dagster.checks import DEFAULT_CHECK_NAME, build_profile_checks
from faucet_dagster.component import ProfilingComponent
from faucet_dagster.evaluate import PartitionBaseline
from faucet_dagster.freshness import (
    DEFAULT_FRESHNESS_CHECK_NAME,
    build_freshness_checks,
    build_freshness_sensor,
)
from faucet_dagster.in_step import profiled_asset
from faucet_dagster.lineage.sensor import build_lineage_sensor
from faucet_dagster.lineage.sql import sql_lineage_metadata
from faucet_dagster.loading import ProfileLoadContext
from faucet_dagster.resources import FaucetResource
from faucet_dagster.sensors import (
    JsonWebhook,
    SlackBot,
    SlackWebhook,
    build_drift_notification_sensor,
)

__all__ = [
    "DEFAULT_CHECK_NAME",
    "DEFAULT_FRESHNESS_CHECK_NAME",
    "FaucetResource",
    "JsonWebhook",
    "PartitionBaseline",
    "ProfileLoadContext",
    "ProfilingComponent",
    "SlackBot",
    "SlackWebhook",
    "build_drift_notification_sensor",
    "build_freshness_checks",
    "build_freshness_sensor",
    "build_lineage_sensor",
    "build_profile_checks",
    "profiled_asset",
    "sql_lineage_metadata",
]
