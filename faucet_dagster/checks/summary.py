"""Check-evaluation metadata and the markdown summary (pure: no Dagster I/O).

The description is one line (the Dagster UI shows it on one line): a short clause per
finding (:mod:`faucet_core.drift.shortform`). The full messages, with their baselines
and limits, are in the markdown summary and in ``faucet/findings``.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from faucet_core.drift import DriftFinding
from faucet_core.drift.numfmt import fmt_number, fmt_rate
from faucet_core.drift.shortform import short_form
from faucet_core.profile import ColumnProfile, TableProfile
from faucet_core.store import ProfileRun, ProfilingOutcome, RunStatus

__all__ = [
    "MAX_DESCRIBED_FINDINGS",
    "MAX_NUMERIC_ENTRIES",
    "SPARK_BLOCKS",
    "check_description",
    "column_numbers",
    "drift_marks",
    "markdown_summary",
    "numbers_left_out",
    "shown_distinct",
    "sparkline",
]

SPARK_BLOCKS = "▁▂▃▄▅▆▇█"
MAX_MARKDOWN_COLUMNS = 50
"""Columns shown in the markdown table."""
MAX_DESCRIBED_FINDINGS = 5
"""Findings the one-line description names; the rest are counted (all are in the summary)."""
MAX_NUMERIC_ENTRIES = 100
"""Numeric metadata entries (the series the UI plots) per check evaluation; columns are
taken whole, drifted columns first and then in table order, while they fit."""


def sparkline(values: Sequence[float], drifted: Sequence[bool] = ()) -> str:
    """One block per value scaled between the series' min and max; a drifted run shows '!'."""
    if not values:
        return ""
    lo, hi = min(values), max(values)
    span = hi - lo
    out = []
    for i, v in enumerate(values):
        if i < len(drifted) and drifted[i]:
            out.append("!")
            continue
        level = 0 if span == 0 else round((v - lo) / span * (len(SPARK_BLOCKS) - 1))
        out.append(SPARK_BLOCKS[level])
    return "".join(out)


def drift_marks(
    column: str, runs: Iterable[Iterable[DriftFinding | Mapping[str, Any]]]
) -> list[bool]:
    """Per run (given as its findings, as objects or as their stored dicts), whether a
    finding is about ``column``: a run is marked on a column only for that column's own
    findings (its evidence included, which is always the same column), never for another
    column's. Every view uses this."""
    return [any(_column_of(f) == column for f in findings) for findings in runs]


def _column_of(finding: DriftFinding | Mapping[str, Any]) -> Any:
    return finding.get("column") if isinstance(finding, Mapping) else finding.column


def shown_distinct(col: ColumnProfile) -> int:
    """The distinct estimate as published: never above the column's non-null records (a
    sketch can overshoot on small columns)."""
    return max(0, min(col.distinct, col.row_count - col.null_count))


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def _drift_head(outcome: ProfilingOutcome) -> str:
    columns = len({f.column for f in outcome.findings if not f.table_level})
    parts = ["the row count"] if any(f.table_level for f in outcome.findings) else []
    if columns:
        parts.append(_plural(columns, "column"))
    return (
        f"Drift in {' and '.join(parts)} against {_plural(outcome.baseline_runs, 'baseline run')}"
    )


def check_description(
    outcome: ProfilingOutcome, partition_count: int = 1, *, classified: Collection[str] = ()
) -> str:
    """The description shown on the check evaluation, on one line: a short clause per
    finding (``classified`` columns never show values)."""
    where = f" over {partition_count} partition(s)" if partition_count > 1 else ""
    if outcome.status is RunStatus.WARMING:
        return (
            f"{outcome.warming_message}{where}; drift detection starts at "
            f"{outcome.min_history} baseline runs"
        )
    if outcome.status is RunStatus.STABLE:
        return f"stable against {outcome.baseline_runs} baseline run(s){where}"
    findings = outcome.findings
    clauses = [
        short_form(f, classified=f.column in classified) for f in findings[:MAX_DESCRIBED_FINDINGS]
    ]
    if len(findings) > MAX_DESCRIBED_FINDINGS:
        clauses.append(f"and {len(findings) - MAX_DESCRIBED_FINDINGS} more in the summary")
    text = f"{_drift_head(outcome)}{where}: " + "; ".join(clauses) + "."
    if not outcome.in_baseline:
        part = f" --partition {outcome.key.partition}" if outcome.key.partition else ""
        text += (
            " This run stays out of the baseline (on_drift: fail), so the change fails again "
            "until accepted; if it is intended, re-baseline: "
            f"faucet profiling reset --select {outcome.key.key}{part}"
        )
    return text


def _column_entries(col: ColumnProfile) -> dict[str, float]:
    """A column's numbers a finding can be about. A classified column's mean, extremes
    and percentiles are its values: they are not published."""
    name = col.name
    entries = {
        f"{name}.null_rate": round(col.null_rate, 6),
        f"{name}.distinct": float(shown_distinct(col)),
    }
    if col.numeric is not None and not col.classified:
        n = col.numeric
        entries.update(
            {
                f"{name}.mean": n.mean,
                f"{name}.min": n.min,
                f"{name}.max": n.max,
                f"{name}.p50": n.p50,
                f"{name}.p95": n.p95,
            }
        )
    if col.string is not None:
        entries[f"{name}.len_mean"] = round(col.string.len_mean, 4)
        entries[f"{name}.len_max"] = float(col.string.len_max)
    return entries


def _plotted(profile: TableProfile, drifted: Collection[str]) -> tuple[dict[str, float], list[str]]:
    ordered = [c for c in profile.columns.values() if c.name in drifted]
    ordered += [c for c in profile.columns.values() if c.name not in drifted]
    numbers: dict[str, float] = {}
    left_out: list[str] = []
    for col in ordered:
        entries = _column_entries(col)
        if len(numbers) + len(entries) > MAX_NUMERIC_ENTRIES:
            left_out.append(col.name)
            continue
        numbers.update(entries)
    return numbers, left_out


def column_numbers(profile: TableProfile, drifted: Collection[str] = ()) -> dict[str, float]:
    """Per-column numbers as flat float metadata, so the check's plots chart them over
    time: null_rate, distinct, and where they exist mean, min, max, p50, p95, len_mean and
    len_max; at most :data:`MAX_NUMERIC_ENTRIES`, columns taken whole, the ``drifted``
    columns first and then the rest in table order."""
    return _plotted(profile, drifted)[0]


def numbers_left_out(profile: TableProfile, drifted: Collection[str] = ()) -> list[str]:
    """The columns :func:`column_numbers` left out for the cap, in table order."""
    left = set(_plotted(profile, drifted)[1])
    return [name for name in profile.columns if name in left]


def _fmt(value: float) -> str:
    return fmt_number(value)


def _top(col: ColumnProfile) -> str:
    if col.classified:
        return "_withheld (classified)_"
    if col.high_cardinality:
        return "_withheld (high cardinality)_"
    if not col.top_values:
        return ""
    return ", ".join(
        f"`{_cell(json.dumps(t.value, ensure_ascii=False))}` {fmt_rate(t.share)}"
        for t in col.top_values[:5]
    )


def _cell(text: str) -> str:
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= 40 else text[:37] + "..."


def _status_line(outcome: ProfilingOutcome) -> str:
    if outcome.status is RunStatus.DRIFTED:
        return _drift_head(outcome)
    return check_description(outcome)


def markdown_summary(
    profile: TableProfile,
    outcome: ProfilingOutcome,
    history: Sequence[ProfileRun],
    *,
    title: str,
) -> str:
    """Columns, statistics, top values and a null-rate sparkline over the stored runs
    (oldest first, the current run last; '!' marks a run with a finding on that column)."""
    flagged = {f.column for f in outcome.findings}
    lines = [
        f"### {title}",
        "",
        f"**{outcome.status.value}**: {_status_line(outcome)}; "
        f"{_fmt(profile.row_count)} row(s), {len(profile.columns)} column(s)"
        + (f", {profile.skipped_columns} skipped" if profile.skipped_columns else ""),
        "",
    ]
    if outcome.findings:
        lines += ["**Findings**", ""]
        lines += [f"- `{f.key}`: {_cell_long(f)}" for f in outcome.findings]
        lines.append("")
    lines += [
        "| column | null | null-rate trend | distinct | types | numbers | top values |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, col in list(profile.columns.items())[:MAX_MARKDOWN_COLUMNS]:
        seen = [r for r in history if name in r.profile.columns]
        rates = [r.profile.columns[name].null_rate for r in seen]
        marks = drift_marks(name, (r.findings for r in seen))
        types = " ".join(f"{t}:{_fmt(n)}" for t, n in col.types.items() if t != "null")
        numbers = ""
        if col.numeric is not None and col.classified:
            numbers = "_withheld (classified)_"
        elif col.numeric is not None:
            n = col.numeric
            numbers = (
                f"min {_fmt(n.min)} max {_fmt(n.max)} mean {_fmt(n.mean)} "
                f"p50 {_fmt(n.p50)} p95 {_fmt(n.p95)}"
            )
        elif col.string is not None:
            numbers = f"len {_fmt(col.string.len_min)}..{_fmt(col.string.len_max)}"
        marker = " ⚠" if name in flagged else ""
        lines.append(
            f"| `{_cell(name)}`{marker} | {fmt_rate(col.null_rate)} | {sparkline(rates, marks)} "
            f"| {_fmt(shown_distinct(col))} | {types} | {numbers} | {_top(col)} |"
        )
    if len(profile.columns) > MAX_MARKDOWN_COLUMNS:
        lines.append(
            f"\n_{len(profile.columns) - MAX_MARKDOWN_COLUMNS} more column(s) in the metadata_"
        )
    return "\n".join(lines)


def _cell_long(finding: DriftFinding) -> str:
    # The line already starts with the finding's key: do not repeat it from the message.
    return finding.headline.removeprefix(f"{finding.key}: ").replace("|", "\\|")
