"""A light run's number out on a long-tailed column's long side is judged by the tail the
baseline's pooled numbers imply, with that tail's uncertainty (a Lomax predictive): one
day's heavy rain or one large house sale is within it; x100 is not, nor is a heavy run
that far out."""

from __future__ import annotations

import math
import random

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift import DriftMetric, detect_drift
from faucet_core.drift.detector import run_detection
from faucet_core.drift.longtail import long_tail_chance, long_tail_length_chance

CONFIG = ProfilingConfig()


def _day(values: list[float], other: float = 0.0) -> TableProfile:
    return profile(pa.table({"rain": values, "station": [f"s{other:.0f}"] * len(values)}))


def _rain(seed: int) -> float:
    """One day's rain, mm: dry on a quarter of the days, exponential otherwise."""
    rng = random.Random(seed)
    return 0.0 if rng.random() < 0.25 else round(rng.expovariate(1 / 4.0), 1)


BASELINE = [_day([_rain(seed)]) for seed in range(20)]
POOL = sorted(_rain(seed) for seed in range(20))


def test_the_chance_is_the_lomax_predictive_of_the_tail_above_the_median() -> None:
    past = [c.columns["rain"] for c in BASELINE]
    median = POOL[(len(POOL) - 1) // 2]  # the smallest number whose rank reaches 1/2
    beyond = [v - median for v in POOL if v > median]
    m, total = len(beyond), sum(beyond)
    y = 40.0 - median
    one = m / len(POOL) * (1 + y / total) ** -m
    assert long_tail_chance(past, 40.0, 1, high=True) == pytest.approx(one)
    assert long_tail_chance(past, 40.0, 2, high=True) == pytest.approx(1 - (1 - one) ** 2)
    # at or inside the median's side, the chance is the share beyond the median
    assert long_tail_chance(past, median, 1, high=True) == pytest.approx(m / len(POOL))


def test_the_short_side_of_positive_amounts_has_no_tail_chance() -> None:
    past = [c.columns["rain"] for c in BASELINE]
    assert long_tail_chance(past, 0.001, 1, high=False) is None


def test_a_heavy_rain_day_after_a_window_of_showers_is_within_the_tail() -> None:
    heavy = 2.5 * max(POOL)  # past every baseline day, within the tail's reach
    detection = run_detection(_day([heavy]), BASELINE, CONFIG)
    assert [f for f in detection.findings if f.column == "rain"] == []
    assert detection.cleared["within_the_long_tail"] >= 1


def test_a_rescale_goes_past_the_tail() -> None:
    (finding,) = detect_drift(_day([100 * max(POOL)]), BASELINE, CONFIG)
    assert finding.column == "rain"
    assert finding.metric in (DriftMetric.MEAN, DriftMetric.MAX, DriftMetric.MIN)


def test_a_heavy_run_is_not_a_draw() -> None:
    # 30 readings a day: the mean averages over them, and a day that far out is an incident
    rng = random.Random(1)
    past = [_day([rng.expovariate(1 / 4.0) for _ in range(30)]) for _ in range(20)]
    wet = _day([rng.expovariate(1 / 4.0) + 12.0 for _ in range(30)])
    detection = run_detection(wet, past, CONFIG)
    assert "rain" in {f.column for f in detection.findings}
    assert detection.cleared["within_the_long_tail"] == 0


def test_positive_amounts_falling_toward_zero_are_no_draw_of_the_tail() -> None:
    # riders a day: weekdays near 15,000, weekends near 6,000 (the long side is the low one)
    rng = random.Random(2)
    riders = [rng.gauss(6_000 if d % 7 in (5, 6) else 15_000, 400) for d in range(20)]
    past = [_day([r]) for r in riders]
    columns = [p.columns["rain"] for p in past]
    assert long_tail_chance(columns, 15.0, 1, high=False) is None
    assert long_tail_chance(columns, 3_000.0, 1, high=False) is None
    assert "rain" in {f.column for f in detect_drift(_day([riders[3] / 1000]), past, CONFIG)}


def test_numbers_on_both_sides_of_zero_have_a_tail_either_way() -> None:
    rng = random.Random(4)
    returns = [rng.gauss(0.0, 1.0) ** 3 for _ in range(20)]  # long tails on both sides
    columns = [_day([r]).columns["rain"] for r in returns]
    median = sorted(returns)[9]  # the smallest number whose rank reaches one half
    long_low = median - min(returns) > max(returns) - median
    chance = long_tail_chance(columns, -50.0 if long_low else 50.0, 1, high=not long_low)
    assert chance is not None
    assert 0.0 < chance < 0.5


def _film(language: str, seed: int) -> TableProfile:
    return profile(pa.table({"Language": [language], "Runtime": [90 + seed % 40]}))


LISTS = ["English, French", "English, Spanish, German", "French, Italian", "English, Hindi"]
FILMS = [_film(LISTS[s % 4] if s % 5 == 0 else "English", s) for s in range(20)]


def test_a_films_long_list_of_languages_is_within_the_lengths_tail() -> None:
    many = "English, French, German, Italian, Spanish, Japanese"
    detection = run_detection(_film(many, 3), FILMS, CONFIG)
    assert [f for f in detection.findings if f.column == "Language"] == []
    assert detection.cleared["within_the_long_tail"] >= 1
    past = [p.columns["Language"] for p in FILMS]
    assert long_tail_length_chance(past, float(len(many)), 1, high=True) is not None
    # the short side of lengths (a truncation) has no tail chance
    assert long_tail_length_chance(past, 2.0, 1, high=False) is None


def test_heavy_runs_give_no_lengths_to_pool() -> None:
    heavy = [profile(pa.table({"Language": ["English"] * 3})) for _ in range(20)]
    past = [p.columns["Language"] for p in heavy]
    assert long_tail_length_chance(past, 40.0, 1, high=True) is None


def _capture(times: list[str]) -> TableProfile:
    return profile(pa.table({"CaptureTime": times, "Wing": [380.0 + len(t) for t in times]}))


def _times(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return [f"{rng.randint(10, 16)}:{rng.randint(0, 59):02d}" for _ in range(count)]


CAPTURES = [_capture(_times(s, 1 + s % 2)) for s in range(19)] + [
    _capture(["9:05", *_times(99, 1)])  # one record of 4 characters: the runs' longest stayed 5
]


def test_a_length_a_baseline_text_already_had_is_a_draw_of_the_lengths() -> None:
    detection = run_detection(_capture(["9:23"]), CAPTURES, CONFIG)
    assert [f for f in detection.findings if f.column == "CaptureTime"] == []
    assert detection.cleared["length_seen_before"] >= 1


def test_a_length_no_baseline_text_had_is_not_seen_before() -> None:
    detection = run_detection(_capture(["9"]), CAPTURES, CONFIG)
    assert detection.cleared["length_seen_before"] == 0


def _breach(i: int) -> float:
    """The ``i``-th of 20 breach sizes, people affected: the quantiles of a power law
    (Pareto, index 0.6, from 500 on), spread over orders of magnitude."""
    return float(round(500 * (1 - (i + 0.5) / 20) ** (-1 / 0.6)))


BREACHES = [
    _day([_breach(i)])
    for i in (7, 13, 2, 19, 5, 11, 0, 16, 9, 3, 14, 8, 18, 1, 6, 12, 17, 4, 10, 15)
]
SIZES = sorted(_breach(i) for i in range(20))


def test_sizes_spread_over_orders_of_magnitude_have_a_ratios_tail() -> None:
    # the tail above the median is likelier as a ratio's than as an additive one: a breach
    # 200 times the typical one, past every baseline run, is a draw of it
    past = [c.columns["rain"] for c in BREACHES]
    median = SIZES[(len(SIZES) - 1) // 2]
    logs = [math.log(v / median) for v in SIZES if v > median]
    m, total = len(logs), sum(logs)
    big = 200 * median  # past every baseline run
    one = m / len(SIZES) * (1 + math.log(big / median) / total) ** -m
    assert long_tail_chance(past, big, 1, high=True) == pytest.approx(one)
    detection = run_detection(_day([big]), BREACHES, CONFIG)
    assert [f for f in detection.findings if f.column == "rain"] == []
    assert detection.cleared["within_the_long_tail"] >= 1


def test_an_additive_tail_keeps_its_law_when_it_fits_better() -> None:
    # the showers' amounts past the median fit an exponential better than a ratio's law:
    # the chance is the additive one (the first test), and x100 still goes past it
    past = [c.columns["rain"] for c in BASELINE]
    median = POOL[(len(POOL) - 1) // 2]
    beyond = [v - median for v in POOL if v > median]
    y = 100 * max(POOL) - median
    additive = len(beyond) / len(POOL) * (1 + y / sum(beyond)) ** -len(beyond)
    assert long_tail_chance(past, 100 * max(POOL), 1, high=True) == pytest.approx(additive)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.floats(0.5, 1e6), min_size=6, max_size=30),
    st.floats(1.0, 1e4),
    st.floats(1.0, 1e4),
)
def test_the_tail_chance_is_a_chance_that_falls_outward(
    sizes: list[float], a: float, b: float
) -> None:
    past = [_day([v]).columns["rain"] for v in sizes]
    top = max(sizes)
    near, far = top * min(a, b), top * max(a, b)
    p_near = long_tail_chance(past, near, 1, high=True)
    p_far = long_tail_chance(past, far, 1, high=True)
    assert (p_near is None) == (p_far is None)
    if p_near is not None and p_far is not None:
        assert 0.0 <= p_far <= p_near <= 1.0


def test_one_far_number_does_not_make_the_tail_a_ratios() -> None:
    # 19 breaches of about 5,000 and one of 1,200,000: only that one number favours the
    # ratio's law, so the additive one judges, and x1000 of a typical breach goes past it
    rng = random.Random(11)
    sizes = [float(round(rng.uniform(3_000, 7_000))) for _ in range(19)] + [1_200_000.0]
    past = [_day([v]).columns["rain"] for v in sizes]
    ordered = sorted(sizes)
    median = ordered[9]
    beyond = [v - median for v in ordered if v > median]
    y = 5_000_000.0 - median
    additive = len(beyond) / 20 * (1 + y / sum(beyond)) ** -len(beyond)
    assert long_tail_chance(past, 5_000_000.0, 1, high=True) == pytest.approx(additive)


def _weights(seed: int, n: int = 5) -> list[float]:
    """A day's n survey weights: a long right tail above 0.3."""
    rng = random.Random(seed)
    return [round(0.3 + rng.expovariate(1.0), 3) for _ in range(n)]


WEIGHTS = [_day(_weights(seed)) for seed in range(400, 420)]


def _level_findings(current: TableProfile) -> list[str]:
    found = run_detection(current, WEIGHTS, CONFIG).findings
    return [f.metric.value for f in found if f.column == "rain" and f.metric.value != "row_count"]


def test_a_light_day_of_a_few_records_a_day_is_a_draw_of_the_tail() -> None:
    # five interviews a day, then a day of one whose weight is past every baseline one:
    # the baseline's runs hold a few records each (at most TAIL_DRAWS), and the one
    # record is a draw of the tail they pool
    assert max(max(_weights(seed)) for seed in range(400, 420)) < 6.0
    detection = run_detection(_day([6.0]), WEIGHTS, CONFIG)
    assert [f for f in detection.findings if f.column == "rain"] == []
    assert detection.cleared["within_the_long_tail"] >= 1
    # farther out than the tail reaches, and a rescale, stay findings
    assert "mean" in _level_findings(_day([20.0]))
    assert "mean" in _level_findings(_day([130.0]))


def test_the_largest_of_a_few_records_counts_them_as_draws() -> None:
    past = [c.columns["rain"] for c in WEIGHTS]
    one = long_tail_chance(past, 6.0, 1, high=True)
    five = long_tail_chance(past, 6.0, 5, high=True)
    assert one is not None
    assert five is not None
    assert five == pytest.approx(1 - (1 - one) ** 5)
