"""A profile check that cannot do its work reports it; it does not crash the run.

The check's faults (store unreachable or busy, loader or IO manager errors, input the
profiler rejects) become one failed evaluation carrying ``faucet/status: error`` and the
error text. Its severity follows ``on_drift``: WARN for ``warn`` and ``notify`` (the run
succeeds), ERROR for ``fail`` (the check is blocking, so the run fails and its downstream
assets do not materialize).

Each such evaluation also adds one to ``faucet_check_errors_total{asset, on_drift}`` in the
store, best-effort (:func:`count_error`): when the store itself is the fault the count is
lost, and the shipped stalled-baseline alert covers that case.
"""

from __future__ import annotations

from typing import Any

import dagster as dg

import faucet_dagster.metadata as md
from faucet_core.config import OnDrift, ProfilingConfig
from faucet_core.redact import redact
from faucet_core.store.metrics import count_check_error
from faucet_dagster.metadata import ERROR_STATUS

__all__ = ["ERROR_STATUS", "count_error", "error_result"]


def _severity(config: ProfilingConfig) -> dg.AssetCheckSeverity:
    blocking = config.on_drift is OnDrift.FAIL
    return dg.AssetCheckSeverity.ERROR if blocking else dg.AssetCheckSeverity.WARN


def count_error(
    context: dg.AssetCheckExecutionContext | dg.AssetExecutionContext,
    resource_key: str,
    asset: str,
    config: ProfilingConfig,
) -> None:
    """Count one check error of ``asset`` in the store, if the store can be reached.

    Never raises: a store that cannot be opened or written is the likely cause of the
    error being counted, so the failure is logged at debug level and dropped."""
    try:
        resource: Any = getattr(context.resources, resource_key)
        store = resource.get_store()
        count_check_error(store, asset, config.on_drift.value)
    except Exception as exc:  # best-effort: the check's own error is what the user sees
        reason = redact(f"{type(exc).__name__}: {exc}")
        context.log.debug(f"faucet: the check error of {asset} was not counted ({reason})")


def error_result(config: ProfilingConfig, text: str) -> dg.AssetCheckResult:
    """The evaluation of a check that could not profile or record this materialization."""
    severity = _severity(config)
    text = text.strip()
    return dg.AssetCheckResult(
        passed=False,
        severity=severity,
        description=f"faucet could not check this materialization: {text}",
        metadata={
            md.STATUS: ERROR_STATUS,
            md.ERROR: dg.MetadataValue.text(text),
            md.ON_DRIFT: config.on_drift.value,
            md.FINDING_COUNT: 0,
            md.FINDINGS: dg.MetadataValue.json([]),
        },
    )
