"""A run's extremes as the extremes of its own draws (faucet_core.drift.draws), on real
profiles: a light run's lower maximum and a new code one step past a constant maximum
are within chance; a heavy run's, a cut into the body and a far sentinel are not."""

from __future__ import annotations

import random
from dataclasses import replace

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift import detect_drift
from faucet_core.drift.draws import (
    beyond_constant_chance,
    inward_chance,
    off_value_score,
    outward_chance,
    point_mass,
)
from faucet_core.drift.pool import pool_of

CONFIG = ProfilingConfig()


def _codes(seed: int, rows: int, *, top: int = 4, extra: list[float] | None = None) -> TableProfile:
    """A mass code 1..top (top the rarest), with a few other columns."""
    rng = random.Random(seed)
    values = [
        float(rng.choices(range(1, top + 1), weights=[1, 3, 5, 1][:top])[0]) for _ in range(rows)
    ]
    values += extra or []
    return profile(
        [
            {"mass": v, "height": rng.choice([0.0, 0.0, 50.0, 500.0, 2000.0]), "n": i}
            for i, v in enumerate(values)
        ]
    )


def _baseline(rows: int = 8) -> list[TableProfile]:
    """20 runs whose largest code is 4 in every run."""
    return [_codes(seed, rows - 1, extra=[4.0]) for seed in range(20)]


def test_a_light_run_reaches_less_far() -> None:
    baseline = _baseline()
    heights = [p.columns["height"] for p in baseline]
    light = _codes(99, 3).columns["height"]
    # all of 3 draws at or below 500 when 4 in 5 values are: about half the time
    chance = inward_chance(light, heights, 500.0, high=True)
    assert chance is not None
    assert 0.3 < chance < 0.6
    heavy = replace(light, numeric=replace(light.numeric, count=3000))
    tiny = inward_chance(heavy, heights, 500.0, high=True)
    assert tiny is not None
    assert tiny < 1e-100


def test_outward_chance_is_the_runs_share_of_the_records() -> None:
    baseline = _baseline()
    masses = [p.columns["mass"] for p in baseline]
    current = _codes(99, 8).columns["mass"]
    assert outward_chance(current, masses) == 8 / (20 * 8 + 8)


def test_unreadable_or_missing_sketches_give_no_chance() -> None:
    baseline = _baseline()
    heights = [p.columns["height"] for p in baseline]
    broken = [replace(heights[0], sketches={**heights[0].sketches, "kll": "bm90IGEgc2tldGNo"})]
    assert inward_chance(heights[1], broken + heights[1:], 500.0, high=True) is None
    missing = [replace(h, sketches={}) for h in heights]
    assert inward_chance(heights[1], missing, 500.0, high=True) is None


def test_detect_drift_clears_chance_extremes_and_keeps_real_ones() -> None:
    baseline = _baseline()
    assert all(p.columns["mass"].numeric.max == 4.0 for p in baseline)
    # a new code one step past the constant maximum on a run of 8 records
    new_code = _codes(99, 7, extra=[5.0])
    assert "mass" not in {f.column for f in detect_drift(new_code, baseline, CONFIG)}
    # a sentinel far past it is a finding
    sentinel = _codes(99, 7, extra=[9999.0])
    assert "mass" in {f.column for f in detect_drift(sentinel, baseline, CONFIG)}


def test_a_heavy_run_whose_maximum_fell_into_the_body_is_judged() -> None:
    baseline = [_codes(seed, 400) for seed in range(20)]
    capped = profile(
        [{"mass": 2.0, "height": 0.0, "n": i} for i in range(400)]
    )  # every code above 2 gone on a full day
    (mass,) = [f for f in detect_drift(capped, baseline, CONFIG) if f.column == "mass"]
    judged = {mass.metric.value, *(e.metric.value for e in mass.evidence)}
    assert "max" in judged


def _waiting(seed: int, rows: int, moved: list[float] | None = None) -> TableProfile:
    """A column that is 0 in every record (days on a waiting list), bar ``moved``."""
    rng = random.Random(seed)
    values = [0.0] * (rows - len(moved or [])) + list(moved or [])
    return profile([{"waited": v, "price": rng.uniform(50, 150)} for v in values])


def _capped(seed: int, rows: int, moved: list[float] | None = None) -> TableProfile:
    """A reading capped at 10 in every run (visibility), varying below it, bar ``moved``."""
    rng = random.Random(seed)
    values = [10.0] + [float(rng.randint(1, 10)) for _ in range(rows - 1 - len(moved or []))]
    return profile([{"vis": v} for v in values + list(moved or [])])


def test_beyond_constant_chance_is_the_hypergeometric_tail() -> None:
    baseline = [_waiting(s, 20) for s in range(20)]
    past = [p.columns["waited"] for p in baseline]
    one = _waiting(99, 21, moved=[116.0]).columns["waited"]
    assert beyond_constant_chance(one, past, 0.0, high=True) == pytest.approx(21 / 421)
    two = _waiting(99, 21, moved=[116.0, 3.0]).columns["waited"]
    assert beyond_constant_chance(two, past, 0.0, high=True) == pytest.approx(21 * 20 / (421 * 420))
    # some baseline records beyond too (8 runs: the pooled sketch is still exact): the
    # chance of one of 21 among 2 marked of 181 records
    short = [p.columns["waited"] for p in [*baseline[:7], _waiting(7, 20, moved=[5.0])]]
    with_one = beyond_constant_chance(one, short, 0.0, high=True)
    assert with_one == pytest.approx(1 - (160 * 159) / (181 * 180))


def test_detect_drift_one_record_past_a_constant_column_is_chance_a_moved_column_is_not() -> None:
    baseline = [_waiting(s, 20) for s in range(20)]
    one = _waiting(99, 21, moved=[116.0])
    assert "waited" not in {f.column for f in detect_drift(one, baseline, CONFIG)}
    moved = _waiting(99, 21, moved=[116.0] * 8)
    assert "waited" in {f.column for f in detect_drift(moved, baseline, CONFIG)}


def test_detect_drift_a_reading_past_its_usual_cap_within_its_spread_is_chance() -> None:
    baseline = [_capped(s, 5) for s in range(20)]
    assert all(p.columns["vis"].numeric.max == 10.0 for p in baseline)
    over = _capped(99, 5, moved=[16.0])
    assert "vis" not in {f.column for f in detect_drift(over, baseline, CONFIG)}
    # every reading x100: not chance
    scaled = profile([{"vis": v * 100} for v in (10.0, 3.0, 7.0, 9.0, 2.0)])
    assert "vis" in {f.column for f in detect_drift(scaled, baseline, CONFIG)}


def _readings(seed: int, rows: int = 600) -> TableProfile:
    """More numbers a run than a KLL sketch keeps exactly (it compacts above 200)."""
    rng = random.Random(seed)
    return profile(pa.table({"rain": [round(rng.expovariate(1.0), 2) for _ in range(rows)]}))


def test_the_pooled_baseline_gives_the_same_answer_every_time() -> None:
    # a merged sketch compacts at random: pooling the runs' items does not
    past = [_readings(seed).columns["rain"] for seed in range(20)]
    now = _readings(99, rows=5).columns["rain"]
    answers = {
        (
            inward_chance(now, past, 0.4, high=True),
            beyond_constant_chance(now, past, 0.9, high=True),
            point_mass(past),
            off_value_score(past, 0.0, 3.0, high=True),
        )
        for _ in range(40)
    }
    assert len(answers) == 1


def test_a_pool_of_exact_sketches_is_the_pooled_numbers() -> None:
    runs = [[1.0, 2.0, 2.0], [2.0, 5.0], [7.0]]
    past = [profile(pa.table({"x": r})).columns["x"] for r in runs]
    value, share, above, below = point_mass(past) or (None, 0.0, 0, 0)
    assert (value, share, above, below) == (2.0, 0.5, 2, 1)  # 3 of 6 numbers are 2
    # all 3 draws at or below 5 from 5 of 6 pooled numbers, with no rank error
    assert inward_chance(
        profile(pa.table({"x": [5.0] * 3})).columns["x"], past, 5.0, high=True
    ) == (pytest.approx((5 / 6) ** 3))


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(1, 900), min_size=2, max_size=8),
    st.integers(0, 2**16),
    st.floats(0.0, 1.0),
)
def test_the_pool_ranks_within_the_runs_own_rank_error(
    sizes: list[int], seed: int, where: float
) -> None:
    # runs of up to 900 numbers: some sketches hold them exactly, some compact
    rng = random.Random(seed)
    runs = [[round(rng.lognormvariate(0.0, 1.5), 3) for _ in range(n)] for n in sizes]
    past = [profile(pa.table({"x": r})).columns["x"] for r in runs]
    found = pool_of(past)
    assert found is not None
    pool, total = found
    every = sorted(v for r in runs for v in r)
    assert total == len(every)
    x = every[int(where * (len(every) - 1))]
    exact = sum(1 for v in every if v <= x) / len(every)
    assert abs(pool.get_rank(x, True) - exact) <= pool.error + 1e-9
    assert pool.error <= 0.02  # never more than one run's own error (1.65 % at k = 200)
    if all(n <= 200 for n in sizes):
        assert pool.error == 0.0  # every sketch holds its numbers exactly
