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

__all__ = [
    "ColumnProfile",
    "ConfigError",
    "DriftMethod",
    "FaucetError",
    "JsonType",
    "NumericStats",
    "OnDrift",
    "PolicyConfig",
    "PolicyRule",
    "Profiler",
    "ProfilingConfig",
    "ProfilingInputError",
    "SketchError",
    "StoreCorruptError",
    "StoreError",
    "StringStats",
    "TableProfile",
    "TopValue",
    "ValueDetector",
    "load_profiling_config",
    "profile",
    "profiling_json_schema",
]
