"""Properties of the freshness verdict, over generated histories."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core.freshness import FreshnessConfig, FreshnessState, Update, judge_freshness
from tests.faucet_core.freshness.builders import UTC

ZONES = st.sampled_from(["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata"])
START = st.datetimes(
    min_value=dt.datetime(2024, 1, 1), max_value=dt.datetime(2027, 12, 31), timezones=st.just(UTC)
)


@st.composite
def histories(draw: st.DrawFn) -> list[Update]:
    start = draw(START)
    step = draw(st.sampled_from([300, 900, 3600, 6 * 3600, 86400, 2 * 86400, 7 * 86400]))
    jitter = draw(st.lists(st.floats(-0.2, 0.6), min_size=3, max_size=40))
    times, at = [], start
    for j in jitter:
        at = at + dt.timedelta(seconds=step * (1 + j))
        times.append(Update(at))
    return times


@settings(max_examples=60, deadline=None)
@given(histories(), ZONES, st.integers(2, 6))
def test_never_overdue_right_after_a_materialization(
    ups: list[Update], zone: str, min_history: int
) -> None:
    cfg = FreshnessConfig(timezone=zone, min_history=min_history)
    last = max(u.at for u in ups)
    for after in (dt.timedelta(0), dt.timedelta(seconds=1), dt.timedelta(minutes=1)):
        assert judge_freshness(ups, last + after, cfg).state is not FreshnessState.OVERDUE


@settings(max_examples=60, deadline=None)
@given(histories(), ZONES, st.floats(0, 30))
def test_deterministic_and_monotone_in_now(ups: list[Update], zone: str, days: float) -> None:
    cfg = FreshnessConfig(timezone=zone, min_history=2)
    now = max(u.at for u in ups) + dt.timedelta(days=days)
    first = judge_freshness(ups, now, cfg)
    assert judge_freshness(list(reversed(ups)), now, cfg) == first
    if first.state is FreshnessState.OVERDUE:
        assert first.deadline is not None
        assert first.deadline < now
        later = judge_freshness(ups, now + dt.timedelta(hours=5), cfg)
        assert later.state is FreshnessState.OVERDUE
    if first.state is FreshnessState.FRESH:
        assert first.deadline is not None
        assert now <= first.deadline
        assert first.last is not None
        assert first.deadline > first.last


@settings(max_examples=40, deadline=None)
@given(histories(), st.integers(1, 72))
def test_max_lag_is_exact(ups: list[Update], hours: int) -> None:
    lag = dt.timedelta(hours=hours)
    cfg = FreshnessConfig(max_lag=lag)
    last = max(u.at for u in ups)
    assert judge_freshness(ups, last + lag, cfg).state is FreshnessState.FRESH
    over = last + lag + dt.timedelta(seconds=1)
    assert judge_freshness(ups, over, cfg).state is FreshnessState.OVERDUE
