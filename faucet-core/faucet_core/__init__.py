"""faucet_core: the orchestrator-agnostic engine of faucet (it never imports dagster).

The public names below are imported on first use (PEP 562), so that a process which only
needs one part (profiling a SQL table, streaming a Parquet file) does not pay for the
others: the store's SQLAlchemy models, the drift detector, pyarrow. ``from faucet_core
import X`` and ``faucet_core.X`` work as before.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_SOURCES = {
    "faucet_core.config": (
        "DriftMethod",
        "OnDrift",
        "PolicyConfig",
        "PolicyRule",
        "ProfilingConfig",
        "ValueDetector",
        "load_profiling_config",
        "profiling_json_schema",
    ),
    "faucet_core.drift": ("DriftFinding", "DriftMetric", "detect_drift"),
    "faucet_core.errors": (
        "ConfigError",
        "FaucetError",
        "ProfilingInputError",
        "SketchError",
        "StoreCorruptError",
        "StoreError",
    ),
    "faucet_core.profile": (
        "ColumnProfile",
        "JsonType",
        "NumericStats",
        "Profiler",
        "StringStats",
        "TableProfile",
        "TopValue",
    ),
    "faucet_core.store": ("ProfileRun", "ProfileStore", "ProfilingOutcome", "RunStatus"),
}
_MODULE_OF = {name: module for module, names in _SOURCES.items() for name in names}

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

# ``faucet_core.profile`` is the subpackage, and calling it profiles (its module type has a
# ``__call__``): ``faucet_core.profile(df)`` and ``from faucet_core import profile`` work as
# documented, and ``import faucet_core.profile as p`` is the package. Its own __init__ is
# lazy, so this import is cheap.
importlib.import_module("faucet_core.profile")


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'faucet_core' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
