"""A profile check that cannot do its work reports it; it does not crash the run.

The check's faults (store unreachable or busy, loader or IO manager errors, input the
profiler rejects) become one failed evaluation carrying ``faucet/status: error`` and the
error text. Its severity follows ``on_drift``: WARN for ``warn`` and ``notify`` (the run
succeeds), ERROR for ``fail`` (the check is blocking, so the run fails and its downstream
assets do not materialize).
"""

from __future__ import annotations

import dagster as dg

from faucet_core.config import OnDrift, ProfilingConfig

__all__ = ["ERROR_STATUS", "error_result"]

ERROR_STATUS = "error"
"""``faucet/status`` of an evaluation whose check could not profile or record."""


def error_result(config: ProfilingConfig, text: str) -> dg.AssetCheckResult:
    """The evaluation of a check that could not profile or record this materialization."""
    blocking = config.on_drift is OnDrift.FAIL
    severity = dg.AssetCheckSeverity.ERROR if blocking else dg.AssetCheckSeverity.WARN
    text = text.strip()
    return dg.AssetCheckResult(
        passed=False,
        severity=severity,
        description=f"faucet could not check this materialization: {text}",
        metadata={
            "faucet/status": ERROR_STATUS,
            "faucet/error": dg.MetadataValue.text(text),
            "faucet/on_drift": config.on_drift.value,
            "faucet/finding_count": 0,
            "faucet/findings": dg.MetadataValue.json([]),
        },
    )
