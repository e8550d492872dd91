"""Check-evaluation metadata and the markdown summary (pure: no Dagster I/O)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from faucet_core.drift import DriftFinding
from faucet_core.profile import ColumnProfile, TableProfile
from faucet_core.store import ProfileRun, ProfilingOutcome, RunStatus

__all__ = ["SPARK_BLOCKS", "check_description", "column_numbers", "markdown_summary", "sparkline"]

SPARK_BLOCKS = "▁▂▃▄▅▆▇█"
MAX_MARKDOWN_COLUMNS = 50
"""Columns shown in the markdown table (all columns stay in the numeric metadata)."""


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


def check_description(outcome: ProfilingOutcome, partition_count: int = 1) -> str:
    """The one-line description shown on the check evaluation."""
    where = f" over {partition_count} partition(s)" if partition_count > 1 else ""
    if outcome.status is RunStatus.WARMING:
        return (
            f"{outcome.warming_message}{where}; drift detection starts at "
            f"{outcome.min_history} baseline runs"
        )
    if outcome.status is RunStatus.STABLE:
        return f"stable against {outcome.baseline_runs} baseline run(s){where}"
    head = f"drift: {len(outcome.findings)} finding(s) against {outcome.baseline_runs} run(s)"
    lines = [head + where] + [f"! {f.headline}" for f in outcome.findings[:10]]
    if len(outcome.findings) > 10:
        lines.append(f"... and {len(outcome.findings) - 10} more (see the findings metadata)")
    if not outcome.in_baseline:
        part = f" --partition {outcome.key.partition}" if outcome.key.partition else ""
        lines.append(
            "this run is kept out of the baseline (on_drift: fail), so the change fails again "
            "until accepted; if it is intended, re-baseline: "
            f"faucet profiling reset --select {outcome.key.key}{part}"
        )
    return "\n".join(lines)


def column_numbers(profile: TableProfile) -> dict[str, float]:
    """Per-column numbers as flat metadata, so the check's plots chart them over time."""
    numbers: dict[str, float] = {}
    for name, col in profile.columns.items():
        numbers[f"{name}.null_rate"] = round(col.null_rate, 6)
        numbers[f"{name}.distinct"] = float(col.distinct)
        if col.numeric is not None:
            numbers[f"{name}.mean"] = col.numeric.mean
        if col.string is not None:
            numbers[f"{name}.len_mean"] = round(col.string.len_mean, 4)
    return numbers


def _fmt(value: float) -> str:
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:.4g}"


def _top(col: ColumnProfile) -> str:
    if col.classified:
        return "_withheld (classified)_"
    if col.high_cardinality:
        return "_withheld (high cardinality)_"
    if not col.top_values:
        return ""
    return ", ".join(
        f"`{_cell(json.dumps(t.value, ensure_ascii=False))}` {t.share:.1%}"
        for t in col.top_values[:5]
    )


def _cell(text: str) -> str:
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= 40 else text[:37] + "..."


def markdown_summary(
    profile: TableProfile,
    outcome: ProfilingOutcome,
    history: Sequence[ProfileRun],
    *,
    title: str,
) -> str:
    """Columns, statistics, top values and a null-rate sparkline over the stored runs
    (oldest first, the current run last; '!' marks a run that drifted)."""
    flagged = {f.column for f in outcome.findings}
    lines = [
        f"### {title}",
        "",
        f"**{outcome.status.value}**: {check_description(outcome).splitlines()[0]}; "
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
        rates = [r.profile.columns[name].null_rate for r in history if name in r.profile.columns]
        marks = [
            any(f.column == name for f in r.findings) for r in history if name in r.profile.columns
        ]
        types = " ".join(f"{t}:{_fmt(n)}" for t, n in col.types.items() if t != "null")
        numbers = ""
        if col.numeric is not None:
            n = col.numeric
            numbers = f"min {_fmt(n.min)} max {_fmt(n.max)} mean {_fmt(n.mean)} p50 {_fmt(n.p50)}"
        elif col.string is not None:
            numbers = f"len {col.string.len_min}..{col.string.len_max}"
        marker = " ⚠" if name in flagged else ""
        lines.append(
            f"| `{_cell(name)}`{marker} | {col.null_rate:.1%} | {sparkline(rates, marks)} "
            f"| {_fmt(col.distinct)} | {types} | {numbers} | {_top(col)} |"
        )
    if len(profile.columns) > MAX_MARKDOWN_COLUMNS:
        lines.append(
            f"\n_{len(profile.columns) - MAX_MARKDOWN_COLUMNS} more column(s) in the metadata_"
        )
    return "\n".join(lines)


def _cell_long(finding: DriftFinding) -> str:
    # The line already starts with the finding's key: do not repeat it from the message.
    return finding.headline.removeprefix(f"{finding.key}: ").replace("|", "\\|")


def findings_json(findings: Sequence[DriftFinding]) -> list[dict[str, Any]]:
    return [f.to_dict() for f in findings]
