"""Dates written as text in the formats files use (faucet_core.drift.valuelist's
calendar formats, detector stage ``lengths_follow_the_calendar``), on real profiles: an
hourly timestamp column of an export (``10/9/2016 0:00``) grows a character when the
day does, which is the calendar, not a finding; the same column arriving in another
format is still judged."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift.detector import run_detection
from faucet_core.drift.valuelist import calendar_format

CONFIG = ProfilingConfig()
START = dt.date(2016, 9, 20)


def _day(day: dt.date, stamp: str = "us") -> TableProfile:
    rng = random.Random(day.toordinal())
    rows = []
    for hour in range(24):
        if stamp == "us":
            text = f"{day.month}/{day.day}/{day.year} {hour}:00"
        else:
            text = f"{day.isoformat()} {hour:02d}:00"
        rows.append({"DateTime": text, "temp": 85.0 + rng.gauss(0.0, 0.3)})
    return profile(rows)


def _times(days: list[dt.date]) -> list[dt.datetime]:
    return [dt.datetime.combine(d + dt.timedelta(days=1), dt.time(2), dt.UTC) for d in days]


@pytest.mark.parametrize(
    ("value", "name"),
    [
        ("2016-10-03", "iso"),
        ("2016-10-03T07:30:00Z", "iso"),
        ("2016/10/03 7:30", "year/month/day"),
        ("10/3/2016 0:00", "month/day/year"),
        ("1/9/16 9:05 PM", "month/day/year"),
        ("03.10.2016", "day.month.year"),
        ("Hackney", None),
        ("12.50", None),
        ("3/4", None),
        (20161003, None),
    ],
)
def test_calendar_format_names_the_way_a_date_is_written(value: object, name: str | None) -> None:
    assert calendar_format(value) == name


def test_an_export_timestamp_growing_a_digit_with_the_day_is_no_finding() -> None:
    days = [START + dt.timedelta(days=i) for i in range(21)]  # 9/20 ... 10/10
    profiles = [_day(d) for d in days]
    times = _times(days)
    cleared = 0
    for i in range(5, 21):
        detection = run_detection(
            profiles[i],
            profiles[max(0, i - 20) : i],
            CONFIG,
            current_time=times[i],
            baseline_times=times[max(0, i - 20) : i],
        )
        assert "DateTime" not in {f.column for f in detection.findings}, days[i]
        cleared += detection.cleared["lengths_follow_the_calendar"]
    assert cleared >= 1  # a longer date (10/1 after 9/30, 10/10 after 10/9) was a candidate


def test_the_same_timestamps_in_another_format_are_still_judged() -> None:
    days = [START + dt.timedelta(days=i) for i in range(21)]
    profiles = [_day(d, stamp="iso") for d in days[:20]] + [_day(days[20], stamp="us")]
    times = _times(days)
    detection = run_detection(
        profiles[20], profiles[:20], CONFIG, current_time=times[20], baseline_times=times[:20]
    )
    assert "DateTime" in {f.column for f in detection.findings}


def test_a_rare_category_on_a_one_record_day_is_as_long_as_that_category() -> None:
    """A stable category's string lengths follow its mix even when the run's one value is
    new to the window: the value tests judge that value (here: within chance), and its
    length is that category's length (``lengths_follow_the_mix``)."""
    rng = random.Random(5)
    kinds = ["Healthcare Provider"] * 8 + ["Business Associate"] * 3 + ["Health Plan"]
    baseline = [
        profile([{"kind": rng.choice(kinds[:11]), "size": rng.lognormvariate(8, 1)}])
        for _ in range(20)
    ]
    rare = profile([{"kind": "Health Plan", "size": 3000.0}])
    detection = run_detection(rare, baseline, CONFIG)
    assert "kind" not in {f.column for f in detection.findings}
    assert detection.cleared["lengths_follow_the_mix"] >= 1
