"""Dagster <-> the faucet catalog and OpenLineage: the asset graph and materializations
into the catalog, RunEvents out (schema, column lineage, check results as data-quality
assertions). See docs/catalog.md."""

from faucet_dagster.lineage.mapping import (
    CONTRACT_KEY,
    DAGSTER_NAMESPACE,
    DATASET_KEY,
    URI_KEY,
    asset_dataset,
    asset_job,
    contract_of,
)
from faucet_dagster.lineage.openlineage import (
    check_assertions,
    check_events,
    materialization_events,
)
from faucet_dagster.lineage.record import (
    SyncSummary,
    asset_run_record,
    record_materialization_lineage,
    sync_definitions,
)
from faucet_dagster.lineage.sensor import (
    DEFAULT_SENSOR_NAME,
    build_lineage_sensor,
)
from faucet_dagster.lineage.sql import FAUCET_LINEAGE_KEY, sql_lineage_metadata

__all__ = [
    "CONTRACT_KEY",
    "DAGSTER_NAMESPACE",
    "DATASET_KEY",
    "DEFAULT_SENSOR_NAME",
    "FAUCET_LINEAGE_KEY",
    "URI_KEY",
    "SyncSummary",
    "asset_dataset",
    "asset_job",
    "asset_run_record",
    "build_lineage_sensor",
    "check_assertions",
    "check_events",
    "contract_of",
    "materialization_events",
    "record_materialization_lineage",
    "sql_lineage_metadata",
    "sync_definitions",
]
