"""The table's own tail: how far its baseline runs stray from one another, measured
against what the band model expects of them.

The limits of :mod:`faucet_core.drift.limits` assume that a statistic's run-to-run
deviations are normal once scaled by the baseline's spread. Real tables are often
heavier-tailed than that, and some drift slowly within the window (a season, a growing
business), which a rolling mean follows a step behind. Neither shows in one series of
20 values, but both show when the table's series are read together: each baseline run
is predicted from the others (leave one out), and the share of those predictions that
miss by more than the model's 1 % and 0.1 % limits (:data:`PROBES`) is counted over
every series test of the run.

If the table's own runs miss more often than the model says, its limits are too narrow
by about the factor that turns its miss rate back into the probe's (:func:`tail_scale`):
the normal quantile of the probe over the normal quantile of the observed share, the
larger of the two probes' factors. The share is
taken at its lower confidence bound (:data:`CONFIDENCE`, the misses read as a Poisson
count), so only an excess the baseline clearly shows widens anything: a table of few
series, or one that misses about as often as the model says, keeps the model's limits.
The scale is never below 1: a table steadier than the model is not judged more strictly.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from faucet_core.drift.model import DriftScale
from faucet_core.drift.stats import chi2_lower_quantile, normal_quantile, student_t_quantile

__all__ = ["CONFIDENCE", "PROBES", "Series", "TailEvidence", "tail_scale"]

PROBES = (0.01, 0.001)
"""The two-sided miss probabilities at which the table's runs are compared with the
model: 1 %, where every table has misses to count, and 0.1 %, nearer the limits in force
(a run's tests are each held to 0.27 % shared among them), where only a wide table has
enough runs x series to show an excess."""
CONFIDENCE = 0.10
"""The miss share is taken at the bound it exceeds with 90 % confidence."""
_MIN_RUNS = 6


@dataclass(frozen=True)
class TailEvidence:
    """What the baseline's leave-one-out predictions showed, at the probe that widened
    the limits most."""

    residuals: int
    misses: int
    probe: float
    scale: float
    """The factor the run's limits are multiplied by (>= 1)."""


Series = tuple[Sequence[float], DriftScale, Callable[[float], float]]
"""One test's baseline values on the metric's scale, the scale it is judged on, and its
floor (of a center; a deviation within the floor at the values' mean is never a miss)."""


def tail_scale(series: Sequence[Series]) -> TailEvidence:
    """The table's tail from the baseline series of its tests (see the module docstring).
    A run predicted from identical others is skipped (the floor judges such series)."""
    groups: dict[tuple[int, DriftScale], list[Series]] = defaultdict(list)
    for item in series:
        if len(item[0]) >= _MIN_RUNS:
            groups[(len(item[0]), item[1])].append(item)
    residuals = 0
    misses = [0] * len(PROBES)
    for (k, scale), items in groups.items():
        valid, score = _loo_scores(k, scale, items)
        residuals += int(valid.sum())
        for i, probe in enumerate(PROBES):
            misses[i] += int((valid & (score > _limit(k, probe))).sum())
    best = TailEvidence(residuals, misses[0], PROBES[0], 1.0)
    for probe, missed in zip(PROBES, misses, strict=True):
        widened = _widening(probe, missed, residuals)
        if widened > best.scale:
            best = TailEvidence(residuals, missed, probe, widened)
    return best


def _loo_scores(
    k: int, scale: DriftScale, items: Sequence[Series]
) -> tuple[np.ndarray, np.ndarray]:
    """Which runs of these k-run series have a leave-one-out score, and the score (0 for
    a deviation within the floor)."""
    xs = np.array([item[0] for item in items], dtype=float)
    with np.errstate(all="ignore"):
        centers = xs.mean(axis=1)
        margins = np.array(
            [
                f(float(c)) if np.isfinite(c) else np.inf
                for (_, _, f), c in zip(items, centers, strict=True)
            ]
        )
        ys = _FORWARD[scale](xs)
        d = ys - ys.mean(axis=1, keepdims=True)
        total = (d * d).sum(axis=1, keepdims=True)
        factor = k / (k - 1)
        rest = (total - d * d * factor) / (k - 2)
        valid = np.isfinite(rest) & (rest > 0.0) & (total > 0.0)
        score = np.abs(d) * np.sqrt(factor / np.where(valid, rest, 1.0))
        away = np.abs(xs - centers[:, None]) * factor > margins[:, None]
    return valid, np.where(away, score, 0.0)


def _widening(probe: float, misses: int, residuals: int) -> float:
    """The factor that turns the miss share's lower confidence bound back into
    ``probe``: the normal quantiles' ratio, 1 when the bound is within ``probe``."""
    if misses == 0 or residuals == 0:
        return 1.0
    share = chi2_lower_quantile(CONFIDENCE, 2.0 * misses) / 2.0 / residuals
    if share <= probe:
        return 1.0
    return max(normal_quantile(probe / 2.0) / normal_quantile(min(share, 0.5) / 2.0), 1.0)


def _linear(xs: np.ndarray) -> np.ndarray:
    return xs


def _log(xs: np.ndarray) -> np.ndarray:
    return np.asarray(np.log(xs), dtype=float)


def _arcsine(xs: np.ndarray) -> np.ndarray:
    return np.asarray(np.arcsin(np.sqrt(np.clip(xs, 0.0, 1.0))), dtype=float)


_FORWARD: dict[DriftScale, Callable[[np.ndarray], np.ndarray]] = {
    DriftScale.LINEAR: _linear,
    DriftScale.LOG: _log,
    DriftScale.ARCSINE: _arcsine,
}
"""The judged scales of :mod:`faucet_core.drift.band`, on arrays."""


@lru_cache(maxsize=128)
def _limit(runs: int, probe: float) -> float:
    """The two-sided ``probe`` quantile of a leave-one-out prediction from ``runs - 1``
    runs: Student's t with runs - 2 degrees of freedom."""
    return student_t_quantile(probe / 2.0, float(runs - 2))
