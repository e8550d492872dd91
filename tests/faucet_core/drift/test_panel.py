"""A panel's keys (faucet_core.drift.values.fixed_count), on real profiles: one row per
city a day is a count fixed by the table's design, so a city missing from a day's five
rows is a finding however likely one in five records is to be absent by sampling; a
category whose count varies keeps the sampling model."""

from __future__ import annotations

import math
import random

import pytest

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift import detect_drift
from faucet_core.drift.valuelist import value_list
from faucet_core.drift.values import fixed_count

CONFIG = ProfilingConfig()
CITIES = ["Auckland", "Beijing", "Chicago", "Mumbai", "San Diego"]


def _day(seed: int, cities: list[str]) -> TableProfile:
    rng = random.Random(seed)
    return profile([{"city": c, "high_temp": rng.gauss(20.0, 6.0)} for c in cities])


def _lists(profiles: list[TableProfile]) -> list:
    return [value_list(p.columns["city"], CONFIG.top_values) for p in profiles]


def test_fixed_count_is_the_count_every_run_held_when_sampling_could_hardly_keep_it() -> None:
    baseline = [_day(s, CITIES) for s in range(20)]
    lists = _lists(baseline)
    # one of five records 20 times in a row at p = 0.2: 0.4096 ** 20, about 1.8e-8
    assert fixed_count("Beijing", lists, 1e-5) == 1
    assert fixed_count("Beijing", lists, 1e-9) is None  # not below so strict an alpha
    assert math.isclose(0.4096**20, 1.8e-8, rel_tol=0.05)
    # five runs are too few to call a count fixed
    assert fixed_count("Beijing", lists[:4], 1e-5) is None


def test_a_city_missing_from_a_panel_day_is_a_finding() -> None:
    baseline = [_day(s, CITIES) for s in range(20)]
    folded = _day(99, ["Auckland", "Auckland", "Chicago", "Mumbai", "San Diego"])
    findings = [f for f in detect_drift(folded, baseline, CONFIG) if f.column == "city"]
    assert findings
    judged = [findings[0], *findings[0].evidence]
    assert any(f.metric.value == "vanished_value" for f in judged)


@pytest.mark.parametrize("seed", range(3))
def test_a_category_whose_count_varies_keeps_the_sampling_model(seed: int) -> None:
    rng = random.Random(seed)
    # "b" in every run, once or twice of five records: a share that samples, not a key
    baseline = [
        _day(s, ["b"] * (1 + s % 2) + [rng.choice("ac") for _ in range(4 - s % 2)])
        for s in range(20)
    ]
    lists = _lists(baseline)
    assert all("b" in lst.shares for lst in lists)
    assert fixed_count("b", lists, 1e-5) is None
    # "b" absent from a day of five records: within chance
    day = _day(99, ["a", "a", "c", "a", "c"])
    assert "vanished_value" not in {
        f.metric.value for f in detect_drift(day, baseline, CONFIG) if f.column == "city"
    }


def test_a_number_held_for_days_is_no_panel_key() -> None:
    """A premium that each of four markets quotes unchanged for 20 days is a measurement:
    when one market's moves, the old figure is not reported as a vanished member."""
    quotes = {"us": 200, "eu": 150, "jp": 180, "cn": 90}
    baseline = [
        profile([{"market": m, "premium": q} for m, q in quotes.items()]) for _ in range(20)
    ]
    lists = [value_list(p.columns["premium"], CONFIG.top_values) for p in baseline]
    assert fixed_count((int, 200), lists, 1e-5) is None
    assert fixed_count("us", [value_list(p.columns["market"], 10) for p in baseline], 1e-5) == 1
    moved = profile(
        [{"market": m, "premium": q + (5 if m == "us" else 0)} for m, q in quotes.items()]
    )
    judged = {
        e.metric.value
        for f in detect_drift(moved, baseline, CONFIG)
        if f.column == "premium"
        for e in (f, *f.evidence)
    }
    assert "vanished_value" not in judged


@pytest.mark.parametrize(
    "cities",
    [
        ["Auckland", "Wellington", "Chicago", "Mumbai", "San Diego"],  # Beijing renamed
        ["Auckland", "Elsewhere", "Chicago", "Elsewhere", "San Diego"],  # two under one name
    ],
    ids=["one_renamed", "two_under_one_name"],
)
def test_a_new_name_in_a_missing_members_place_heads_the_finding(cities: list[str]) -> None:
    baseline = [_day(s, CITIES) for s in range(20)]
    (finding,) = [f for f in detect_drift(_day(99, cities), baseline, CONFIG) if f.column == "city"]
    assert finding.metric.value == "new_value"  # the name is what a person fixes
    assert {e.metric.value for e in finding.evidence} == {"vanished_value"}


def test_a_new_name_that_fills_no_members_place_is_judged_by_the_columns_rate() -> None:
    baseline = [_day(s, CITIES) for s in range(20)]
    # a sixth city beside the five: no member is missing, so its one record of six is
    # judged by how often the column brings new values (1 in 101 records): chance
    extra = _day(99, [*CITIES, "Wellington"])
    assert [f for f in detect_drift(extra, baseline, CONFIG) if f.column == "city"] == []
