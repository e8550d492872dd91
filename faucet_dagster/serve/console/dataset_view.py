"""What a dataset's page shows of its profile history (pure: no I/O).

The page answers, top first: is it healthy (:class:`~faucet_dagster.serve.console.views.Status`
and the newest run's findings), what fired before (the findings history over the stored
runs), and why (per column, a chart of each judged statistic over time with the band the
detector judged the newest run against, from :func:`faucet_core.drift.bands_view.
series_bands`, and the band each earlier finding carries; the marker only on the
statistic that drifted). Categorical columns show their top values' shares run by run.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import quote

from faucet_core.catalog.model import DatasetProfileRun
from faucet_core.config import OnDrift, ProfilingConfig
from faucet_core.drift.bands_view import SeriesBand, series_bands
from faucet_core.drift.numfmt import fmt_number, fmt_rate
from faucet_core.drift.series import ROW_COUNT
from faucet_core.profile import ColumnProfile
from faucet_dagster.checks.summary import shown_distinct
from faucet_dagster.serve.console.column_charts import (
    Chart,
    Shown,
    ValueShare,
    charted,
    had_nulls,
    reader,
    series_chart,
    value_shares,
)
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


def _numbers(col: ColumnProfile) -> str:
    if col.numeric is not None and not col.classified:
        n = col.numeric
        return f"min {fmt_number(n.min)}, mean {fmt_number(n.mean)}, max {fmt_number(n.max)}"
    if col.string is not None:
        s = col.string
        return f"length {s.len_min}-{s.len_max} (mean {s.len_mean:.1f})"
    return "-"


def _rows(runs: Iterable[Shown], severity: str, dagster: str | None) -> list[FindingRow]:
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
    shown = [Shown.of(p) for p in profiles[-SHOWN_RUNS:]]
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
    row_chart = series_chart(
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
            series_chart(
                name,
                spec,
                shown,
                reader(name, spec),
                bands.get((name, spec.statistic)),
                band_from,
            )
            for spec in charted(col, mine, had_nulls(name, shown))
        )
        columns.append(
            ColumnPanel(
                name=name,
                type=types.get(name, ", ".join(sorted(col.types)) or "?"),
                null_rate=fmt_rate(col.null_rate),
                distinct=f"{shown_distinct(col):,}",
                numbers=_numbers(col),
                findings=tuple(f.headline for f in shown[-1].findings if f.column == name),
                never_null=not had_nulls(name, shown),
                charts=charts,
                values=value_shares(name, shown),
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
