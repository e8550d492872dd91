"""Prometheus exposition of the store's counters and gauges.

Dagster runs checks in short-lived processes, so in-process counters would
vanish: faucet keeps them in the store and any process (``faucet metrics``,
``faucet serve``) exposes the totals.

=================================  ========================  =================================
metric                             labels                    meaning
=================================  ========================  =================================
faucet_profile_drift_total         asset, row, column,       one per finding
                                   metric
faucet_profile_runs_total          asset, row, outcome       stable | drifted | warming
faucet_profile_columns             asset, row                columns profiled in the latest run
faucet_profile_baseline_runs       asset, row                runs in the baseline now
faucet_check_errors_total          asset, on_drift           profile checks that could not
                                                             profile or record
faucet_asset_overdue               asset                     1 while the learned freshness
                                                             check finds the asset overdue
faucet_asset_freshness_deadline    asset                     when the next update is due
_timestamp_seconds                                           (Unix time; absent while warming)
=================================  ========================  =================================

The freshness gauges are written by the freshness sensor on every tick
(``build_freshness_sensor``), so they are as current as its last tick.

``row`` is the partition of a per-partition baseline, empty otherwise.

Beside the counter, each check error sets ``faucet_check_error_time{asset}`` (seconds since
the epoch), kept for the web console (an asset whose newest event is a check error shows
as "check error") and not exported: :func:`check_error_times` reads it.

A check error is counted best-effort, in the store: a check that could not reach the store
cannot count its own error there. The stalled-baseline alert of the shipped rules (no run
recorded for a day) covers that case; see ``faucet_core.monitoring``.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterable, Iterator
from typing import Any

from faucet_core.store.profiles import ProfileStore

__all__ = [
    "ASSET_DEADLINE",
    "ASSET_OVERDUE",
    "CHECK_ERRORS",
    "CHECK_ERROR_TIME",
    "METRICS",
    "StoreCollector",
    "check_error_times",
    "count_check_error",
    "exposition",
    "set_freshness",
]

CHECK_ERRORS = "faucet_check_errors_total"
CHECK_ERROR_TIME = "faucet_check_error_time"
"""When an asset's latest check error happened (not exported; see the module docstring)."""
ASSET_OVERDUE = "faucet_asset_overdue"
ASSET_DEADLINE = "faucet_asset_freshness_deadline_timestamp_seconds"

METRICS: dict[str, tuple[str, str]] = {
    "faucet_profile_drift_total": ("counter", "Drift findings, one per column and metric."),
    "faucet_profile_runs_total": ("counter", "Profiled runs by outcome."),
    "faucet_profile_columns": ("gauge", "Columns profiled in the latest run."),
    "faucet_profile_baseline_runs": ("gauge", "Runs currently in the baseline."),
    CHECK_ERRORS: ("counter", "Profile checks that could not profile or record."),
    ASSET_OVERDUE: ("gauge", "1 while the asset is overdue by its learned freshness, else 0."),
    ASSET_DEADLINE: ("gauge", "When the asset's next update is due (Unix time)."),
}


class StoreCollector:
    """A prometheus_client collector that reads the store at every scrape."""

    def __init__(self, store: ProfileStore) -> None:
        self.store = store

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

        rows = self.store.metrics()
        for name, (kind, doc) in METRICS.items():
            mine = [(labels, value) for n, labels, value in rows if n == name]
            label_names = sorted({k for labels, _ in mine for k in labels})
            if kind == "counter":
                family: Any = CounterMetricFamily(
                    name.removesuffix("_total"), doc, labels=label_names
                )
            else:
                family = GaugeMetricFamily(name, doc, labels=label_names)
            for labels, value in mine:
                family.add_metric([labels.get(k, "") for k in label_names], value)
            yield family


def count_check_error(store: ProfileStore, asset: str, on_drift: str) -> None:
    """Add one to ``faucet_check_errors_total{asset, on_drift}`` in its own transaction.

    Raises :class:`~faucet_core.errors.StoreError` when the store cannot take the write;
    callers that count best-effort catch it."""
    from faucet_core.store.counters import add_counters, set_gauges

    with store._transaction(f"cannot count a check error of {asset} in {store.url}") as conn:
        add_counters(conn, [(CHECK_ERRORS, {"asset": asset, "on_drift": on_drift}, 1.0)])
        set_gauges(conn, [(CHECK_ERROR_TIME, {"asset": asset}, time.time())])


def check_error_times(rows: Iterable[tuple[str, dict[str, str], float]]) -> dict[str, dt.datetime]:
    """Per asset (its store key), when its latest check error was counted, from the
    store's counter rows (:meth:`~faucet_core.store.ProfileStore.metrics`)."""
    return {
        labels.get("asset", ""): dt.datetime.fromtimestamp(value, dt.timezone.utc)
        for name, labels, value in rows
        if name == CHECK_ERROR_TIME and labels.get("asset")
    }


def set_freshness(store: ProfileStore, states: Iterable[tuple[str, bool, float | None]]) -> None:
    """Set ``faucet_asset_overdue`` (and the deadline gauge, when known) of each
    ``(asset, overdue, deadline)`` in one transaction.

    Raises :class:`~faucet_core.errors.StoreError` when the store cannot take the write."""
    from faucet_core.store.counters import set_gauges

    rows: list[tuple[str, dict[str, str], float]] = []
    for asset, overdue, deadline in states:
        rows.append((ASSET_OVERDUE, {"asset": asset}, 1.0 if overdue else 0.0))
        if deadline is not None:
            rows.append((ASSET_DEADLINE, {"asset": asset}, float(deadline)))
    if not rows:
        return
    with store._transaction(f"cannot record freshness gauges in {store.url}") as conn:
        set_gauges(conn, rows)


def exposition(store: ProfileStore) -> bytes:
    """The Prometheus text format of every faucet metric in ``store``."""
    from prometheus_client import CollectorRegistry, generate_latest

    registry = CollectorRegistry()
    registry.register(StoreCollector(store))
    return bytes(generate_latest(registry))
