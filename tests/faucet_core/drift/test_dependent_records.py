"""Records of one run that are not independent draws, and changes that persist.

Hourly readings of one day share the day's weather: a clear day reports the same
ceiling every hour, a calm day keeps the wind on one side. The detector learns from the
baseline how many of a run's records count as one draw (the design effect) and judges
the extremes and the PSI of such a column with that many draws; a level that the newest
baseline run began and the current run keeps is reported once; a rare longer category
moves ``len_max`` without a finding; a day label that advanced with the time since the
last run is no jump. Each is checked against the same case with independent records or
a real change, which must stay a finding.
"""

from __future__ import annotations

import datetime as dt
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift import detect_drift
from faucet_core.drift.draws import design_effect, effective_draws
from faucet_core.drift.values import effective_records

CONFIG = ProfilingConfig()


def _day(rng: random.Random, level: int | None = None, hours: int = 24) -> list[dict[str, object]]:
    """One day of hourly cloud cover in tenths: the day's own level most hours, and on a
    usual day (``level`` None) a few overcast hours, so every such day's maximum is 10;
    the temperature independent per hour."""
    if level is not None:
        cover = [min(10, level + rng.randint(0, 1)) for _ in range(hours)]
    else:
        base = rng.randint(0, 8)
        cover = [10 if h % 6 == 0 else min(10, base + rng.randint(0, 1)) for h in range(hours)]
    return [{"cover": float(c), "temp": rng.gauss(10, 3)} for c in cover]


def _usual_baseline(seed: int = 1) -> list[TableProfile]:
    rng = random.Random(seed)
    return [profile(_day(rng)) for _ in range(20)]


def test_the_design_effect_of_day_long_readings_is_large_and_of_hourly_noise_about_one() -> None:
    baseline = _usual_baseline()
    covers = [p.columns["cover"] for p in baseline]
    temps = [p.columns["temp"] for p in baseline]
    assert design_effect(covers) > 8.0
    assert design_effect(temps) < 3.0
    assert effective_draws(24, covers) < 3.0
    assert effective_draws(24, temps) > 8.0


def _max_findings(current: TableProfile, baseline: list[TableProfile]) -> list[str]:
    found = detect_drift(current, baseline, CONFIG)
    return [f.message for f in found if f.column == "cover"]


def test_a_clear_day_whose_maximum_fell_is_no_finding() -> None:
    baseline = _usual_baseline()
    assert {p.columns["cover"].numeric.max for p in baseline} == {10.0}
    clear = profile(_day(random.Random(99), level=1))
    assert _max_findings(clear, baseline) == []


def test_independent_hours_that_all_stay_low_are_a_finding() -> None:
    # the same fall where every hour is its own draw from the pooled values: 24 hours
    # all at 2 tenths or less cannot be chance
    rng = random.Random(3)
    pooled = [r["cover"] for p in range(20) for r in _day(random.Random(p))]

    def hourly() -> TableProfile:
        return profile([{"cover": rng.choice(pooled), "temp": 0.0} for _ in range(24)])

    baseline = [hourly() for _ in range(20)]
    assert design_effect([p.columns["cover"] for p in baseline]) < 3.0
    clear = profile(_day(random.Random(99), level=1))
    assert _max_findings(clear, baseline)


@settings(max_examples=60, deadline=None)
@given(
    means=st.lists(st.floats(-1e6, 1e6), min_size=3, max_size=20),
    sd=st.floats(0.0, 1e4),
    count=st.integers(1, 10_000),
)
def test_the_design_effect_is_at_least_one_and_draws_at_most_the_records(
    means: list[float], sd: float, count: int
) -> None:
    rng = random.Random(0)
    past = []
    for m in means:
        rows = [{"x": m + sd * rng.gauss(0, 1)} for _ in range(5)]
        past.append(profile(rows).columns["x"])
    d = design_effect(past)
    assert d >= 1.0
    draws = effective_draws(count, past)
    assert 1.0 <= draws <= max(count, 1)
    assert effective_records(count, 0.0) == count
    assert 1.0 <= effective_records(count, 0.05) <= count


def test_effective_records_follow_the_volatility() -> None:
    # 24 records whose shares wander by 0.1 radians between runs count as ~ 11 draws
    assert math.isclose(effective_records(24, 0.01), 24 / (1 + 0.96))
    assert effective_records(1_000_000, 0.01) < 26.0


def _coded(seed: int, share_a: float, rows: int = 24) -> TableProfile:
    rng = random.Random(seed)
    return profile(
        [{"source": "A" if rng.random() < share_a else "B", "n": float(i)} for i in range(rows)]
    )


def test_day_long_codes_do_not_make_a_psi_finding_but_a_shift_of_independent_ones_does() -> None:
    # a provenance code that is mostly the same all day: days wander from 20 % to 80 % A
    rng = random.Random(5)
    wandering = [_coded(s, rng.choice([0.05, 0.25, 0.5, 0.75, 0.95]), rows=200) for s in range(20)]
    quiet = _coded(77, 0.08, rows=200)
    assert not [f for f in detect_drift(quiet, wandering, CONFIG) if f.metric.value == "psi"]
    # steady days at 50 %: a day at 2 % A of 400 records is a real shift
    steady = [_coded(s, 0.5, rows=400) for s in range(20)]
    shifted = _coded(78, 0.02, rows=400)
    found = detect_drift(shifted, steady, CONFIG)
    assert {f.column for f in found} >= {"source"}


def _level(seed: int, level: float, rows: int = 500) -> TableProfile:
    rng = random.Random(seed)
    return profile([{"v": rng.gauss(level, 1.0)} for _ in range(rows)])


def test_a_new_level_is_reported_on_the_run_that_brought_it_not_again() -> None:
    baseline = [_level(s, 10.0) for s in range(20)]
    first = _level(100, 14.0)
    assert "v" in {f.column for f in detect_drift(first, baseline, CONFIG)}
    second = _level(101, 14.0)
    assert "v" not in {f.column for f in detect_drift(second, [*baseline[1:], first], CONFIG)}


def test_an_old_incident_is_still_left_out() -> None:
    # the incident is not the newest run, and the current run is back at the old level
    # except for a new incident of its own: still a finding
    baseline = [_level(s, 10.0) for s in range(20)]
    incident = _level(100, 14.0)
    window = [*baseline[1:10], incident, *baseline[10:]]
    again = _level(101, 14.0)
    assert "v" in {f.column for f in detect_drift(again, window, CONFIG)}


def _classes(seed: int, rows: int, rare: str | None = None) -> TableProfile:
    rng = random.Random(seed)
    values = [rng.choice(["inpatient", "outpatient", "emergency"]) for _ in range(rows)]
    if rare is not None:
        values[0] = rare
    return profile([{"patient_class": v} for v in values])


def test_a_rare_longer_category_moves_len_max_without_a_finding() -> None:
    baseline = [_classes(s, 150) for s in range(20)]
    rare = _classes(99, 150, rare="recurring outpatient")
    found = detect_drift(rare, baseline, CONFIG)
    assert not [f for f in found if f.metric.value == "string_length"]


def test_a_longer_format_most_records_take_is_a_finding() -> None:
    baseline = [_classes(s, 150) for s in range(20)]
    rng = random.Random(7)
    padded = profile(
        [
            {"patient_class": rng.choice(["inpatient", "outpatient", "emergency"]) + " (adult)"}
            for _ in range(150)
        ]
    )
    found = detect_drift(padded, baseline, CONFIG)
    assert [f for f in found if f.column == "patient_class"]


def _labelled(day: int, rows: int = 24) -> TableProfile:
    return profile([{"julday": day, "v": float(i)} for i in range(rows)])


def _at(day: int) -> dt.datetime:
    return dt.datetime(2021, 1, 1, 2, tzinfo=dt.timezone.utc) + dt.timedelta(days=day)


def test_a_day_label_that_kept_pace_with_the_runs_times_is_no_jump() -> None:
    days = list(range(100, 120))
    baseline = [_labelled(d) for d in days]
    times = [_at(d) for d in days]
    # two days without a load: the label advances by 3, and so did the clock
    later = _labelled(122)
    found = detect_drift(later, baseline, CONFIG, current_time=_at(122), baseline_times=times)
    assert "julday" not in {f.column for f in found}
    # the same jump a day after the last run is still a jump
    jumped = detect_drift(later, baseline, CONFIG, current_time=_at(120), baseline_times=times)
    assert "julday" in {f.column for f in jumped}
    # and without times it is judged by its steps alone
    assert "julday" in {f.column for f in detect_drift(later, baseline, CONFIG)}


def _dated(day: dt.date, rows: int = 30) -> TableProfile:
    return profile([{"day": day.day, "month": day.month, "v": float(i)} for i in range(rows)])


def _recorded(day: dt.date) -> dt.datetime:
    """A nightly job: 02:00 UTC the day after the data's date."""
    return dt.datetime.combine(day + dt.timedelta(days=1), dt.time(2), dt.timezone.utc)


def test_labels_that_name_the_runs_own_date_follow_the_calendar() -> None:
    # survey nights about a month apart: the day of the month moved on every run, and
    # the next night falls on the last one's day of the month (it repeats), or on an
    # earlier one's (it goes back)
    days = [dt.date(2019, 1, 1) + dt.timedelta(days=33 * k) for k in range(20)]
    baseline = [_dated(d) for d in days]
    times = [_recorded(d) for d in days]
    last = days[-1]
    repeat = last.replace(month=last.month + 1)
    back = repeat.replace(day=max(d.day for d in days if d.day < last.day))
    assert repeat.day == last.day
    assert back > last
    for nxt in (repeat, back):
        found = detect_drift(
            _dated(nxt), baseline, CONFIG, current_time=_recorded(nxt), baseline_times=times
        )
        assert not {"day", "month"} & {f.column for f in found}, nxt
    # daily runs, then an old partition loaded again: its day no longer names the run's
    # date, and it goes back
    days = [dt.date(2020, 3, 1) + dt.timedelta(days=k) for k in range(20)]
    baseline = [_dated(d) for d in days]
    times = [_recorded(d) for d in days]
    nxt = days[-1] + dt.timedelta(days=1)
    quiet = detect_drift(
        _dated(nxt), baseline, CONFIG, current_time=_recorded(nxt), baseline_times=times
    )
    assert "day" not in {f.column for f in quiet}
    reloaded = detect_drift(
        _dated(days[5]), baseline, CONFIG, current_time=_recorded(nxt), baseline_times=times
    )
    assert "day" in {f.column for f in reloaded}


def _date_key(day: dt.date, rows: int = 30) -> TableProfile:
    """A warehouse's date key: the run's date written as a number, 20240131."""
    key = day.year * 10_000 + day.month * 100 + day.day
    return profile([{"date_key": key, "v": float(i)} for i in range(rows)])


@pytest.mark.parametrize("with_times", [True, False])
def test_a_date_written_as_a_number_steps_by_days_across_a_month(with_times: bool) -> None:
    # 20240430 -> 20240501 is one day, not a jump of 71 after twenty steps of 1
    days = [dt.date(2024, 4, 11) + dt.timedelta(days=k) for k in range(20)]
    baseline = [_date_key(d) for d in days]
    clock = {"baseline_times": [_recorded(d) for d in days]} if with_times else {}

    def found(day: dt.date, loaded: dt.date) -> set[str]:
        now = {"current_time": _recorded(loaded)} if with_times else {}
        return {f.column for f in detect_drift(_date_key(day), baseline, CONFIG, **now, **clock)}

    assert days[-1] == dt.date(2024, 4, 30)
    following = dt.date(2024, 5, 1)
    assert "date_key" not in found(following, following)
    # the next night's load holding a week later's partition is a jump, in days
    skipped = dt.date(2024, 5, 8)
    assert "date_key" in found(skipped, following)
    if with_times:  # a week later, holding that week's date: the label names the run's date
        assert "date_key" not in found(skipped, skipped)
    else:
        (finding,) = [
            f for f in detect_drift(_date_key(skipped), baseline, CONFIG) if f.column == "date_key"
        ]
        assert "jumps 8 days from the last run's 20240430" in finding.message, finding.message


def _one_row(day: dt.date, tmax: float) -> TableProfile:
    return profile([{"day": day.day, "tmax": tmax}])


def test_a_table_of_one_row_a_day_judges_its_measurements_by_their_level() -> None:
    rng = random.Random(3)
    days = [dt.date(2020, 5, 1) + dt.timedelta(days=k) for k in range(21)]
    temps = [round(rng.gauss(80.0, 4.0), 1) for _ in days]
    temps[-1] = temps[-2]  # the same high two days running: no label that stopped
    baseline = [_one_row(d, t) for d, t in zip(days[:-1], temps[:-1], strict=True)]
    times = [_recorded(d) for d in days[:-1]]
    now = _recorded(days[-1])
    same = detect_drift(
        _one_row(days[-1], temps[-1]), baseline, CONFIG, current_time=now, baseline_times=times
    )
    assert same == []
    # the day column names its run's date: not judged by its level either
    scaled = detect_drift(
        _one_row(days[-1], temps[-1] * 100),
        baseline,
        CONFIG,
        current_time=now,
        baseline_times=times,
    )
    assert {f.column for f in scaled} == {"tmax"}


def _remarks(seed: int, rows: int, *, cut: int | None = None) -> TableProfile:
    """Free-text remarks: mostly short, some long (a 10 % tail of 40-60 characters);
    ``cut`` truncates every remark to that many characters (a broken export)."""
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz "
    texts = [
        "".join(
            rng.choices(
                letters, k=rng.randint(40, 60) if rng.random() < 0.1 else rng.randint(5, 15)
            )
        )
        for _ in range(rows)
    ]
    if cut is not None:
        texts = [t[:cut] for t in texts]
    return profile([{"remark": t} for t in texts])


def _light_days() -> list[TableProfile]:
    """20 days of 8 to 30 records: most draw a long remark, a few do not."""
    rng = random.Random(3)
    return [_remarks(s, rng.randint(8, 30)) for s in range(20)]


def test_a_light_run_that_drew_no_long_remark_keeps_len_max_quiet() -> None:
    """Eight records of a column whose long remarks are 10 %: no long one is drawn on 43 %
    of such runs, and its lower longest text is the run's few draws, not a finding."""
    baseline = _light_days()
    longest = [p.columns["remark"].string.len_max for p in baseline]  # type: ignore[union-attr]
    assert sum(n > 15 for n in longest) >= 12  # most light days draw a long remark
    light = next(
        p
        for s in range(100, 200)
        if (p := _remarks(s, 8)).columns["remark"].string.len_max <= 15  # type: ignore[union-attr]
    )
    found = detect_drift(light, baseline, CONFIG)
    assert not [f for f in found if f.column == "remark"]


def test_remarks_cut_short_are_a_finding() -> None:
    found = detect_drift(_remarks(99, 30, cut=10), _light_days(), CONFIG)
    assert [f.metric.value for f in found if f.column == "remark"] == ["string_length"]
