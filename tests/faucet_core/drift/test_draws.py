"""A run's extremes as the extremes of its own draws (faucet_core.drift.draws), on real
profiles: a light run's lower maximum and a new code one step past a constant maximum
are within chance; a heavy run's, a cut into the body and a far sentinel are not."""

from __future__ import annotations

import random
from dataclasses import replace

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift import detect_drift
from faucet_core.drift.draws import inward_chance, outward_chance

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
