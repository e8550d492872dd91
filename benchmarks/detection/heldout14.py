"""The fourteenth held-out half of the corpus: three tables not yet read by the corpus,
from two of its packages, declared in ``corpus.md`` on 2026-12-04 before the detector ran
on any of them (see "The fourteenth held-out half").

Measured only: the benchmark reports them by their figures, never by the columns or
metrics that alarm. Same run rules as the rest of the corpus (one run per day of the
table's own date, recorded 02:00 UTC the next day). Only the packages' data files are read.
"""

from __future__ import annotations

import datetime as dt

import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
from corpusbase import (
    _counts,
    _daily_means,
    _incomplete_days,
    _rank_quantile,
    _source,
    print_declaration,
)
from realdata import Event, RealTable, _package_dir, _split

__all__ = [
    "CLOSE_MOVE",
    "WINDOW",
    "aapl",
    "close_move_events",
    "modtemp",
    "poa15",
    "sensor_table",
    "window_after",
]

CLOSE_MOVE = 0.04
"""A trading day whose close moved more than this from the previous one's is an event (as
for the corpus's other stock tables, arca and techstocks)."""
SPLIT = dt.date(2020, 8, 31)
"""Apple's four-for-one stock split took effect on this trading day."""
WINDOW = 20
"""The detector's default window: for this many runs after the split, the baseline still
holds prices of before it."""


def close_move_events(dates: list[dt.date], closes: list[float | None]) -> dict[dt.date, Event]:
    """Each trading day whose close moved more than :data:`CLOSE_MOVE` from the day
    before's, as an event."""
    events: dict[dt.date, Event] = {}
    for i in range(1, len(dates)):
        before, now = closes[i - 1], closes[i]
        if before and now is not None and abs(now / before - 1.0) > CLOSE_MOVE:
            events.setdefault(dates[i], Event(f"a close {now / before - 1.0:+.1%}", False))
    return events


def window_after(
    dates: list[dt.date], day: dt.date, reason: str, events: dict[dt.date, Event]
) -> None:
    """Label ``day`` (when it is one of ``dates``) and the :data:`WINDOW` runs after it,
    whose baseline still holds runs of before it."""
    after = [d for d in dates if d >= day][: WINDOW + 1]
    if after and after[0] == day:
        for d in after:
            events.setdefault(d, Event(reason, False))


def aapl() -> RealTable:
    """hvsampledata's ``apple_stocks``: Apple's daily open, high, low, close, volume and
    adjusted close, 2019-2024, one row a trading day, by ``date``."""
    path = _package_dir("hvsampledata") / "_data" / "apple_stocks.csv"
    table = pacsv.read_csv(path)
    dates = table["date"].to_pylist()
    events = close_move_events(dates, table["close"].to_pylist())
    window_after(dates, SPLIT, "the split, or a window that still holds prices before it", events)
    return RealTable(
        name="aapl",
        source=_source("hvsampledata", "_data/apple_stocks.csv", table),
        days=_split(table, dates),
        date_columns=frozenset({"date"}),
        events=events,
    )


READINGS = 96
"""Readings of a complete day: one every 15 minutes."""
TAILS = (0.01, 0.99)
"""A day whose mean reading is below the first or above the second quantile of the
table's daily means is an event (as for seattletemps and sftemps)."""


def _sensor(name: str, file: str, what: str, unit: str) -> RealTable:
    """A pvanalytics parquet file of one PV system's 15-minute readings of one quantity
    (see :func:`sensor_table`)."""
    path = _package_dir("pvanalytics") / "data" / file
    table = pq.read_table(path)
    table = table.rename_columns(["measured_on", *table.column_names[1:]])
    table = table.replace_schema_metadata(None)
    return sensor_table(name, table, file, what, unit, note="the index column named measured_on")


def sensor_table(name: str, table, file: str, what: str, unit: str, note: str) -> RealTable:
    """A pvanalytics table of one PV system's 15-minute readings of one quantity (columns
    ``measured_on``, the reading), by the local date (the file's fixed UTC-7 offset, no
    daylight saving time) of its timestamp. Events: any day with other than 96 readings
    (severe below 48), any day with a missing reading (severe when all are missing: an
    outage) and the day after it, and any day whose mean reading lies in a 1 % tail of the
    table's daily means."""
    dates = [v.date() for v in pc.local_timestamp(table["measured_on"]).to_pylist()]
    counts = _counts(dates)
    events: dict[dt.date, Event] = {}
    _incomplete_days(counts, READINGS, events, "readings")
    values = table.column(1).to_pylist()
    missing: dict[dt.date, int] = {}
    for day, v in zip(dates, values, strict=True):
        if v is None:
            missing[day] = missing.get(day, 0) + 1
    days = list(counts)
    for i, day in enumerate(days):
        if day not in missing:
            continue
        n = missing[day]
        events.setdefault(day, Event(f"{n} missing {what} readings", n == counts[day]))
        if i + 1 < len(days):
            events.setdefault(days[i + 1], Event("the day after missing readings", False))
    means = _daily_means(dates, values)
    low = _rank_quantile(means.values(), TAILS[0])
    high = _rank_quantile(means.values(), TAILS[1])
    for day, mean in means.items():
        if mean < low or mean > high:
            events.setdefault(
                day, Event(f"a daily mean {what} of {mean:.1f} {unit} (a 1 % tail)", False)
            )
    return RealTable(
        name=name,
        source=_source("pvanalytics", f"pvanalytics/data/{file}", table, note),
        days=_split(table, dates),
        date_columns=frozenset({"measured_on"}),
        events=events,
    )


def modtemp() -> RealTable:
    """pvanalytics' ``system_4_module_temperature``: one PV system's module temperature
    every 15 minutes, 2015-2018."""
    return _sensor("modtemp", "system_4_module_temperature.parquet", "module temperature", "°C")


def poa15() -> RealTable:
    """pvanalytics' ``system_15_poa_irradiance``: another PV system's plane-of-array
    irradiance every 15 minutes, February 2019 - October 2023."""
    return _sensor("poa15", "system_15_poa_irradiance.parquet", "irradiance", "W/m²")


if __name__ == "__main__":  # the declaration's counts, printed without faucet
    print_declaration((aapl, modtemp, poa15))
