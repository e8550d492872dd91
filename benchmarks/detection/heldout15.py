"""The fifteenth held-out half of the corpus: three tables not yet read by the corpus, from
two packages new to it and one already installed, declared in ``corpus.md`` on 2026-12-04
before the detector ran on any of them (see "The fifteenth held-out half").

Measured only: the benchmark reports them by their figures, never by the columns or
metrics that alarm. Same run rules as the rest of the corpus (one run per day of the
table's own date, recorded 02:00 UTC the next day). Only the packages' data files are read.
"""

from __future__ import annotations

import datetime as dt
import io
import tarfile
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
from corpusbase import _source, print_declaration
from heldout14 import close_move_events, sensor_table, window_after
from realdata import Event, RealTable, _package_dir, _split

__all__ = ["eop", "msft", "serf"]

EOP_YEARS = (2011, 2020)
"""The decade of the IERS C04 series taken (first and last year)."""
EOP_FIELDS = (
    ("year", 4, pa.int64()),
    ("month", 4, pa.int64()),
    ("day", 4, pa.int64()),
    ("hour", 4, pa.int64()),
    ("MJD", 10, pa.float64()),
    ("x", 12, pa.float64()),
    ("y", 12, pa.float64()),
    ("UT1_UTC", 12, pa.float64()),
    ("dX", 12, pa.float64()),
    ("dY", 12, pa.float64()),
    ("x_rate", 12, pa.float64()),
    ("y_rate", 12, pa.float64()),
    ("LOD", 12, pa.float64()),
    ("x_err", 12, pa.float64()),
    ("y_err", 12, pa.float64()),
    ("UT1_UTC_err", 12, pa.float64()),
    ("dX_err", 12, pa.float64()),
    ("dY_err", 12, pa.float64()),
    ("x_rate_err", 12, pa.float64()),
    ("y_rate_err", 12, pa.float64()),
    ("LOD_err", 12, pa.float64()),
)
"""The file's fixed-width fields (its ReadMe.eopc04, bytes 1-218), named after its header."""
LEAP_EVENT = "a leap second, or a window that still holds UT1-UTC of before it"


def _iers_dir() -> Path:
    return _package_dir("astropy_iers_data") / "data"


def _leap_seconds() -> list[dt.date]:
    """The dates (0h UTC) from which each leap second counts, from the package's own
    ``Leap_Second.dat`` (columns MJD, day, month, year, TAI-UTC)."""
    days = []
    for line in (_iers_dir() / "Leap_Second.dat").read_text().splitlines():
        parts = line.split()
        if not parts or line.lstrip().startswith("#"):
            continue
        _, day, month, year, _ = parts
        days.append(dt.date(int(year), int(month), int(day)))
    return days


def eop() -> RealTable:
    """astropy-iers-data's ``eopc04.1962-now``: the IERS 20 C04 Earth orientation
    parameters (pole coordinates, UT1-UTC, length of day, celestial pole offsets, their
    rates and errors), one row a day at 0h UTC, 2011-2020."""
    path = _iers_dir() / "eopc04.1962-now"
    rows: dict[str, list] = {name: [] for name, _, _ in EOP_FIELDS}
    fields = []  # (name, first byte, last byte + 1, how its text reads)
    at = 0
    for name, width, kind in EOP_FIELDS:
        fields.append((name, at, at + width, int if kind == pa.int64() else float))
        at += width
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if not EOP_YEARS[0] <= int(line[:4]) <= EOP_YEARS[1]:
            continue
        for name, start, end, read in fields:
            rows[name].append(read(line[start:end]))
    table = pa.table({name: pa.array(rows[name], kind) for name, _, kind in EOP_FIELDS})
    dates = [
        dt.date(y, m, d) for y, m, d in zip(rows["year"], rows["month"], rows["day"], strict=True)
    ]
    events: dict[dt.date, Event] = {}
    for leap in _leap_seconds():
        window_after(dates, leap, LEAP_EVENT, events)
    return RealTable(
        name="eop",
        source=_source("astropy_iers_data", "data/eopc04.1962-now", table, "2011-2020"),
        days=_split(table, dates),
        date_columns=frozenset({"year", "month", "day", "hour", "MJD"}),
        events=events,
    )


MSFT_FROM = dt.date(2008, 1, 1)
"""The first day taken of pmdarima's Microsoft prices (the file ends 2017-11-10)."""


def msft() -> RealTable:
    """pmdarima's ``msft``: Microsoft's daily open, high, low, close, volume and open
    interest (always 0), one row a trading day, 2008 - 2017-11-10, by ``Date``."""
    path = _package_dir("pmdarima") / "datasets" / "data" / "msft.tar.gz"
    with tarfile.open(path) as archive:
        member = archive.extractfile("msft.csv")
        assert member is not None
        table = pacsv.read_csv(io.BytesIO(member.read()))
    table = table.filter(pc.greater_equal(table["Date"], pa.scalar(MSFT_FROM, pa.date32())))
    dates = table["Date"].to_pylist()
    events = close_move_events(dates, table["Close"].to_pylist())
    return RealTable(
        name="msft",
        source=_source("pmdarima", "datasets/data/msft.tar.gz (msft.csv)", table, "2008 on"),
        days=_split(table, dates),
        date_columns=frozenset({"Date"}),
        events=events,
    )


SERF_OFFSET = "-07:00"
"""The fixed offset the file's timestamps are written in (as the other pvanalytics files)."""


def serf() -> RealTable:
    """pvanalytics' ``serf_east_15min_ac_power``: a PV system's AC power every 15 minutes,
    July - October 2016."""
    path = _package_dir("pvanalytics") / "data" / "serf_east_15min_ac_power.csv"
    table = pacsv.read_csv(path)  # the text's -07:00 offset, read as UTC: back to it
    local = table["measured_on"].cast(pa.timestamp("s", tz=SERF_OFFSET))
    table = table.set_column(0, "measured_on", local)
    return sensor_table(
        "serf", table, "serf_east_15min_ac_power.csv", "AC power", "kW", note="as the file ships it"
    )


if __name__ == "__main__":  # the declaration's counts, printed without faucet
    print_declaration((eop, msft, serf))
