"""faucet_core: the orchestrator-agnostic engine of faucet (it never imports dagster)."""

from faucet_core.config import (
    DriftMethod,
    OnDrift,
    PolicyConfig,
    PolicyRule,
    ProfilingConfig,
    ValueDetector,
    load_profiling_config,
    profiling_json_schema,
)
from faucet_core.drift import DriftFinding, DriftMetric, detect_drift
from faucet_core.errors import (
    ConfigError,
    FaucetError,
    ProfilingInputError,
    SketchError,
    StoreCorruptError,
    StoreError,
)
from faucet_core.profile import (
    ColumnProfile,
    JsonType,
    NumericStats,
    Profiler,
    StringStats,
    TableProfile,
    TopValue,
    profile,
)
from faucet_core.store import ProfileRun, ProfileStore, ProfilingOutcome, RunStatus

__all__ = [
    "ColumnProfile",
    "ConfigError",
    "DriftFinding",
    "DriftMethod",
    "DriftMetric",
    "FaucetError",
    "JsonType",
    "NumericStats",
    "OnDrift",
    "PolicyConfig",
    "PolicyRule",
    "ProfileRun",
    "ProfileStore",
    "Profiler",
    "ProfilingConfig",
    "ProfilingInputError",
    "ProfilingOutcome",
    "RunStatus",
    "SketchError",
    "StoreCorruptError",
    "StoreError",
    "StringStats",
    "TableProfile",
    "TopValue",
    "ValueDetector",
    "detect_drift",
    "load_profiling_config",
    "profile",
    "profiling_json_schema",
]
