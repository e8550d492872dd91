"""The table's own tail (faucet_core.drift.tail): limits widen only for an excess of
leave-one-out misses that the baseline clearly shows, never narrow, and the finding says
by how much."""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core import ProfilingConfig, TableProfile
from faucet_core.drift import detect_drift
from faucet_core.drift.detector import run_detection
from faucet_core.drift.model import DriftScale
from faucet_core.drift.tail import PROBES, tail_scale
from tests.faucet_core.drift.builders import column, numeric, table

PROBE = PROBES[0]

CONFIG = ProfilingConfig()


def _no_floor(center: float) -> float:
    return 0.0


def _normal_series(rng: random.Random, count: int, runs: int = 20) -> list:
    return [
        ([rng.gauss(100.0, 5.0) for _ in range(runs)], DriftScale.LINEAR, _no_floor)
        for _ in range(count)
    ]


def _cauchy(rng: random.Random) -> float:
    return math.tan(math.pi * (rng.random() - 0.5))


def _contaminated(rng: random.Random) -> float:
    """Normal noise with one run in ten eight times as wide: heavier-tailed than normal."""
    return rng.gauss(0.0, 40.0 if rng.random() < 0.1 else 5.0)


def test_normal_series_keep_the_model_limits() -> None:
    # 200 series x 20 runs of normal noise miss the 1 % limit about 1 % of the time
    evidence = tail_scale(_normal_series(random.Random(1), 200))
    assert evidence.residuals == 4000
    assert evidence.misses < 4000 * PROBE * 1.6
    assert evidence.scale == 1.0


def test_heavy_tailed_series_widen_the_limits() -> None:
    rng = random.Random(2)
    for draw in (_cauchy, _contaminated):
        series = [
            ([100.0 + 5.0 * draw(rng) for _ in range(20)], DriftScale.LINEAR, _no_floor)
            for _ in range(100)
        ]
        evidence = tail_scale(series)
        assert evidence.misses > 2 * evidence.residuals * PROBE
        assert evidence.scale > 1.05


def test_a_few_series_never_widen_on_one_miss() -> None:
    series = [
        ([*[1.0] * 19, 9.0], DriftScale.LINEAR, _no_floor),
        ([float(i % 3) for i in range(20)], DriftScale.LINEAR, _no_floor),
    ]
    evidence = tail_scale(series)
    assert evidence.misses <= 1
    assert evidence.scale == 1.0


def test_deviations_within_the_floor_are_not_misses() -> None:
    rng = random.Random(3)
    # one run in each series 0.9 away from 19 runs within 0.01: a miss by its score,
    # but inside the floor of 1.0
    series = [
        (
            [100.0 + rng.uniform(-0.01, 0.01) for _ in range(19)] + [100.9],
            DriftScale.LINEAR,
            lambda c: 1.0,
        )
        for _ in range(100)
    ]
    assert tail_scale(series).misses == 0
    assert tail_scale([(v, s, _no_floor) for v, s, _ in series]).misses >= 100


def test_short_constant_and_non_finite_series_are_skipped() -> None:
    series = [
        ([1.0, 2.0, 3.0], DriftScale.LINEAR, _no_floor),  # too short to predict from
        ([5.0] * 20, DriftScale.LINEAR, _no_floor),  # constant
        ([0.0] * 10 + [1.0] * 10, DriftScale.LOG, _no_floor),  # log of 0
        ([1e308] * 10 + [-1e308] * 10, DriftScale.LINEAR, _no_floor),  # overflows
    ]
    evidence = tail_scale(series)
    assert evidence.scale == 1.0
    assert evidence.misses == 0


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(
            st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False), min_size=6, max_size=20
        ),
        min_size=1,
        max_size=12,
    ),
    st.sampled_from(list(DriftScale)),
)
def test_the_scale_is_finite_never_below_one_and_deterministic(
    values: list[list[float]], scale: DriftScale
) -> None:
    series = [(v, scale, _no_floor) for v in values]
    first = tail_scale(series)
    assert math.isfinite(first.scale)
    assert first.scale >= 1.0
    assert 0 <= first.misses <= first.residuals
    assert tail_scale(series) == first


# -- in detect_drift ------------------------------------------------------------------------
def _wide(rng: random.Random, draw) -> TableProfile:
    """40 measured columns whose run means wander by ``draw()``."""
    return table(
        *(
            column(
                f"c{i:02d}",
                rows=5000,
                distinct=4000,
                num=numeric(1000.0 + draw(), lo=0.0, hi=2000.0, stddev=100.0),
            )
            for i in range(40)
        )
    )


def test_a_heavy_tailed_table_is_judged_with_its_own_tail() -> None:
    rng = random.Random(5)
    draw = lambda: 4.0 * _contaminated(rng)  # noqa: E731
    baseline = [_wide(rng, draw) for _ in range(20)]
    detection = run_detection(_wide(rng, draw), baseline, CONFIG)
    assert detection.tail is not None
    assert detection.tail.scale > 1.05
    # a gross change still fires, and its message names the widening
    bad = table(
        *(
            column(
                f"c{i:02d}",
                rows=5000,
                distinct=4000,
                num=numeric(1000.0 if i else 100000.0, lo=0.0, hi=2000.0, stddev=100.0),
            )
            for i in range(40)
        )
    )
    findings = detect_drift(bad, baseline, CONFIG)
    head = next(f for f in findings if f.column == "c00")
    assert head.metric.value == "mean"
    assert f"the table's own tail (x{detection.tail.scale:.2f})" in head.message
    plain = run_detection(bad, baseline, CONFIG).tail
    assert plain is not None
    assert head.threshold > 4.0 * plain.scale * 0.99


def test_a_normal_table_keeps_the_model_limits() -> None:
    rng = random.Random(6)
    draw = lambda: rng.gauss(0.0, 5.0)  # noqa: E731
    baseline = [_wide(rng, draw) for _ in range(20)]
    detection = run_detection(_wide(rng, draw), baseline, CONFIG)
    assert detection.tail is not None
    assert detection.tail.scale == 1.0
    assert "own tail" not in " ".join(f.message for f in detection.findings)
