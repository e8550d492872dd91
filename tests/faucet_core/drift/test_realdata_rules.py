"""What real daily tables need: weekly seasonality, bimodal extremes, run labels (date
columns), holidays, small runs. Each behaviour on small hand-built series."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence

import numpy as np
import pyarrow as pa
import pytest

from faucet_core import NumericStats, ProfilingConfig, TableProfile, profile
from faucet_core.config import DriftMethod
from faucet_core.drift import DriftFinding, detect_drift
from faucet_core.drift.detector import run_detection
from faucet_core.drift.psi import chance_psi
from faucet_core.drift.weekly import Weekdays, same_weekday, weekday_of
from faucet_core.errors import ConfigError
from tests.faucet_core.drift.builders import category, column, numeric, table

CONFIG = ProfilingConfig()
MONDAY = dt.datetime(2025, 1, 6, 2, 0, tzinfo=dt.timezone.utc)


def _times(days: int) -> list[dt.datetime]:
    return [MONDAY + dt.timedelta(days=d) for d in range(days)]


def _detect(
    current: TableProfile,
    baseline: Sequence[TableProfile],
    *,
    times: Sequence[dt.datetime] | None = None,
    config: ProfilingConfig = CONFIG,
) -> list[DriftFinding]:
    if times is None:
        return detect_drift(current, baseline, config)
    return detect_drift(
        current, baseline, config, current_time=times[-1], baseline_times=times[:-1]
    )


def _measure(mean: float, *, name: str = "x", lo: float = 0.0, hi: float = 1000.0) -> TableProfile:
    return table(
        column(name, rows=5000, distinct=4000, num=numeric(mean, lo=lo, hi=hi, stddev=100.0))
    )


# -- weekly seasonality ---------------------------------------------------------------------
def _weekly_level(day: int, rng: random.Random) -> float:
    """Day ``day`` after a Monday: Sundays run at 60 %."""
    return (600.0 if day % 7 == 6 else 1000.0) + rng.gauss(0.0, 8.0)


def test_weekday_explains_a_weekly_series_and_not_noise() -> None:
    rng = random.Random(1)
    days = tuple(d % 7 for d in range(20))
    weekly = [_weekly_level(d, rng) for d in range(20)]
    adjusted = same_weekday(weekly, Weekdays(today=6, days=days), alpha=1e-4)
    assert adjusted is not None
    sundays = [weekly[d] for d in range(20) if d % 7 == 6]
    assert sum(adjusted) / 20 == pytest.approx(sum(sundays) / len(sundays))
    noise = [1000.0 + rng.gauss(0.0, 8.0) for _ in range(20)]
    assert same_weekday(noise, Weekdays(today=6, days=days), alpha=1e-4) is None


def test_weekly_needs_two_weeks_and_two_runs_of_the_weekday() -> None:
    rng = random.Random(2)
    short = [_weekly_level(d, rng) for d in range(13)]
    assert same_weekday(short, Weekdays(5, tuple(d % 7 for d in range(13))), 1e-4) is None
    days = tuple(d % 7 for d in range(20) if d % 7 != 6 or d == 6)  # one Sunday only
    values = [_weekly_level(d, rng) for d in range(20) if d % 7 != 6 or d == 6]
    assert same_weekday(values, Weekdays(6, days), 1e-4) is None


def test_a_normal_sunday_is_quiet_with_the_runs_times() -> None:
    # iqr's quartiles sit on the other days: without the weekday, a Sunday is far out
    iqr = ProfilingConfig(method=DriftMethod.IQR)
    rng = random.Random(3)
    runs = [_measure(_weekly_level(d, rng)) for d in range(27)]  # day 27 is a Sunday
    sunday = _measure(_weekly_level(27, rng))
    baseline = runs[-20:]
    times = _times(28)[-21:]
    assert weekday_of(times[-1]) == 6
    assert [f.key for f in _detect(sunday, baseline, config=iqr)] == ["x.mean"]
    assert _detect(sunday, baseline, times=times, config=iqr) == []
    # and a Sunday far below its own weekday is still flagged
    (finding,) = _detect(_measure(300.0), baseline, times=times, config=iqr)
    assert finding.key == "x.mean"


def test_the_same_weekday_cannot_add_a_finding() -> None:
    rng = random.Random(4)
    runs = [_measure(_weekly_level(d, rng)) for d in range(27)]
    # A Sunday at the other days' level: odd for a Sunday, ordinary for the table.
    odd = _measure(1000.0)
    assert _detect(odd, runs[-20:], times=_times(28)[-21:]) == []


def test_times_go_together_and_match_the_baseline() -> None:
    base = [_measure(500.0)] * 5
    with pytest.raises(ConfigError, match="current_time and baseline_times go together"):
        detect_drift(base[0], base, CONFIG, current_time=MONDAY)
    with pytest.raises(ConfigError, match="holds 4 times for 5 baseline runs"):
        detect_drift(base[0], base, CONFIG, current_time=MONDAY, baseline_times=_times(4))


# -- extremes -------------------------------------------------------------------------------
def _departures(earliest: float) -> TableProfile:
    return table(
        column(
            "dep_time",
            rows=900,
            distinct=700,
            num=numeric(1350.0, lo=earliest, hi=2359.0, stddev=480.0, count=900),
        )
    )


def test_a_bimodal_min_is_quiet_when_it_switches_modes() -> None:
    rng = random.Random(5)
    lows = [rng.uniform(1.0, 30.0) for _ in range(20)]
    for index in (3, 11, 16):  # some days nothing leaves after midnight
        lows[index] = rng.uniform(450.0, 460.0)
    baseline = [_departures(v) for v in lows]
    assert _detect(_departures(455.0), baseline) == []
    assert _detect(_departures(2.0), baseline) == []


def test_a_thinner_tail_is_not_an_extreme_finding() -> None:
    rng = random.Random(6)
    baseline = [_departures(rng.uniform(1.0, 30.0)) for _ in range(20)]  # never the late mode
    assert _detect(_departures(453.0), baseline) == []  # still below the middle (1,350)
    (finding,) = _detect(_departures(1500.0), baseline)  # past the middle: the low half is gone
    assert finding.key == "dep_time.min"


def test_with_sketches_a_min_pushed_up_by_a_shift_is_not_a_thinner_tail() -> None:
    # real profiles carry their KLL sketches: the chance that 5,000 records all stay above
    # the new min (955, still below the median 1,000) judges it, and the heuristic for
    # sketch-less baselines stays out
    rng = np.random.default_rng(8)
    baseline = [profile(pa.table({"x": rng.normal(1000.0, 100.0, 5000)})) for _ in range(20)]
    shifted = profile(pa.table({"x": rng.normal(1000.0, 100.0, 5000) + 300.0}))
    d = run_detection(shifted, baseline, CONFIG)
    assert d.cleared["thinner_tail"] == 0
    (finding,) = d.findings
    assert "min" in {f.statistic for f in finding.findings}


def test_an_extreme_far_outside_the_seen_range_is_still_flagged() -> None:
    rng = random.Random(7)
    baseline = [_measure(500.0, hi=rng.uniform(950.0, 1050.0)) for _ in range(20)]
    (finding,) = _detect(_measure(500.0, hi=90_000.0), baseline)
    assert finding.key == "x.max"


# -- run labels (date columns) --------------------------------------------------------------
def _label(value: int, *, name: str = "day") -> TableProfile:
    return table(
        column(name, rows=900, distinct=1, num=numeric(value, lo=value, hi=value, stddev=0.0)),
        column("z", rows=900, distinct=800, num=numeric(50.0)),
    )


def test_an_advancing_day_is_quiet_on_its_steady_step_and_its_wrap() -> None:
    baseline = [_label(d) for d in range(12, 32)]  # days 12..31
    assert _detect(_label(1), baseline) == []  # the next month's first day
    steady = [_label(d) for d in range(2, 22)]
    assert _detect(_label(22), steady) == []


@pytest.mark.parametrize(
    ("value", "what"),
    [(21, "stopped advancing"), (26, "jumps 5"), (15, "goes back")],
)
def test_an_advancing_day_that_stops_jumps_or_goes_back_is_flagged(value: int, what: str) -> None:
    baseline = [_label(d) for d in range(2, 22)]  # 2..21, one step a run
    (finding,) = _detect(_label(value), baseline)
    assert finding.key == "day.mean"
    assert finding.statistic == "label"
    assert what in finding.message


def test_a_month_label_moves_to_the_next_month_quietly() -> None:
    baseline = [_label(1, name="month")] * 20
    assert _detect(_label(2, name="month"), baseline) == []
    names = [category({"Jan": 1.0}, name="mnth", rows=24)] * 20
    assert _detect(category({"Feb": 1.0}, name="mnth", rows=24), names) == []


@pytest.mark.parametrize(
    ("before", "after"),
    [(1, 2), (12, 1), (23, 0), (2025, 2026)],
)
def test_a_constant_label_moving_to_the_next_period_is_quiet(before: int, after: int) -> None:
    baseline = [_label(before, name="period")] * 20
    assert _detect(_label(after, name="period"), baseline) == []


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("March", "April"),
        ("Aug", "Sept"),
        ("Sat", "Sun"),
        ("winter", "Spring"),
        ("2025-03-01", "2025-04-01"),
    ],
)
def test_a_constant_text_label_moving_to_the_next_period_is_quiet(before: str, after: str) -> None:
    baseline = [category({before: 1.0}, name="period", rows=50)] * 20
    assert _detect(category({after: 1.0}, name="period", rows=50), baseline) == []


def test_a_constant_tag_that_switches_is_reported_as_a_new_value() -> None:
    baseline = [category({"web": 1.0}, name="source", rows=500)] * 20
    (finding,) = _detect(category({"app": 1.0}, name="source", rows=500), baseline)
    assert finding.key == "source.new_value"
    assert finding.value_key == "app"
    assert 'replaces "web", the one value of all 20 baseline runs' in finding.message


@pytest.mark.parametrize(("before", "after"), [(3, 7), (5, 4), (2026, 2025)])
def test_a_constant_number_that_switches_is_reported(before: int, after: int) -> None:
    baseline = [_label(before, name="schema_version")] * 20
    (finding,) = _detect(_label(after, name="schema_version"), baseline)
    assert finding.key == "schema_version.new_value"
    assert finding.value_key == after


def test_a_weekday_label_cycles_quietly() -> None:
    baseline = [_label(d % 7, name="weekday") for d in range(20)]
    assert _detect(_label(20 % 7, name="weekday"), baseline) == []


def test_a_real_new_categorical_value_is_still_flagged() -> None:
    shares = {"EU": 0.38, "US": 0.30, "AP": 0.17, "SA": 0.09, "AF": 0.06}
    baseline = [category(shares) for _ in range(20)]
    moved = {"EU": 0.30, "US": 0.28, "AP": 0.15, "SA": 0.09, "AF": 0.06, "ME": 0.12}
    (finding,) = _detect(category(moved), baseline)
    assert finding.key == "region.new_value"
    assert finding.value_key == "ME"


# -- holidays -------------------------------------------------------------------------------
def test_a_holiday_does_not_poison_the_following_days() -> None:
    rng = random.Random(8)
    normal = [_measure(rng.gauss(500.0, 5.0)) for _ in range(20)]
    holiday = _measure(300.0)
    assert [f.key for f in _detect(holiday, normal)] == ["x.mean"]
    after = [*normal[1:], holiday]  # the holiday joined the baseline (on_drift: warn)
    assert _detect(_measure(rng.gauss(500.0, 5.0)), after) == []
    # the band is the normal days': a real shift the day after is still flagged
    assert [f.key for f in _detect(_measure(460.0), after)] == ["x.mean"]


# -- small runs -----------------------------------------------------------------------------
def test_a_value_missing_from_a_small_run_by_chance_has_not_vanished() -> None:
    shares = {"clear": 0.125, "cloudy": 0.5, "rain": 0.375}
    # clear for 2 to 4 of a day's 24 hours: a share that samples (the same count every day
    # would be a panel's key, test_panel.py)
    small = [
        category(
            {"clear": c / 24, "cloudy": (12 + 3 - c) / 24, "rain": 0.375}, name="weather", rows=24
        )
        for c in (2, 3, 4) * 6 + (3, 3)
    ]
    gone = {"cloudy": 0.625, "rain": 0.375}
    assert _detect(category(gone, name="weather", rows=24), small) == []
    large = [category(shares, name="weather", rows=10_000) for _ in range(20)]
    (finding,) = _detect(category(gone, name="weather", rows=10_000), large)
    assert finding.key == "weather.vanished_value"


def test_psi_must_beat_chance_on_few_records() -> None:
    assert chance_psi(24, 3) > 0.5
    assert chance_psi(10_000, 3) < 0.002


def test_fractional_readings_are_not_categories() -> None:
    def readings(values: dict[float, float]) -> TableProfile:
        return table(
            column(
                "temp",
                rows=24,
                distinct=len(values),
                num=numeric(0.3, lo=0.0, hi=1.0, stddev=0.1, count=24),
                top=values,
                types={"number": 24},
            )
        )

    baseline = [readings({0.30: 0.5, 0.32: 0.5}) for _ in range(20)]
    assert _detect(readings({0.30: 0.5, 0.04: 0.5}), baseline) == []


def _latest(last: float, *, p95: float = 2100.0) -> TableProfile:
    stats = NumericStats(
        min=5.0, max=last, mean=1350.0, stddev=480.0, p50=1400.0, p95=p95, count=900
    )
    return table(column("dep_time", rows=900, distinct=700, num=stats))


def test_a_max_that_falls_within_the_upper_tail_is_not_a_finding() -> None:
    rng = random.Random(8)
    baseline = [_latest(rng.uniform(2352.0, 2359.0)) for _ in range(20)]
    # The latest departure left at 22:52, not 23:55: still above the p95 (21:00).
    assert _detect(_latest(2252.0), baseline) == []
    # A max that falls into the body of the column cuts more than 5 % of the records.
    (finding,) = _detect(_latest(1900.0, p95=1880.0), baseline)
    assert finding.key == "dep_time.max"


# -- distinct counts of readings and of near-complete domains -------------------------------
def _readings(distinct: int, stddev: float, *, name: str = "hum") -> TableProfile:
    """24 hourly humidity readings at a resolution of 0.01."""
    stats = NumericStats(
        min=0.5 - stddev, max=0.5 + 2 * stddev, mean=0.52, stddev=stddev, p50=0.51,
        p95=0.5 + 1.5 * stddev, count=24,
    )  # fmt: skip
    return table(column(name, rows=24, distinct=distinct, num=stats))


def _changeable_days(seed: int) -> list[TableProfile]:
    rng = random.Random(seed)
    runs = []
    for _ in range(20):
        stddev = rng.uniform(0.08, 0.2)
        runs.append(_readings(max(2, min(24, round(stddev * 90 + rng.gauss(0, 1)))), stddev))
    return runs


def test_a_calm_day_of_readings_is_not_a_distinct_collapse() -> None:
    baseline = _changeable_days(9)
    # Humidity at 0.87-1.00 all day: three values, its spread a quarter of a usual day's.
    assert _detect(_readings(3, 0.036), baseline) == []
    # The same three values with a usual day's spread are a loss of resolution.
    (rounded,) = _detect(_readings(3, 0.15), baseline)
    assert rounded.key == "hum.distinct"
    # Readings that arrive in hundredths as whole numbers: the spread grows 100-fold
    # without a new resolution, which can clear nothing and raises no distinct finding.
    baseline_rows = [_readings(12, 0.12)] * 20
    whole = NumericStats(min=38.0, max=74.0, mean=52.0, stddev=12.0, p50=51.0, p95=68.0, count=24)
    cents = table(column("hum", rows=24, distinct=12, num=whole))
    assert "hum.distinct" not in {f.key for f in _detect(cents, baseline_rows)}
    # A constant reading (no spread at all) is judged as it always was.
    (stuck,) = _detect(_readings(1, 0.0), baseline)
    assert stuck.key == "hum.distinct"


def _minutes(distinct: int, rows: int) -> TableProfile:
    stats = NumericStats(min=0.0, max=59.0, mean=29.5, stddev=19.0, p50=29.0, p95=57.0, count=rows)
    return table(column("minute", rows=rows, distinct=distinct, num=stats))


def test_a_near_complete_domain_misses_a_few_values_by_chance() -> None:
    # Scheduled minutes of the hour: weekdays (980 departures) show 59 or 60 of them,
    # weekends (770) 58; the baseline's counts are steadier than chance would keep them.
    rng = random.Random(10)
    baseline = [
        _minutes(58, 770) if d % 7 in (5, 6) else _minutes(rng.choice((59, 60)), 980)
        for d in range(20)
    ]
    # A light Saturday (688 departures) saw 54 of the 60 minutes: the rarely used ones
    # come and go.
    assert _detect(_minutes(54, 688), baseline) == []
    # Half of them gone is no chance.
    (finding,) = _detect(_minutes(30, 688), baseline)
    assert finding.key == "minute.distinct"
