"""The metadata keys faucet reads and writes on Dagster definitions and check results, in
one place, and a typed reader of a check result's keys (as Dagster's ``TableMetadataSet``
reads its own).

Nothing here imports another faucet_dagster module: every part of the package may use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import dagster as dg

__all__ = [
    "BASELINE_KEY",
    "BASELINE_RUNS",
    "CLASSIFIED",
    "COLUMN_LINEAGE",
    "COLUMN_SCHEMA",
    "CONFIG",
    "CONTRACT",
    "DAGSTER_COLUMN_LINEAGE",
    "DATASET",
    "DEADLINE",
    "DROPS",
    "EPISODE",
    "ERROR",
    "ERROR_STATUS",
    "FINDINGS",
    "FINDING_COUNT",
    "FRESHNESS",
    "KIND",
    "LAG_SECONDS",
    "LAST_UPDATE",
    "LAST_UPDATED_TIMESTAMP",
    "MIN_HISTORY",
    "NEXT_PARTITION",
    "NULL_RATE_SUFFIX",
    "NUMBERS_LEFT_OUT",
    "ON_DRIFT",
    "ON_OVERDUE",
    "PARTITIONS",
    "RENAMES",
    "ROW_COUNT",
    "SCHEMA_CHANGE",
    "SCHEMA_CHANGES",
    "SKIPPED_RUNS",
    "STATUS",
    "SUMMARY",
    "WARMING",
    "CheckResultMetadata",
    "unwrap",
]

# -- on a check's definition (its spec) ---------------------------------------------------
CONFIG = "faucet/config"  # the profile check's ProfilingConfig as JSON; marks a faucet check
ON_DRIFT = "faucet/on_drift"  # warn / notify / fail (spec and every result of a profile check)
FRESHNESS = "faucet/freshness"  # spec: the FreshnessConfig; result: the verdict, as JSON
KIND = "faucet/kind"  # "freshness" on a freshness check's spec and results
ON_OVERDUE = "faucet/on_overdue"  # a freshness check's on_overdue (spec and results)

# -- on a profile check's result ------------------------------------------------------------
STATUS = "faucet/status"  # the run's status (ok, drifted, warming, ...; "error": see below)
BASELINE_RUNS = "faucet/baseline_runs"  # how many runs the baseline held, as text
MIN_HISTORY = "faucet/min_history"  # the config's min_history, as text
FINDING_COUNT = "faucet/finding_count"  # the number of drift findings
FINDINGS = "faucet/findings"  # the drift findings as JSON (DriftFinding.to_dict, + partition)
ROW_COUNT = "faucet/row_count"  # the profiled row count
CLASSIFIED = "faucet/classified"  # the columns the policy classified (values withheld)
BASELINE_KEY = "faucet/baseline_key"  # the store key the run was recorded under
WARMING = "faucet/warming"  # why the baseline is still warming up
SCHEMA_CHANGE = "faucet/schema_change"  # the schema change against the previous run, as text
SCHEMA_CHANGES = "faucet/schema_changes"  # the same change, one JSON entry per column
SKIPPED_RUNS = "faucet/skipped_runs"  # damaged baseline runs left out of the comparison
PARTITIONS = "faucet/partitions"  # the partitions the evaluation covered
NUMBERS_LEFT_OUT = "faucet/numbers_left_out"  # columns whose numbers were not plotted
SUMMARY = "summary"  # the markdown summary of the profile
NULL_RATE_SUFFIX = ".null_rate"  # "<column>.null_rate": one plotted number per column
ERROR = "faucet/error"  # why the check could not profile or record (redacted text)
ERROR_STATUS = "error"
"""``faucet/status`` of an evaluation whose check could not profile or record."""

# -- on a freshness check's result ---------------------------------------------------------
LAST_UPDATE = "faucet/last_update"  # when the data last changed (ISO text, "" when never)
DEADLINE = "faucet/deadline"  # when the next update is due (ISO text, "" when unknown)
LAG_SECONDS = "faucet/lag_seconds"  # how late the asset is
EPISODE = "faucet/episode"  # "overdue" / "recovered" on the evaluation that opens / closes one
NEXT_PARTITION = "faucet/next_partition"  # the time partition expected next

# -- on an asset's definition or materialization ---------------------------------------------
DATASET = "faucet/dataset"  # the asset's catalog dataset: a URI or {namespace, name}
CONTRACT = "faucet/contract"  # the data contract: {"version": ..., "columns": [...]}
COLUMN_LINEAGE = "faucet/column_lineage"  # sql_lineage_metadata's typed column lineage
RENAMES = "faucet/renames"  # {"old": "new"}: columns the new code renames (impact planning)
DROPS = "faucet/drops"  # ["col", ...]: columns the new code drops on purpose (impact planning)

# -- Dagster's own keys faucet reads or writes -------------------------------------------------
COLUMN_SCHEMA = "dagster/column_schema"  # a TableSchema: the asset's (or a type's) columns
DAGSTER_COLUMN_LINEAGE = "dagster/column_lineage"  # a TableColumnLineage
LAST_UPDATED_TIMESTAMP = "dagster/last_updated_timestamp"  # when the data last changed


def unwrap(value: Any) -> Any:
    """A metadata value as plain Python (event metadata comes wrapped in a
    ``MetadataValue``, definition metadata may be raw)."""
    if isinstance(value, dg.MetadataValue):
        return value.value
    return value


@dataclass(frozen=True)
class CheckResultMetadata:
    """The faucet keys of one check evaluation's metadata, unwrapped (None: absent)."""

    has_status: bool
    """``faucet/status`` is present: the evaluation is a faucet check's."""
    status: Any = None
    on_drift: Any = None
    findings: Any = None
    classified: Any = None
    schema_change: Any = None
    error: Any = None
    episode: Any = None
    last_update: Any = None

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, Any] | None) -> CheckResultMetadata:
        md = metadata or {}
        return cls(
            has_status=STATUS in md,
            status=unwrap(md.get(STATUS)),
            on_drift=unwrap(md.get(ON_DRIFT)),
            findings=unwrap(md.get(FINDINGS)),
            classified=unwrap(md.get(CLASSIFIED)),
            schema_change=unwrap(md.get(SCHEMA_CHANGE)),
            error=unwrap(md.get(ERROR)),
            episode=unwrap(md.get(EPISODE)),
            last_update=unwrap(md.get(LAST_UPDATE)),
        )

    @property
    def is_error(self) -> bool:
        """The check could not profile or record (``faucet/status: error``)."""
        return bool(self.status == ERROR_STATUS)
