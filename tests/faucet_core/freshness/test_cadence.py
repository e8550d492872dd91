"""Learned cadences on controlled histories: daily, hourly, weekday-only, partitioned,
a skipped day, a late day inside the learned range, DST changes, ``max_lag``."""

from __future__ import annotations

import datetime as dt

import pytest

from faucet_core.errors import ConfigError
from faucet_core.freshness import (
    CadenceKind,
    FreshnessConfig,
    FreshnessState,
    Update,
    judge_freshness,
    learn_cadence,
    load_freshness_config,
    update_times,
)
from tests.faucet_core.freshness.builders import UTC, daily, every, utc

H = dt.timedelta(hours=1)


def state(updates: list[Update], now: dt.datetime, **cfg: object) -> FreshnessState:
    return judge_freshness(updates, now, FreshnessConfig(**cfg)).state  # type: ignore[arg-type]


def test_daily_fresh_until_the_learned_deadline_then_overdue() -> None:
    ups = daily(dt.date(2026, 11, 1), 10)  # 11-01 .. 11-10 at 02:00
    cadence = learn_cadence(ups)
    assert cadence is not None
    assert cadence.kind is CadenceKind.CALENDAR
    assert cadence.describe() == "daily at 02:00 UTC"
    verdict = judge_freshness(ups, utc(2026, 11, 11, 3))
    assert verdict.state is FreshnessState.FRESH
    assert verdict.expected == utc(2026, 11, 11, 2)
    assert verdict.deadline is not None
    assert verdict.deadline > verdict.expected
    assert state(ups, verdict.deadline) is FreshnessState.FRESH
    late = verdict.deadline + dt.timedelta(seconds=1)
    overdue = judge_freshness(ups, late)
    assert overdue.state is FreshnessState.OVERDUE
    assert overdue.message.startswith("overdue by 1 s: last update 2026-11-10 02:00 UTC")
    assert "learned cadence: daily at 02:00 UTC" in overdue.message


def test_a_skipped_day_in_the_history_keeps_the_daily_cadence_and_today_is_overdue() -> None:
    ups = daily(dt.date(2026, 11, 1), 10, skip=[dt.date(2026, 11, 4)])  # one 48 h gap
    cadence = learn_cadence(ups)
    assert cadence is not None
    assert cadence.describe() == "daily at 02:00 UTC"
    last = ups[-1].at  # 2026-11-11 02:00
    assert state(ups, last + 20 * H) is FreshnessState.FRESH
    # The next day is skipped: overdue the same morning, not after a widened 48 h range.
    assert state(ups, last + 30 * H) is FreshnessState.OVERDUE


def test_a_late_day_inside_the_learned_range_is_fresh_and_beyond_it_overdue() -> None:
    spread = {
        dt.date(2026, 11, d): dt.timedelta(minutes=m)
        for d, m in [(2, 40), (3, 90), (5, 20), (6, 150), (8, 60), (9, 110)]
    }
    ups = daily(dt.date(2026, 11, 1), 10, late=spread)  # 02:00 .. 04:30
    cadence = learn_cadence(ups)
    assert cadence is not None
    last = ups[-1].at.replace(hour=2, minute=0)  # today's slot at 02:00
    # 04:29 next day: as late as the latest day seen, inside the range.
    assert state(ups, last + dt.timedelta(days=1, hours=2, minutes=29)) is FreshnessState.FRESH
    assert state(ups, last + dt.timedelta(days=1, hours=8)) is FreshnessState.OVERDUE


def test_hourly_cadence_is_elapsed_time() -> None:
    ups = every(utc(2026, 11, 1), H, 30)
    cadence = learn_cadence(ups)
    assert cadence is not None
    assert cadence.kind is CadenceKind.INTERVAL
    assert cadence.describe() == "every 1 h"
    last = ups[-1].at
    assert state(ups, last + 70 * dt.timedelta(minutes=1)) is FreshnessState.FRESH
    assert state(ups, last + 2 * H) is FreshnessState.OVERDUE


def test_weekday_only_daily_schedule_waits_over_the_weekend() -> None:
    ups = daily(dt.date(2026, 11, 2), 15, weekdays=range(5))  # Mon 11-02 .. Fri 11-20
    cadence = learn_cadence(ups)
    assert cadence is not None
    assert cadence.describe() == "daily at 02:00 UTC, Mon-Fri"
    friday = ups[-1].at
    assert friday.weekday() == 4
    assert state(ups, friday + dt.timedelta(days=2, hours=12)) is FreshnessState.FRESH  # Sun
    monday = judge_freshness(ups, friday + dt.timedelta(days=3, hours=1))
    assert monday.expected == friday + dt.timedelta(days=3)
    assert state(ups, friday + dt.timedelta(days=3, hours=6)) is FreshnessState.OVERDUE


def test_one_week_of_weekdays_is_not_yet_a_weekday_pattern() -> None:
    ups = daily(dt.date(2026, 11, 2), 5, weekdays=range(5))  # Mon .. Fri of one week
    cadence = learn_cadence(ups, min_history=3)
    assert cadence is not None
    assert cadence.weekdays == tuple(range(7))


def test_business_hours_hourly_job_is_not_expected_at_night() -> None:
    ups: list[Update] = []
    for day in range(19):  # three weeks, Mon 11-02 .. Fri 11-20
        date = dt.date(2026, 11, 2) + dt.timedelta(days=day)
        if date.weekday() < 5:
            ups += [Update(dt.datetime.combine(date, dt.time(h, 3), UTC)) for h in range(9, 18)]
    cadence = learn_cadence(ups)
    assert cadence is not None
    assert cadence.describe().startswith("every 1 h, 08:")
    friday = ups[-1].at  # Fri 17:03
    assert state(ups, friday + 10 * H) is FreshnessState.FRESH  # the night
    assert judge_freshness(ups, friday + H).expected == friday + dt.timedelta(days=2, hours=16)


@pytest.mark.parametrize(
    ("zone", "first", "change"),
    [
        ("Europe/Berlin", dt.date(2026, 10, 15), dt.date(2026, 10, 25)),  # clocks back
        ("America/New_York", dt.date(2026, 3, 1), dt.date(2026, 3, 8)),  # clocks forward
    ],
)
def test_daily_local_schedule_keeps_its_wall_clock_across_dst(
    zone: str, first: dt.date, change: dt.date
) -> None:
    ups = daily(first, 20, at=dt.time(6, 0), zone=zone)  # spans the change
    cadence = learn_cadence(ups, timezone=zone)
    assert cadence is not None
    assert cadence.describe() == f"daily at 06:00 {zone}"
    before = [u for u in ups if u.at.date() < change][-1]
    expected = cadence.expected_after(before.at)
    assert expected.astimezone(cadence.zone).time() == dt.time(6, 0)
    # In UTC the interval across the change is 23 or 25 h, never 24.
    assert (expected - before.at) in (23 * H, 25 * H)
    # The update right after the change is fresh until its deadline, never overdue early.
    after = [u for u in ups if u.at.date() >= change]
    assert state(ups[: ups.index(after[0])], after[0].at, timezone=zone) is FreshnessState.FRESH


def test_hourly_cadence_across_a_dst_change_stays_hourly() -> None:
    # 2026-10-25 01:00 UTC: Berlin clocks go back; an hourly job keeps running every 60 min.
    ups = every(utc(2026, 10, 24, 12), H, 30)
    cadence = learn_cadence(ups, timezone="Europe/Berlin")
    assert cadence is not None
    assert cadence.describe() == "every 1 h"
    assert cadence.expected_after(ups[-1].at) == ups[-1].at + H


def test_partitions_only_a_newer_partition_is_fresh_data() -> None:
    ups = [
        Update(utc(2026, 11, d, 2), partition=f"2026-11-{d - 1:02d}", order=d) for d in range(1, 9)
    ]
    rerun = Update(utc(2026, 11, 8, 12), partition="2026-11-03", order=3)  # an old partition
    times = update_times([*ups, rerun])
    assert times[-1] == utc(2026, 11, 8, 2)
    verdict = judge_freshness([*ups, rerun], utc(2026, 11, 9, 10))
    assert verdict.last == utc(2026, 11, 8, 2)
    assert verdict.state is FreshnessState.OVERDUE


def test_a_backfill_burst_is_one_update() -> None:
    start = utc(2026, 11, 1, 2)
    burst = [Update(start + dt.timedelta(seconds=s)) for s in range(0, 50, 5)]
    assert update_times(burst) == [start + dt.timedelta(seconds=45)]


def test_warming_up_until_min_history_intervals() -> None:
    ups = daily(dt.date(2026, 11, 1), 5)  # 4 intervals
    far = utc(2027, 1, 1)
    warming = judge_freshness(ups, far)
    assert warming.state is FreshnessState.WARMING
    assert warming.message.startswith("warming up: 4 of 5 intervals")
    assert state(ups, far, min_history=4) is FreshnessState.OVERDUE
    empty = judge_freshness([], far)
    assert empty.state is FreshnessState.WARMING
    assert empty.last is None


def test_max_lag_overrides_the_learned_cadence_and_warm_up() -> None:
    ups = daily(dt.date(2026, 11, 1), 2)
    last = ups[-1].at
    assert state(ups, last + 25 * H, max_lag=dt.timedelta(hours=26)) is FreshnessState.FRESH
    over = judge_freshness(ups, last + 27 * H, FreshnessConfig(max_lag=dt.timedelta(hours=26)))
    assert over.state is FreshnessState.OVERDUE
    assert "(max_lag 26 h)" in over.message


def test_updates_after_now_are_ignored() -> None:
    ups = daily(dt.date(2026, 11, 1), 10)
    verdict = judge_freshness(ups, utc(2026, 11, 5, 1))
    assert verdict.last == utc(2026, 11, 4, 2)
    assert verdict.updates == 4


def test_bad_input_names_the_value_and_the_fix() -> None:
    with pytest.raises(ConfigError, match=r"has no time zone: pass an aware datetime"):
        Update(dt.datetime(2026, 11, 1))
    with pytest.raises(ConfigError, match=r"now=2026-11-01T00:00:00 has no time zone"):
        judge_freshness([], dt.datetime(2026, 11, 1))
    with pytest.raises(ConfigError, match=r"freshness.timezone: \"Mars/Olympus\" is invalid"):
        load_freshness_config({"timezone": "Mars/Olympus"})
    with pytest.raises(ConfigError, match=r"freshness.max_lag: .* must be a positive duration"):
        load_freshness_config({"max_lag": -5})
    with pytest.raises(ConfigError, match=r"freshness.min_hist: unknown field"):
        load_freshness_config({"min_hist": 3})
    assert load_freshness_config({"max_lag": 3600}).max_lag == dt.timedelta(hours=1)
