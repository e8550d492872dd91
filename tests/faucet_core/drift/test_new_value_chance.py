"""A value new to the baseline judged by how often the column brings new values
(Good-Turing over the baseline's complete value lists), not by the share volatility of
the values it already has."""

from __future__ import annotations

import random

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift import detect_drift
from faucet_core.drift.stats import binomial_sf
from faucet_core.drift.valuelist import value_list
from faucet_core.drift.values import new_by_chance, new_value_cluster

CONFIG = ProfilingConfig()
WEATHER = ["clear", "misty", "light rain"]


def _hours(seed: int, rows: int = 24, new: int = 0, pool: list[str] | None = None) -> TableProfile:
    """Hourly weather whose mix wanders from day to day (one day misty, the next clear)."""
    rng = random.Random(seed)
    weights = [rng.random() + 0.05 for _ in WEATHER]
    values = rng.choices(pool or WEATHER, weights=None if pool else weights, k=rows)
    for i in range(new):
        values[i] = "heavy rain"
    return profile([{"weather": v, "hour": float(h)} for h, v in enumerate(values)])


def test_binomial_tail() -> None:
    assert binomial_sf(0, 10, 0.3) == 1.0
    assert binomial_sf(11, 10, 0.3) == 0.0
    assert abs(binomial_sf(1, 10, 0.1) - (1 - 0.9**10)) < 1e-12
    assert abs(binomial_sf(10, 10, 0.5) - 0.5**10) < 1e-12


def test_five_hours_of_a_never_seen_value_is_a_new_value_on_a_volatile_column() -> None:
    baseline = [_hours(s) for s in range(20)]
    burst = _hours(99, new=5)
    found = detect_drift(burst, baseline, CONFIG)
    assert [f for f in found if f.column == "weather" and f.metric.value == "new_value"]


def test_one_new_record_of_a_light_run_is_within_chance() -> None:
    baseline = [_hours(s, rows=6) for s in range(20)]
    once = _hours(99, rows=6, new=1)
    found = detect_drift(once, baseline, CONFIG)
    assert not [f for f in found if f.metric.value == "new_value"]


def test_a_column_that_keeps_bringing_new_values_makes_a_new_one_likely() -> None:
    # every baseline run brings two values seen nowhere else
    def churn(seed: int) -> TableProfile:
        values = ["a"] * 18 + [f"x{seed}-{i}" for i in range(2)] + ["b"] * 4
        return profile([{"code": v} for v in values])

    past = [value_list(churn(s).columns["code"], 10) for s in range(20)]
    current = value_list(churn(99).columns["code"], 10)
    assert current is not None
    assert all(p is not None for p in past)
    chance = new_by_chance(1 / 24, 24, past)  # type: ignore[arg-type]
    steady = [value_list(profile([{"code": "a"}] * 20 + [{"code": "b"}] * 4).columns["code"], 10)]
    assert chance > 0.5
    assert new_by_chance(1 / 24, 24, steady * 20) < chance  # type: ignore[arg-type]


def test_a_listed_columns_distinct_count_follows_its_values() -> None:
    # a light run of an outcome column that is nearly always "none": two other outcomes
    # on one day are rare values (each within the column's rate of new ones), not a
    # distinct-count finding
    baseline = [profile([{"effect": "none", "n": float(i)} for i in range(6)]) for _ in range(20)]
    rows = ["none"] * 4 + ["precautionary landing", "aborted take-off"]
    day = profile([{"effect": v, "n": float(i)} for i, v in enumerate(rows)])
    assert not detect_drift(day, baseline, CONFIG)
    # a column with more values than its lists hold still has its count judged
    ids = [profile([{"id": f"{s}-{i}", "n": float(i)} for i in range(400)]) for s in range(20)]
    collapsed = profile([{"id": f"x-{i % 3}", "n": float(i)} for i in range(400)])
    found = detect_drift(collapsed, ids, CONFIG)
    assert [f for f in found if f.column == "id" and f.metric.value == "distinct"]


def _track(day: int, storms: list[str], points: int = 4) -> TableProfile:
    """A storm-track log's day: every storm active that day, ``points`` records each."""
    return profile(
        [{"name": s, "wind": float(30 + 5 * k + day % 7)} for s in storms for k in range(points)]
    )


def _season(days: int) -> list[TableProfile]:
    """Storms of 7 days each, a new one every 5 days (two at once for two days)."""
    runs = []
    for day in range(days):
        active = [f"storm {s}" for s in range(day // 5 + 1) if day < 5 * s + 7]
        runs.append(_track(day, active))
    return runs


def test_new_values_that_arrive_in_clusters_are_counted_in_clusters() -> None:
    season = _season(26)
    baseline, current = season[5:25], season[25]  # storm 5's first day
    assert "storm 5" not in {v.value for p in baseline for v in p.columns["name"].top_values}
    lists = [value_list(p.columns["name"], p.params.top_values) for p in baseline]
    assert all(v is not None for v in lists)
    past = [v for v in lists if v is not None]
    cluster = new_value_cluster(past)
    assert 2.5 < cluster < 4.0  # four points per new storm, shrunk toward 1
    # a new storm's first day (its four points among eight) is as common as storms are
    found = detect_drift(current, baseline, CONFIG)
    assert not [f for f in found if f.column == "name" and f.metric.value == "new_value"]
    # a column whose new values came one record at a time keeps the record count
    singles = [_hours(s) for s in range(20)]
    single_lists = [value_list(p.columns["weather"], p.params.top_values) for p in singles]
    assert new_value_cluster([v for v in single_lists if v is not None]) == 1.0


def _sky(cloudy: int, new: int = 0) -> TableProfile:
    """A day of 24 hourly sky codes: ``cloudy`` hours cloudy, ``new`` hours a code never
    seen, the rest clear."""
    values = ["cloudy"] * cloudy + ["hail"] * new
    values += ["clear"] * (24 - len(values))
    return profile([{"sky": v} for v in values])


def test_a_common_value_back_after_a_few_runs_is_no_cluster_of_new_values() -> None:
    # three sunny days open the window, then cloudy hours on every day: cloudy "arrives"
    # with 8 records once, but it is a member of the column's set (listed by most runs),
    # not a sign that new values come 8 records at a time
    baseline = [_sky(0) for _ in range(3)] + [_sky(6 + k % 5) for k in range(17)]
    lists = [value_list(p.columns["sky"], p.params.top_values) for p in baseline]
    past = [v for v in lists if v is not None]
    assert len(past) == 20
    assert new_value_cluster(past) == 1.0
    # so five hours of a code never seen (21 %) are a new value, not a re-entry
    found = detect_drift(_sky(8, new=5), baseline, CONFIG)
    assert [(f.column, f.metric.value) for f in found] == [("sky", "new_value")]
    # a value that only some runs list still teaches the cluster (a storm's name)
    rare = [_sky(0) for _ in range(3)] + [_sky(8 if k < 4 else 0) for k in range(17)]
    rare_lists = [value_list(p.columns["sky"], p.params.top_values) for p in rare]
    assert new_value_cluster([v for v in rare_lists if v is not None]) == 4.5
