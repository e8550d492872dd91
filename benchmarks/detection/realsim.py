"""Replay a real daily table one run per day and judge every run from day ``min_history``.

As the store keeps it under ``on_drift: warn`` (the default): every run joins the
baseline, the newest ``window`` runs are used. A run is recorded at 02:00 UTC the day
after its data's date (a nightly job), and those times go to ``detect_drift`` as the
store passes its runs' ``recorded_at``.

Then the faults of ``corpusfaults.py`` are injected on ``FAULT_TRIALS`` quiet judged days
of the table, spread evenly, each judged against the clean baseline before it. Each day
is profiled once; the clean profiles serve every detector and every fault's baseline.
"""

from __future__ import annotations

import datetime as dt
import inspect
import statistics
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
from corpus import CORPUS, load
from corpusfaults import CORPUS_FAULTS, CorpusFault, FaultContext, fault_context
from literal import literal_detect
from lookalikes import lookalikes
from simulate import IQR, ZSCORE, Finding
from watcher import day_stats, fault_score, thresholds

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.drift import DriftFinding, detect_drift
from faucet_core.drift.detector import run_detection

DETECTORS = ("faucet zscore", "faucet iqr", "literal zscore")
FAULT_DETECTORS = ("faucet zscore", "faucet iqr")
FAULT_TRIALS = 12


@dataclass
class RealResult:
    name: str
    source: str
    date_columns: frozenset[str]
    events: dict[dt.date, tuple[str, bool]]
    runs: dict[str, list[tuple[dt.date, list[Finding]]]] = field(default_factory=dict)
    messages: dict[dt.date, list[str]] = field(default_factory=dict)
    """faucet zscore's messages on every judged day."""
    rows: int = 0
    rows_median: float = 0.0
    half: str = "tune"
    kind: str = ""
    columns: int = 0
    fault_columns: dict[str, str | None] = field(default_factory=dict)
    """"numeric" / "categorical" -> the column the faults edit (None: skipped)."""
    faults: dict[str, dict[str, list[tuple[dt.date, list[Finding]]]]] = field(default_factory=dict)
    """detector -> fault -> [(day, findings in the detector's order)]."""
    seconds: float = 0.0
    cleared: dict[str, int] = field(default_factory=dict)
    """faucet zscore, every judged day: rule name -> candidate findings it cleared."""
    unchanged: dict[str, int] = field(default_factory=dict)
    """fault -> trials whose edit left the day's table as it was (40 % nulls that drew no
    row of a one-row day): no fault was injected, so they are not counted as trials."""
    watcher: dict[str, tuple[int, int]] = field(default_factory=dict)
    """fault -> (trials a watcher told the column, statistic and direction caught at 1
    alarm per 100 quiet days, trials): watcher.py."""
    lookalikes: dict[str, tuple[int, int]] = field(default_factory=dict)
    """fault -> (quiet days whose clean data look like it, quiet days): lookalikes.py."""


def recorded_at(day: dt.date) -> dt.datetime:
    """A nightly job: 02:00 UTC the day after the data's date."""
    return dt.datetime.combine(day + dt.timedelta(days=1), dt.time(2, 0), dt.timezone.utc)


def _faucet(
    config: ProfilingConfig,
    current: TableProfile,
    baseline: Sequence[TableProfile],
    now: dt.datetime,
    times: Sequence[dt.datetime],
    older: Sequence[TableProfile] = (),
) -> list[DriftFinding]:
    return detect_drift(
        current, baseline, config, current_time=now, baseline_times=times, **_memory(older)
    )


_TAKES_OLDER = "older" in inspect.signature(run_detection).parameters
"""A reference detector older than the memory stage (heldout_reference.py) takes no
``older``: it is then passed nothing, and the detector judges as it did."""


def _memory(older: Sequence[TableProfile]) -> dict[str, Sequence[TableProfile]]:
    return {"older": older} if _TAKES_OLDER else {}


def older_runs(profiles: Sequence[TableProfile], lo: int) -> Sequence[TableProfile]:
    """The runs before a window that starts at ``lo``: the newest ``memory`` of them."""
    return profiles[max(0, lo - getattr(ZSCORE, "memory", 0)) : lo]


def _found(findings: Sequence[DriftFinding]) -> list[Finding]:
    return [(f.column, str(getattr(f.metric, "value", f.metric))) for f in findings]


def replay(name: str) -> RealResult:
    started = time.perf_counter()
    table = load(name)
    entry = CORPUS[name]
    result = RealResult(
        table.name,
        table.source,
        table.date_columns,
        {d: (e.reason, e.severe) for d, e in table.events.items()},
        half=entry.half,
        kind=entry.kind,
        columns=table.days[0][1].num_columns,
    )
    dates = [d for d, _ in table.days]
    profiles = [profile(t) for _, t in table.days]
    result.rows = sum(t.num_rows for _, t in table.days)
    result.rows_median = statistics.median(t.num_rows for _, t in table.days)
    times = [recorded_at(d) for d in dates]
    window = ZSCORE.window
    for label in DETECTORS:
        result.runs[label] = []
    for i in range(ZSCORE.min_history, len(profiles)):
        lo = max(0, i - window)
        base, base_times = profiles[lo:i], times[lo:i]
        older = older_runs(profiles, lo)
        detection = run_detection(
            profiles[i],
            base,
            ZSCORE,
            current_time=times[i],
            baseline_times=base_times,
            **_memory(older),
        )
        z = detection.findings
        for rule, count in detection.cleared.items():
            result.cleared[rule] = result.cleared.get(rule, 0) + count
        result.messages[dates[i]] = [f.message for f in z]
        result.runs["faucet zscore"].append((dates[i], _found(z)))
        q = _faucet(IQR, profiles[i], base, times[i], base_times, older)
        result.runs["faucet iqr"].append((dates[i], _found(q)))
        result.runs["literal zscore"].append((dates[i], literal_detect(profiles[i], base, ZSCORE)))
    _inject(result, table.days, profiles, times)
    result.lookalikes = lookalikes(
        table.days,
        table.events,
        result.fault_columns.get("categorical"),
        window=ZSCORE.window,
        min_history=ZSCORE.min_history,
    )
    result.seconds = time.perf_counter() - started
    return result


def fault_days(days: Sequence[dt.date], events: dict[dt.date, object]) -> list[int]:
    """FAULT_TRIALS quiet judged days (indexes), spread evenly over them."""
    quiet = [i for i in range(ZSCORE.min_history, len(days)) if days[i] not in events]
    if len(quiet) <= FAULT_TRIALS:
        return quiet
    return sorted(
        {quiet[round(k * (len(quiet) - 1) / (FAULT_TRIALS - 1))] for k in range(FAULT_TRIALS)}
    )


@dataclass(frozen=True)
class FaultTrial:
    """One fault injected into one quiet judged day's table."""

    fault: CorpusFault
    column: str | None
    """The column the fault edits (None for a fault on the table's rows)."""
    day: int
    """The day's index; its baseline is the ``ZSCORE.window`` days before it."""
    table: pa.Table
    """The day's table as the fault left it."""
    changed: bool
    """False when the edit left the table as it was (no fault injected, not a trial)."""


def fault_trials(
    tables: Sequence[pa.Table],
    dates: Sequence[dt.date],
    events: dict[dt.date, object],
    ctx: FaultContext,
) -> Iterator[FaultTrial]:
    """Every fault on each of :func:`fault_days`, edited with its seeded draws, for each
    fault whose column the table has."""
    columns = {"numeric": ctx.numeric, "categorical": ctx.categorical}
    chosen = fault_days(dates, events)
    for index, fault in enumerate(CORPUS_FAULTS):
        column = columns.get(fault.target)
        if fault.target != "table" and column is None:
            continue
        for i in chosen:
            lo = max(0, i - ZSCORE.window)
            table = fault.edit(tables[i], ctx, tables[lo:i], np.random.default_rng([5, index, i]))
            yield FaultTrial(fault, column, i, table, not table.equals(tables[i]))


def _inject(
    result: RealResult,
    days: Sequence[tuple[dt.date, pa.Table]],
    profiles: Sequence[TableProfile],
    times: Sequence[dt.datetime],
) -> None:
    tables = [t for _, t in days]
    ctx = fault_context(tables, result.date_columns)
    result.fault_columns = {"numeric": ctx.numeric, "categorical": ctx.categorical}
    stats = [day_stats(d, t, ctx.numeric, ctx.categorical) for d, t in days]
    quiet = [i for i in range(ZSCORE.min_history, len(days)) if days[i][0] not in result.events]
    limits = thresholds(stats, quiet, window=ZSCORE.window)
    configs = {"faucet zscore": ZSCORE, "faucet iqr": IQR}
    for label in FAULT_DETECTORS:
        result.faults[label] = {f.name: [] for f in CORPUS_FAULTS}
    for trial in fault_trials(tables, [d for d, _ in days], result.events, ctx):
        fault, i, table = trial.fault, trial.day, trial.table
        lo = max(0, i - ZSCORE.window)
        if not trial.changed:
            result.unchanged[fault.name] = result.unchanged.get(fault.name, 0) + 1
            continue
        edited = profile(table)
        score = fault_score(
            fault.name, day_stats(days[i][0], table, ctx.numeric, ctx.categorical), stats[lo:i]
        )
        seen, trials = result.watcher.get(fault.name, (0, 0))
        limit = limits.get(fault.name)
        caught = score is not None and limit is not None and score > limit
        result.watcher[fault.name] = (seen + caught, trials + 1)
        for label in FAULT_DETECTORS:
            found = _faucet(
                configs[label],
                edited,
                profiles[lo:i],
                times[i],
                times[lo:i],
                older_runs(profiles, lo),
            )
            result.faults[label][fault.name].append((days[i][0], _found(found)))
