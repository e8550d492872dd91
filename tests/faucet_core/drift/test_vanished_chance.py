"""A value gone from a run is judged by the chance of no record of it: its pooled share,
varying between runs as the value itself and its column do (not its lowest share)."""

from __future__ import annotations

import math

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift import DriftMetric, detect_drift
from faucet_core.drift.valuelist import value_list
from faucet_core.drift.values import absence_chance, pooled_share

CONFIG = ProfilingConfig()


def _run(counts: dict[str, int]) -> TableProfile:
    values = [v for v, n in counts.items() for _ in range(n)]
    return profile([{"result": v, "seq": float(i)} for i, v in enumerate(values)])


def _lists(runs: list[TableProfile]):  # type: ignore[no-untyped-def]
    out = []
    for run in runs:
        lst = value_list(run.columns["result"], run.params.top_values)
        assert lst is not None
        out.append(lst)
    return out


def _vanished(current: TableProfile, baseline: list[TableProfile]) -> list[str]:
    found = detect_drift(current, baseline, CONFIG)
    return [f.message for f in found if f.metric is DriftMetric.VANISHED_VALUE]


def test_a_steady_share_is_missing_with_the_binomial_chance() -> None:
    lists = _lists([_run({"pos": 20, "neg": 80}) for _ in range(20)])
    assert pooled_share("pos", lists) == 0.2
    assert math.isclose(absence_chance("pos", lists, 50, 0.0), 0.8**50, rel_tol=1e-9)


def test_a_wandering_share_is_missing_far_more_often_than_its_pooled_share_says() -> None:
    lists = _lists(
        [_run({"pos": 35 if i % 2 else 5, "neg": 65 if i % 2 else 95}) for i in range(20)]
    )
    chance = absence_chance("pos", lists, 40, 0.0)
    assert chance > 100 * (1 - pooled_share("pos", lists)) ** 40
    assert chance < 1.0


def test_a_steady_value_with_one_thin_run_is_still_missed_when_gone() -> None:
    """12 of 60 records a day, 5 on one day: the lowest share (8 %) would make a day
    without it a 1-in-200 event; at its steady 20 % it is one in 400,000."""
    baseline = [_run({"pos": 5 if i == 7 else 12, "neg": 55 if i == 7 else 48}) for i in range(20)]
    (message,) = _vanished(_run({"neg": 60}), baseline)
    assert message.startswith('result.vanished_value: value "pos" is gone from the run')


def test_a_value_fading_over_the_window_is_not_missed_when_it_goes() -> None:
    """From 18 of 60 records down to 2, beside five steady values: its absence next is
    what the fade foretells (the column's other values say nothing of it)."""
    steady = {f"v{k}": 6 for k in range(5)}
    baseline = []
    for i in range(20):
        pos = 18 - (16 * i) // 19
        baseline.append(_run({"pos": pos, "neg": 30 - pos, **steady}))
    assert _vanished(_run({"neg": 30, **steady}), baseline) == []


def test_a_value_near_the_share_floor_is_judged_by_its_pooled_share() -> None:
    """4 % to 7 % of each run, 5.5 % of the baseline's records: frequent in every run."""
    shares = [4, 5, 6, 7] * 5
    baseline = [_run({"pos": 3 * s, "neg": 300 - 3 * s}) for s in shares]
    (message,) = _vanished(_run({"neg": 300}), baseline)
    assert "it was at least 4.0% in each of 20 baseline runs" in message
