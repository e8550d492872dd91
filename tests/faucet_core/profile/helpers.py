"""Shared helpers for the profiler tests: exact references and error bounds."""

from __future__ import annotations

import math
import re
from typing import Any

import datasketches as ds
import numpy as np

from faucet_core import TableProfile

HLL_RSE = 1.04 / math.sqrt(2**12)
"""Relative standard error of the HyperLogLog at lg_k 12 (about 1.625 %)."""
DISTINCT_TOLERANCE = 3 * HLL_RSE
KLL_RANK_ERROR = ds.kll_doubles_sketch.get_normalized_rank_error(200, False)
"""Normalized rank error of the KLL sketch at k 200, single query (about 1.33 %)."""


def public(profile: TableProfile) -> dict[str, Any]:
    """The published fields of a profile (no sketches), keyed by column."""
    return {c["name"]: c for c in profile.to_dict(sketches=False)["columns"]}


def comparable(profile: TableProfile, *, quantiles: bool = True) -> dict[str, Any]:
    """The published fields with mean/stddev rounded (the summation order depends on the
    batching); without p50/p95 when ``quantiles`` is false (they are approximate once the
    quantile sketch compacts, past 200 values)."""
    out = public(profile)
    for column in out.values():
        numeric = column["numeric"]
        if numeric is not None:
            numeric["mean"] = round(numeric["mean"], 9)
            numeric["stddev"] = round(numeric["stddev"], 9)
            if not quantiles:
                numeric.pop("p50")
                numeric.pop("p95")
    return out


def without_quantiles(profile: TableProfile) -> dict[str, Any]:
    return comparable(profile, quantiles=False)


def rank_interval(sorted_values: np.ndarray, value: float) -> tuple[float, float]:
    """The normalized rank range that ``value`` occupies in ``sorted_values``."""
    n = len(sorted_values)
    lo = np.searchsorted(sorted_values, value, side="left") / n
    hi = np.searchsorted(sorted_values, value, side="right") / n
    return float(lo), float(hi)


def rank_error(sorted_values: np.ndarray, value: float, q: float) -> float:
    """How far the rank of ``value`` lies outside ``q`` (0 when ``q`` is within its range)."""
    lo, hi = rank_interval(sorted_values, value)
    return max(0.0, lo - q, q - hi)


def exact(message: str) -> str:
    """A ``pytest.raises(match=...)`` pattern that matches exactly ``message``."""
    return f"^{re.escape(message)}$"
