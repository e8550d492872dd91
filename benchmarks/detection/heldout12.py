"""The twelfth held-out half of the corpus: one table declared in ``corpus.md`` on
2026-12-03 before the detector ran on it (see "The twelfth held-out half").

Measured only: the benchmark reports it by its figures, never by the columns or metrics
that alarm. Same run rules as the rest of the corpus (one run per day of the table's own
date, recorded 02:00 UTC the next day).
"""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
from corpusbase import _package_dir, _source
from realdata import Event, RealTable, _split

__all__ = ["miami"]


def _measured(*fields: tuple[str, int]) -> list[tuple[str, int, bool]]:
    """Measured fields, each followed by its one-letter source flag and its uncertainty
    code."""
    return [
        part
        for name, width in fields
        for part in (
            (name, width, False),
            (f"{name}Source", 1, True),
            (f"{name}Uncertainty", 1, False),
        )
    ]


_FIELDS: list[tuple[str, int, bool]] = [
    *[(name, 2, False) for name in ("year", "month", "day", "hour")],
    ("ETR", 4, False),
    ("ETRN", 4, False),
    *_measured(
        ("GHI", 4), ("DNI", 4), ("DHI", 4), ("GHillum", 4), ("DNillum", 4), ("DHillum", 4),
        ("Zenithlum", 4), ("TotCld", 2), ("OpqCld", 2), ("DryBulb", 4), ("DewPoint", 4),
        ("RHum", 3), ("Pressure", 4), ("Wdir", 3), ("Wspd", 3), ("Hvis", 4), ("CeilHgt", 5),
    ),
    ("PresentWeather", 10, True),
    *_measured(("Pwat", 3), ("AOD", 3), ("SnowDepth", 3), ("LastSnowfall", 2)),
]  # fmt: skip
"""The TMY2 record, field by field (name, width, whether text), as NREL's TMY2 manual lays
out the 8,760 hourly lines after the station's header line."""

WINDY = 100
"""An hourly wind speed at or above this (tenths of m/s: 10 m/s) makes the day an event,
as for the TMY3 tables."""


def miami() -> RealTable:
    """pvlib's TMY2 file (WBAN 12839, Miami): a typical meteorological year, 24 hourly
    rows a day of irradiance, illuminance, cloud, temperature, humidity, pressure, wind,
    visibility, ceiling, present weather, precipitable water, aerosol and snow, each
    measured field with its source flag and uncertainty code, as the file writes them
    (missing values keep their 9s). Run dates are the month and day in the non-leap year
    2021 (order only): each month comes from a different source year."""
    path = _package_dir("pvlib") / "data" / "12839.tm2"
    lines = path.read_text().splitlines()[1:]  # the first line is the station's header
    fields = _FIELDS
    columns: dict[str, list[object]] = {name: [] for name, _, _ in fields}
    for line in lines:
        at = 1  # each record starts with a blank
        for name, width, text in fields:
            raw = line[at : at + width]
            at += width
            columns[name].append(raw if text else int(raw) if raw.strip() else None)
    table = pa.table(
        {
            name: pa.array(values, pa.string() if text else pa.int64())
            for (name, _, text), values in zip(fields, columns.values(), strict=True)
        }
    )
    months, days = table["month"].to_pylist(), table["day"].to_pylist()
    dates = [dt.date(2021, m, d) for m, d in zip(months, days, strict=True)]
    events: dict[dt.date, Event] = {}
    for month in range(2, 13):
        events[dt.date(2021, month, 1)] = Event("a new month: its source year changes", False)
    for day, w in zip(dates, table["Wspd"].to_pylist(), strict=True):
        if w is not None and WINDY <= w < 999:  # 999: missing
            events.setdefault(day, Event(f"wind: {w / 10:g} m/s", False))
    return RealTable(
        name="miami",
        source=_source("pvlib", "data/12839.tm2", table),
        days=_split(table, dates),
        date_columns=frozenset({"year", "month", "day", "hour"}),
        events=events,
    )
