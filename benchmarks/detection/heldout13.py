"""The thirteenth held-out half of the corpus: three tables from three packages new to the
corpus, declared in ``corpus.md`` on 2026-12-03 before the detector ran on any of them (see
"The thirteenth held-out half").

Measured only: the benchmark reports them by their figures, never by the columns or
metrics that alarm. Same run rules as the rest of the corpus (one run per day of the
table's own date, recorded 02:00 UTC the next day). Each package is installed without its
dependencies and only its data file is read.
"""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
from corpusbase import _add_holidays, _counts, _holidays, _source, _volume_events
from realdata import Event, RealTable, _package_dir, _split

__all__ = ["cdnow", "quakes", "sys50"]

MAJOR = 6.0
"""A quake of this magnitude or more makes its day and the next events: a major quake's
aftershocks of magnitude 4 and more follow it for days."""


def quakes() -> RealTable:
    """hvsampledata's ``earthquakes``: every earthquake of magnitude 4 or more recorded
    worldwide from April to July 2024 (time, latitude, longitude, depth and its class,
    magnitude and its class, the place in words), by the UTC day of ``time``."""
    path = _package_dir("hvsampledata") / "_data" / "earthquakes.csv"
    table = pacsv.read_csv(
        path, convert_options=pacsv.ConvertOptions(column_types={"time": pa.string()})
    )
    dates = [dt.date.fromisoformat(v[:10]) for v in table["time"].to_pylist()]
    events: dict[dt.date, Event] = {}
    for day, mag in zip(dates, table["mag"].to_pylist(), strict=True):
        if mag is not None and mag >= MAJOR:
            for d in (day, day + dt.timedelta(days=1)):
                events.setdefault(d, Event(f"a magnitude {mag} quake and its aftershocks", False))
    counts = _counts(dates)
    _volume_events(counts, 2.0, events, "quakes", key=lambda _: 0)
    return RealTable(
        name="quakes",
        source=_source("hvsampledata", "_data/earthquakes.csv", table),
        days=_split(table, dates),
        date_columns=frozenset({"time"}),
        events=events,
    )


REPEAT_FROM = dt.date(1997, 4, 1)
"""The first day after the cohort's acquisition quarter: every CDNOW customer in the file
made a first purchase in January-March 1997, so those months hold the cohort's first
purchases and its ramp; from April on the file holds repeat purchases only."""
SEASON = (dt.date(1997, 11, 28), dt.date(1997, 12, 31))
"""The 1997 holiday shopping season, from the day after Thanksgiving to New Year's Eve."""


def cdnow() -> RealTable:
    """Lifetimes' ``CDNOW_master``: the purchases of the 23,570 customers a CD retailer won in
    the first quarter of 1997, until June 1998 (customer id, date, CDs bought, dollars),
    from April 1997 on (:data:`REPEAT_FROM`), by the purchase date (``date``, YYYYMMDD)."""
    path = _package_dir("lifetimes") / "datasets" / "CDNOW_master.txt"
    rows = [line.split() for line in path.read_text().splitlines()]
    rows = [r for r in rows if len(r) == 4 and r[0].isdigit()]
    table = pa.table(
        {
            "customer_id": pa.array([r[0] for r in rows], pa.string()),
            "date": pa.array([int(r[1]) for r in rows], pa.int64()),
            "number_of_cds": pa.array([int(r[2]) for r in rows], pa.int64()),
            "dollar_value": pa.array([float(r[3]) for r in rows], pa.float64()),
        }
    )
    every = [dt.date(v // 10000, v // 100 % 100, v % 100) for v in table["date"].to_pylist()]
    keep = [d >= REPEAT_FROM for d in every]
    table = table.filter(pa.array(keep))
    dates = [d for d, k in zip(every, keep, strict=True) if k]
    events: dict[dt.date, Event] = {}
    _add_holidays(events, {**_holidays("US", 1997), **_holidays("US", 1998)}, "US federal")
    first, last = SEASON
    for day in dates:
        if first <= day <= last:
            events.setdefault(day, Event("the 1997 holiday shopping season", False))
    _volume_events(_counts(dates), 2.0, events, "purchases")
    return RealTable(
        name="cdnow",
        source=_source(
            "Lifetimes",
            "lifetimes/datasets/CDNOW_master.txt",
            table,
            "January-March 1997 (the cohort's first purchases) left out",
        ),
        days=_split(table, dates),
        date_columns=frozenset({"date"}),
        events=events,
    )


def sys50() -> RealTable:
    """pvanalytics' ``system_50_ac_power_2_full_DST_psm3``: NSRDB PSM3 half-hourly weather
    and irradiance for one PV system's site, 2011-2013 (the timestamp, its year, month,
    day, hour and minute, air temperature, global irradiance and the clear-sky global,
    direct and diffuse irradiance), by the local date of its timestamp (UTC-7, no daylight
    saving time). Events: the first day of 2012 and of 2013 (each year is its own PSM3
    download) and any day with fewer than its 48 readings."""
    path = _package_dir("pvanalytics") / "data" / "system_50_ac_power_2_full_DST_psm3.parquet"
    table = pq.read_table(path)
    table = table.rename_columns(["measured_on", *table.column_names[1:]])
    local = pc.local_timestamp(table["measured_on"])
    dates = [v.date() for v in local.to_pylist()]
    events: dict[dt.date, Event] = {}
    for year in (2012, 2013):
        events[dt.date(year, 1, 1)] = Event("a new year: a new PSM3 file", False)
    for day, n in _counts(dates).items():
        if n < 48:
            events.setdefault(day, Event(f"an incomplete day: {n} of 48 readings", False))
    return RealTable(
        name="sys50",
        source=_source(
            "pvanalytics",
            "pvanalytics/data/system_50_ac_power_2_full_DST_psm3.parquet",
            table,
            "the index column named measured_on",
        ),
        days=_split(table, dates),
        date_columns=frozenset({"measured_on", "Year", "Month", "Day", "Hour", "Minute"}),
        events=events,
    )
