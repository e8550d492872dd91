"""A mean that varies by factors (breach sizes, fatalities: one record a day from a power
law) is judged on the log scale; a mean that varies by amounts stays on its own."""

from __future__ import annotations

import math
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faucet_core import ProfilingConfig, TableProfile
from faucet_core.drift import DriftMetric, DriftScale, detect_drift
from faucet_core.drift.noise import varies_by_factors
from faucet_core.drift.numfmt import fmt_number
from tests.faucet_core.drift.builders import column, numeric, table

CONFIG = ProfilingConfig()


def _day(value: float, records: int = 1, stddev: float = 0.0) -> TableProfile:
    stats = numeric(value, lo=value, hi=value, stddev=stddev, count=records)
    return table(column("affected", rows=records, distinct=records, num=stats))


def _pareto(seed: int, days: int = 20) -> list[float]:
    """Breach sizes: 500 records or more, Pareto with tail index 0.8 (a mean would not
    exist), one a day."""
    rng = random.Random(seed)
    return [500.0 / (1.0 - rng.random()) ** (1 / 0.8) for _ in range(days)]


def _means(found: list) -> list:  # type: ignore[type-arg]
    return [f for head in found for f in head.findings if f.metric is DriftMetric.MEAN]


def test_power_law_sizes_vary_by_factors_and_readings_do_not() -> None:
    sizes = [_day(v) for v in _pareto(3)]
    assert varies_by_factors(sizes[-1].columns["affected"], [p.columns["affected"] for p in sizes])
    rng = random.Random(4)
    readings = [_day(rng.gauss(20.0, 2.0), records=24, stddev=2.0) for _ in range(20)]
    cols = [p.columns["affected"] for p in readings]
    assert not varies_by_factors(cols[-1], cols)
    below = [_day(v - 600.0) for v in _pareto(3)]  # a quantity that can be negative
    cols = [p.columns["affected"] for p in below]
    assert not varies_by_factors(cols[-1], cols)


def test_the_largest_breach_again_is_rarely_a_finding_a_thousandfold_one_always() -> None:
    """Over 40 windows of twenty sizes: a day that repeats the window's largest size was a
    finding in 30 of them on the linear scale (a power law's mean has no normal band); on
    the log scale in at most a fifth. A size a thousand times the largest, in every one.
    Twenty sizes do not always show their skew: most windows, not all, read as factors."""
    repeated = on_logs = 0
    for seed in range(40):
        sizes = _pareto(seed)
        baseline = [_day(v) for v in sizes]
        repeated += bool(_means(detect_drift(_day(max(sizes)), baseline, CONFIG)))
        (finding,) = _means(detect_drift(_day(1000 * max(sizes)), baseline, CONFIG))
        if finding.scale is DriftScale.LOG:
            on_logs += 1
            assert "baseline geometric mean" in finding.message
    assert repeated <= 8
    assert on_logs >= 35


def test_a_mean_that_varies_by_amounts_keeps_its_linear_band() -> None:
    rng = random.Random(7)
    baseline = [_day(rng.gauss(20.0, 2.0), records=24, stddev=2.0) for _ in range(20)]
    (finding,) = _means(detect_drift(_day(40.0, records=24, stddev=2.0), baseline, CONFIG))
    assert finding.scale is DriftScale.LINEAR


BOUNDED = settings(
    max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)


@BOUNDED
@given(
    st.lists(st.floats(-3.0, 6.0), min_size=5, max_size=20),
    st.floats(-6.0, 12.0),
    st.integers(1, 5),
)
def test_log_scale_findings_agree_with_their_messages(
    logs: list[float], now: float, records: int
) -> None:
    baseline = [_day(500.0 * math.exp(v), records=records) for v in logs]
    current = _day(500.0 * math.exp(now), records=records)
    first = detect_drift(current, baseline, CONFIG)
    assert detect_drift(current, baseline, CONFIG) == first
    for f in _means(first):
        assert f.expected_low is not None
        assert f.expected_high is not None
        assert not f.expected_low <= f.value <= f.expected_high
        assert f.score > f.threshold
        assert fmt_number(f.value, f.statistic) in f.message
        assert fmt_number(f.baseline_center, f.statistic) in f.message
