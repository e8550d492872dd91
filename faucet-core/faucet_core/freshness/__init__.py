"""Learned freshness: an asset's update cadence from its materialization times, and
whether it is fresh, overdue or still warming up at a given moment.

- :mod:`~faucet_core.freshness.cadence`: :func:`learn_cadence` and :class:`Cadence`
  (interval or calendar cadences, quiet hours and weekdays, DST-safe arithmetic);
- :mod:`~faucet_core.freshness.verdict`: :func:`judge_freshness` at a ``now``;
- :mod:`~faucet_core.freshness.config`: :class:`FreshnessConfig` (``min_history``,
  ``max_lag``, ``timezone``, ``on_overdue``).
"""

from faucet_core.freshness.cadence import (
    BURST_SECONDS,
    CALENDAR_MIN_SECONDS,
    Cadence,
    CadenceKind,
    Update,
    learn_cadence,
    update_times,
)
from faucet_core.freshness.config import FreshnessConfig, load_freshness_config
from faucet_core.freshness.verdict import FreshnessState, FreshnessVerdict, judge_freshness

__all__ = [
    "BURST_SECONDS",
    "CALENDAR_MIN_SECONDS",
    "Cadence",
    "CadenceKind",
    "FreshnessConfig",
    "FreshnessState",
    "FreshnessVerdict",
    "Update",
    "judge_freshness",
    "learn_cadence",
    "load_freshness_config",
    "update_times",
]
