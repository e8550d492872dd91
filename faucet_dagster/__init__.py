"""faucet_dagster: faucet's profiling, drift checks and impact analysis for Dagster."""

from faucet_dagster.checks import (
    DEFAULT_CHECK_NAME,
    DEFAULT_FRESHNESS_CHECK_NAME,
    PartitionBaseline,
    ProfileLoadContext,
    build_freshness_checks,
    build_freshness_sensor,
    build_profile_checks,
    profiled_asset,
)
from faucet_dagster.component import ProfilingComponent
from faucet_dagster.lineage.sensor import build_lineage_sensor
from faucet_dagster.lineage.sql import sql_lineage_metadata
from faucet_dagster.notifications import (
    JsonWebhook,
    SlackBot,
    SlackWebhook,
    build_drift_notification_sensor,
)
from faucet_dagster.resources import FaucetResource

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
