"""What a dataset's page shows of its profile history (pure: no I/O).

The page answers, top first: is it healthy (:class:`~faucet_dagster.serve.console.views.Status`
and the newest run's findings), what fired before (the findings history over the stored
runs), and why (per column, a chart of each judged statistic over time with the band the
detector judged the newest run against, from :func:`faucet_core.drift.bands_view.
series_bands`, and the band each earlier finding carries; the marker only on the
statistic that drifted). Categorical columns show their top values' shares run by run.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from markupsafe import Markup

from faucet_core.catalog.model import DatasetProfileRun
from faucet_core.config import OnDrift, ProfilingConfig
from faucet_core.drift import DriftFinding, DriftFindingError
from faucet_core.drift.bands_view import SeriesBand, series_bands
from faucet_core.drift.numfmt import fmt_number, fmt_rate
from faucet_core.drift.series import ROW_COUNT, SERIES, SeriesSpec
from faucet_core.profile import ColumnProfile
from faucet_dagster.checks.summary import shown_distinct
from faucet_dagster.serve.console.charts import ChartPoint, svg_chart
from faucet_dagster.serve.console.views import TABLE_LABEL, Status, ts

__all__ = [
    "SHOWN_RUNS",
    "Chart",
    "ColumnPanel",
    "FindingRow",
    "ProfileView",
    "RunLink",
    "RunRow",
    "ValueShare",
    "profile_view",
    "profiles_needed",
]

SHOWN_RUNS = 20
"""Runs drawn on the charts and listed (the newest)."""
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


def profiles_needed(config: ProfilingConfig | None) -> int:
    """Profiles to read: the shown runs and the newest one's baseline window."""
    return SHOWN_RUNS + (config.window if config is not None else 0)


@dataclass(frozen=True)
class RunLink:
    short: str
    full: str
    href: str | None
    """The run's page in the Dagster UI, when its base URL is set."""


@dataclass(frozen=True)
class FindingRow:
    at: str
    run: RunLink
    column: str
    metric: str
    message: str
    severity: str


@dataclass(frozen=True)
class RunRow:
    at: str
    rows: str
    status: str
    findings: int
    partition: str
    run: RunLink


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


@dataclass(frozen=True)
class ColumnPanel:
    name: str
    type: str
    null_rate: str
    distinct: str
    numbers: str
    findings: tuple[str, ...]
    """The newest run's findings about the column."""
    never_null: bool
    """No shown run had a null (its null rate is not drawn)."""
    charts: tuple[Chart, ...]
    values: tuple[ValueShare, ...]


@dataclass(frozen=True)
class ProfileView:
    latest: DatasetProfileRun
    findings: tuple[FindingRow, ...]
    """The newest run's findings."""
    history: tuple[FindingRow, ...]
    """Every finding of the shown runs, newest first."""
    runs: tuple[RunRow, ...]
    """The shown runs, newest first."""
    row_chart: Chart | None
    columns: tuple[ColumnPanel, ...]
    warmup: str
    """How far the baseline is from judging (warming up only)."""
    stored: int
    partition: str = ""
    """The partition shown, when each partition has its own baseline."""


def _findings(run: DatasetProfileRun) -> list[DriftFinding]:
    out = []
    for data in run.findings:
        try:
            out.append(DriftFinding.from_dict(data))
        except DriftFindingError:
            continue  # written by an incompatible faucet: not drawn
    return out


@dataclass(frozen=True)
class _Shown:
    """One shown run, read once: its findings (and each one's evidence, by series)."""

    run: DatasetProfileRun
    findings: list[DriftFinding]
    label: str
    """The run as a chart point's tooltip names it."""
    by_series: dict[tuple[str, str, str], DriftFinding]
    """(column, statistic, metric) -> the finding or evidence about that series."""

    @classmethod
    def of(cls, run: DatasetProfileRun) -> _Shown:
        findings = _findings(run)
        by_series: dict[tuple[str, str, str], DriftFinding] = {}
        for f in findings:
            for g in f.findings:
                by_series.setdefault((g.column, g.statistic, g.metric.value), g)
        label = f"{ts(run.recorded_at)} run {run.run_id[:8]}"
        return cls(run, findings, label, by_series)


def _run_link(run_id: str, dagster: str | None) -> RunLink:
    href = f"{dagster}/runs/{quote(run_id, safe='')}" if dagster and run_id else None
    return RunLink(short=run_id[:8] or "-", full=run_id, href=href)


def _severity(config: ProfilingConfig | None) -> str:
    if config is not None and config.on_drift is OnDrift.FAIL:
        return "error"
    return "warning"


def _baseline(
    profiles: Sequence[DatasetProfileRun], config: ProfilingConfig
) -> list[DatasetProfileRun]:
    """The runs the newest one was judged against, as the store keeps them (``profiles``
    are already those of its baseline: see ``per_partition``): the earlier ones, less
    drifted ones under ``on_drift: fail``, the newest ``window``."""
    kept = [
        p for p in profiles[:-1] if not (p.status == "drifted" and config.on_drift is OnDrift.FAIL)
    ]
    return kept[-config.window :]


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


def _series_chart(
    column: str,
    spec: SeriesSpec,
    runs: Sequence[_Shown],
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


def _charted(col: ColumnProfile, drifted: set[str], nulls: bool) -> list[SeriesSpec]:
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


def _value_shares(name: str, runs: Sequence[_Shown]) -> tuple[ValueShare, ...]:
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


def _numbers(col: ColumnProfile) -> str:
    if col.numeric is not None and not col.classified:
        n = col.numeric
        return f"min {fmt_number(n.min)}, mean {fmt_number(n.mean)}, max {fmt_number(n.max)}"
    if col.string is not None:
        s = col.string
        return f"length {s.len_min}-{s.len_max} (mean {s.len_mean:.1f})"
    return "-"


def _rows(runs: Iterable[_Shown], severity: str, dagster: str | None) -> list[FindingRow]:
    return [
        FindingRow(
            at=ts(run.recorded_at),
            run=_run_link(run.run_id, dagster),
            column=f.column or TABLE_LABEL,
            metric=f.metric.value,
            message=f.headline,
            severity=severity,
        )
        for shown in runs
        for run in (shown.run,)
        for f in shown.findings
    ]


def _warmup(
    latest: DatasetProfileRun, baseline: Sequence[DatasetProfileRun], config: ProfilingConfig
) -> str:
    if latest.status != "warming":
        return ""
    have = len([p for p in baseline if p.row_count > 0])
    more = max(config.min_history - have, 1)
    return (
        f"warming up: {have} of the {config.min_history} baseline run(s) drift detection "
        f"needs were recorded before this run; drift is judged from {more} run(s) from now"
    )


def profile_view(
    profiles: Sequence[DatasetProfileRun],
    *,
    config: ProfilingConfig | None,
    dagster: str | None,
    types: Mapping[str, str],
    per_partition: bool = False,
) -> ProfileView | None:
    """The dataset page's profile part; None when no profile is recorded. ``config`` is the
    asset's profile-check settings (without them, no band is drawn); ``dagster`` the
    Dagster UI's base URL (run links); ``types`` the schema's column types;
    ``per_partition``: each partition has its own baseline, so only the newest run's
    partition is shown (its runs are one series)."""
    if not profiles:
        return None
    if per_partition:
        profiles = [p for p in profiles if p.partition == profiles[-1].partition]
    latest = profiles[-1]
    shown = [_Shown.of(p) for p in profiles[-SHOWN_RUNS:]]
    severity = _severity(config)
    bands: dict[tuple[str, str], SeriesBand] = {}
    band_from = None
    warmup = ""
    if config is not None:
        baseline = _baseline(profiles, config)
        warmup = _warmup(latest, baseline, config)
        if baseline:
            bands = series_bands(
                latest.profile,
                [p.profile for p in baseline],
                config,
                current_time=latest.recorded_at,
                baseline_times=[p.recorded_at for p in baseline],
            )
            band_from = baseline[0].recorded_at
    drifted: dict[str, set[str]] = {}
    for one in shown:
        for column, statistic, _ in one.by_series:
            drifted.setdefault(column, set()).add(statistic)
    row_chart = _series_chart(
        "",
        ROW_COUNT,
        shown,
        lambda run: float(run.row_count),
        bands.get(("", ROW_COUNT.statistic)),
        band_from,
    )
    columns = []
    for name, col in latest.profile.columns.items():
        mine = drifted.get(name, set())
        charts = tuple(
            _series_chart(
                name,
                spec,
                shown,
                _reader(name, spec),
                bands.get((name, spec.statistic)),
                band_from,
            )
            for spec in _charted(col, mine, _had_nulls(name, shown))
        )
        columns.append(
            ColumnPanel(
                name=name,
                type=types.get(name, ", ".join(sorted(col.types)) or "?"),
                null_rate=fmt_rate(col.null_rate),
                distinct=f"{shown_distinct(col):,}",
                numbers=_numbers(col),
                findings=tuple(f.headline for f in shown[-1].findings if f.column == name),
                never_null=not _had_nulls(name, shown),
                charts=charts,
                values=_value_shares(name, shown),
            )
        )
    return ProfileView(
        latest=latest,
        findings=tuple(_rows([shown[-1]], severity, dagster)),
        history=tuple(_rows(reversed(shown), severity, dagster)),
        runs=tuple(
            RunRow(
                at=ts(run.recorded_at),
                rows=f"{run.row_count:,}",
                status=Status.WARMING.value if run.status == "warming" else run.status,
                findings=len(one.findings),
                partition=run.partition,
                run=_run_link(run.run_id, dagster),
            )
            for one in reversed(shown)
            for run in (one.run,)
        ),
        row_chart=row_chart,
        columns=tuple(columns),
        warmup=warmup,
        stored=len(profiles),
        partition=latest.partition if per_partition else "",
    )


def _had_nulls(name: str, runs: Sequence[_Shown]) -> bool:
    for one in runs:
        col = one.run.profile.columns.get(name)
        if col is not None and col.null_count:
            return True
    return False


def _reader(name: str, spec: SeriesSpec) -> Callable[[DatasetProfileRun], float | None]:
    def read(run: DatasetProfileRun) -> float | None:
        col = run.profile.columns.get(name)
        return None if col is None else spec.read(col)

    return read
