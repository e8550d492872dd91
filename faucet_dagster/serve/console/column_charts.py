"""The dataset page's charts (pure: no I/O): per column, each judged statistic over the
shown runs with the band the detector judged the newest run against, and a categorical
column's top values' shares run by run."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from faucet_core.catalog.model import DatasetProfileRun
from faucet_core.drift import DriftFinding, DriftFindingError
from faucet_core.drift.bands_view import SeriesBand
from faucet_core.drift.numfmt import fmt_number, fmt_rate
from faucet_core.drift.series import SERIES, SeriesSpec
from faucet_core.profile import ColumnProfile
from faucet_dagster.serve.console.charts import ChartPoint, svg_chart
from faucet_dagster.serve.console.views import TABLE_LABEL, ts

__all__ = [
    "Chart",
    "Shown",
    "ValueShare",
    "charted",
    "had_nulls",
    "reader",
    "series_chart",
    "value_shares",
]

TOP_SHOWN = 6
"""Top values followed per categorical column (plus any a finding named)."""
VALUE_METRICS = ("new_value", "vanished_value")
SHARE_SIZE = (260, 64)
"""A top value's share chart: smaller than a statistic's."""
MIN_COVERAGE = 0.5
"""A column's top values are shown when they hold at least this share of its records."""
_LABEL = {
    "null_rate": "null rate",
    "distinct": "distinct values",
    "mean": "mean",
    "min": "min",
    "max": "max",
    "len_mean": "mean length",
    "len_max": "longest length",
    "rows": "rows",
}


@dataclass(frozen=True)
class Chart:
    statistic: str
    label: str
    svg: Markup
    band: str
    """The band of the newest run in words ('' without one)."""
    drifted: bool
    """The statistic drifted in one of the shown runs."""


@dataclass(frozen=True)
class ValueShare:
    value: str
    first: str
    latest: str
    change: str
    flagged: str
    """'new' / 'vanished' when a finding named this value, else ''."""
    svg: Markup


def _findings(run: DatasetProfileRun) -> list[DriftFinding]:
    out = []
    for data in run.findings:
        try:
            out.append(DriftFinding.from_dict(data))
        except DriftFindingError:
            continue  # written by an incompatible faucet: not drawn
    return out


@dataclass(frozen=True)
class Shown:
    """One shown run, read once: its findings (and each one's evidence, by series)."""

    run: DatasetProfileRun
    findings: list[DriftFinding]
    label: str
    """The run as a chart point's tooltip names it."""
    by_series: dict[tuple[str, str, str], DriftFinding]
    """(column, statistic, metric) -> the finding or evidence about that series."""

    @classmethod
    def of(cls, run: DatasetProfileRun) -> Shown:
        findings = _findings(run)
        by_series: dict[tuple[str, str, str], DriftFinding] = {}
        for f in findings:
            for g in f.findings:
                by_series.setdefault((g.column, g.statistic, g.metric.value), g)
        label = f"{ts(run.recorded_at)} run {run.run_id[:8]}"
        return cls(run, findings, label, by_series)


def _fmt(statistic: str) -> Callable[[float], str]:
    if statistic == "null_rate":
        return fmt_rate
    if statistic == "rows":
        return lambda v: f"{v:,.0f}"
    return fmt_number


def _band_words(band: SeriesBand | None, fmt: Callable[[float], str], lowest: float | None) -> str:
    """The band in words, its low end no lower than the statistic can go (a null rate's
    floor reaches below 0 %)."""
    if band is None:
        return ""
    low = band.low if lowest is None else max(band.low, lowest)
    return f"band {fmt(low)} to {fmt(band.high)}"


def series_chart(
    column: str,
    spec: SeriesSpec,
    runs: Sequence[Shown],
    read: Callable[[DatasetProfileRun], float | None],
    band: SeriesBand | None,
    band_from: dt.datetime | None,
) -> Chart:
    fmt = _fmt(spec.statistic)
    points = []
    drifted = False
    key = (column, spec.statistic, spec.metric.value)
    for shown in runs:
        run = shown.run
        mine = shown.by_series.get(key)
        expected = None
        if mine is not None and mine.expected_low is not None and mine.expected_high is not None:
            expected = (mine.expected_low, mine.expected_high)
        drifted = drifted or mine is not None
        points.append(
            ChartPoint(
                at=run.recorded_at,
                value=read(run),
                run=shown.label,
                drift=mine is not None,
                expected=expected,
            )
        )
    name = column if column else TABLE_LABEL
    label = f"{name} {_LABEL.get(spec.statistic, spec.statistic)}"
    svg = svg_chart(
        points,
        label=label,
        fmt=fmt,
        band=None if band is None else (band.low, band.high),
        band_from=band_from,
        bounds=(0.0, 1.0) if spec.share else (0.0, float("inf")) if spec.step else None,
    )
    lowest = 0.0 if spec.share or spec.step else None
    return Chart(spec.statistic, label, svg, _band_words(band, fmt, lowest), drifted)


def charted(col: ColumnProfile, drifted: set[str], nulls: bool) -> list[SeriesSpec]:
    """The statistics drawn for a column: its null rate (when a shown run had nulls), its
    level (mean, or mean length), and every statistic that drifted in a shown run. A
    classified column's numbers are values: never drawn."""
    out = []
    for spec in SERIES:
        s = spec.statistic
        if col.classified and s in ("mean", "min", "max"):
            continue
        if (
            (s == "null_rate" and nulls)
            or s in drifted
            or (s == "mean" and col.numeric is not None)
            or (s == "len_mean" and col.string is not None and col.numeric is None)
        ):
            out.append(spec)
    return out


def _value_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _shares(col: ColumnProfile | None) -> dict[str, float]:
    if col is None or col.top_values is None:
        return {}
    return {_value_text(t.value): t.share for t in col.top_values}


def value_shares(name: str, runs: Sequence[Shown]) -> tuple[ValueShare, ...]:
    latest = runs[-1].run.profile.columns.get(name)
    if latest is None or latest.top_values is None or latest.high_cardinality or latest.classified:
        return ()
    flagged: dict[str, tuple[str, set[int]]] = {}
    for i, shown in enumerate(runs):
        for f in shown.findings:
            if f.column != name:
                continue
            for g in f.findings:
                if g.metric.value in VALUE_METRICS and g.value_key is not None:
                    key = _value_text(g.value_key)
                    word = "new" if g.metric.value == "new_value" else "vanished"
                    flagged.setdefault(key, (word, set()))[1].add(i)
    if not flagged and (latest.numeric is not None or latest.top_values_coverage < MIN_COVERAGE):
        # numbers are drawn as series, and a list that leaves most records out says little
        # (ids, free text): their values only when a finding named one
        return ()
    shares = [_shares(shown.run.profile.columns.get(name)) for shown in runs]
    wanted = list(dict.fromkeys([*list(shares[-1])[:TOP_SHOWN], *flagged]))
    out = []
    for value in wanted:
        marks = flagged.get(value, ("", set()))
        points = [
            ChartPoint(
                at=shown.run.recorded_at,
                value=shares[i].get(value, 0.0 if shares[i] else None),
                run=shown.label,
                drift=i in marks[1],
            )
            for i, shown in enumerate(runs)
        ]
        first = next((p.value for p in points if p.value is not None), None)
        now = points[-1].value
        change = "-"
        if first is not None and now is not None:
            change = f"{(now - first) * 100:+.1f} pp"
        out.append(
            ValueShare(
                value=value,
                first=fmt_rate(first) if first is not None else "-",
                latest=fmt_rate(now) if now is not None else "-",
                change=change,
                flagged=marks[0],
                svg=svg_chart(
                    points,
                    label=f"{name} = {value} share",
                    fmt=fmt_rate,
                    bounds=(0, 1),
                    dots=False,
                    size=SHARE_SIZE,
                ),
            )
        )
    return tuple(out)


def had_nulls(name: str, runs: Sequence[Shown]) -> bool:
    for one in runs:
        col = one.run.profile.columns.get(name)
        if col is not None and col.null_count:
            return True
    return False


def reader(name: str, spec: SeriesSpec) -> Callable[[DatasetProfileRun], float | None]:
    def read(run: DatasetProfileRun) -> float | None:
        col = run.profile.columns.get(name)
        return None if col is None else spec.read(col)

    return read
