"""The noise model's promises, on generated data: a constant baseline never has a band of
zero width, a finding's figures agree with its message, and detection is deterministic."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faucet_core import ProfilingConfig
from faucet_core.config import DriftMethod
from faucet_core.drift import DriftMetric, detect_drift
from faucet_core.drift.band import ARCSINE, LINEAR, judge
from faucet_core.drift.noise import Sampling
from faucet_core.drift.numfmt import fmt_number
from faucet_core.profile import TableProfile
from tests.faucet_core.drift.builders import column, numeric, table

BOUNDED = settings(
    max_examples=60,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

rates = st.floats(0.0, 1.0)
rows = st.integers(1, 1_000_000)
runs = st.integers(2, 30)


@BOUNDED
@given(rates, rows, runs, st.floats(0.0, 1.0), st.sampled_from(list(DriftMethod)))
def test_a_constant_share_baseline_never_has_a_zero_width_band(
    rate: float, n: int, k: int, now: float, method: DriftMethod
) -> None:
    band = judge(
        now,
        [rate] * k,
        transform=ARCSINE,
        floor=lambda center: 0.0,
        method=method,
        sensitivity=3.0 if method is DriftMethod.ZSCORE else 1.5,
        tests=10,
        sampling=Sampling(0.25 / n, 0.25 / n),
    )
    assert band.high > band.low
    assert not band.constant


@BOUNDED
@given(
    st.floats(-1e6, 1e6),
    st.floats(1e-3, 1e3),
    st.integers(2, 100_000),
    runs,
    st.floats(-1e6, 1e6),
)
def test_a_constant_mean_with_a_spread_never_has_a_zero_width_band(
    mean: float, sd: float, n: int, k: int, now: float
) -> None:
    band = judge(
        now,
        [mean] * k,
        transform=LINEAR,
        floor=lambda center: 0.0,
        method=DriftMethod.ZSCORE,
        sensitivity=3.0,
        tests=10,
        sampling=Sampling(sd * sd / n, sd * sd / n),
    )
    assert band.high - band.low >= 2 * band.limit * math.sqrt(sd * sd / n) * (1 - 1e-9)


def _run(nulls: int, rows_: int, mean: float) -> TableProfile:
    return table(
        column("c", rows=rows_, nulls=min(nulls, rows_), distinct=50, num=numeric(mean, stddev=5.0))
    )


baselines = st.lists(
    st.tuples(st.integers(0, 50), st.integers(100, 5_000), st.floats(90.0, 110.0)),
    min_size=5,
    max_size=20,
)


@BOUNDED
@given(baselines, st.tuples(st.integers(0, 5_000), st.integers(1, 5_000), st.floats(0.0, 500.0)))
def test_findings_agree_with_their_messages_and_repeat_exactly(
    past: list[tuple[int, int, float]], now: tuple[int, int, float]
) -> None:
    baseline = [_run(*p) for p in past]
    current = _run(*now)
    config = ProfilingConfig()
    first = detect_drift(current, baseline, config)
    assert detect_drift(current, baseline, config) == first  # deterministic
    for head in first:
        for f in head.findings:
            if not f.metric.is_series or (f.metric is DriftMetric.ROW_COUNT and f.value == 0):
                continue
            assert f.expected_low is not None
            assert f.expected_high is not None
            assert not f.expected_low <= f.value <= f.expected_high
            assert f.score > f.threshold
            assert fmt_number(f.value, f.statistic) in f.message
            assert fmt_number(f.baseline_center, f.statistic) in f.message
