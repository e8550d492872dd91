"""The impact report as a pull-request comment (``faucet plan --impact --format markdown``).

A hidden marker line (:data:`MARKER`) lets a CI job find and update its own comment; then a
summary line with the severity, one table of affected datasets per planned asset (depth,
columns, contracts, owners, consumers) and the full text report in a collapsible
``<details>`` block. Every value is escaped for a table cell or code span.
"""

from __future__ import annotations

import re

from faucet_core.impact.change import AssetPlan, ChangeImpact
from faucet_core.impact.report import (
    AffectedDataset,
    ColumnChange,
    ImpactReport,
    PlannedFrom,
    render_text,
)

__all__ = ["MARKER", "render_markdown"]

MARKER = "<!-- faucet-impact -->"
"""The first line of every comment: a CI job updates the comment that starts with it."""

_FROM = {
    PlannedFrom.SAMPLE: "the sample",
    PlannedFrom.DECLARED: "the declared column schema",
    PlannedFrom.LINEAGE: "upstream schemas through the column lineage",
    PlannedFrom.UNKNOWN: "nowhere it could be known (see the notes)",
}


def _cell(text: str) -> str:
    """``text`` safe inside a table cell: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def _code(text: str) -> str:
    """``text`` as an inline code span (a backtick inside it cannot close the span; in a
    table cell, pass it through :func:`_cell` too)."""
    text = " ".join(text.split())
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if longest else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _delta(change: ColumnChange) -> str:
    return f"{change.column} {change.label} ({change.severity.value})"


def _columns(item: AffectedDataset, report: ImpactReport) -> str:
    parts: list[str] = []
    if item.depth == 0:
        if report.planned_from is PlannedFrom.UNKNOWN:
            parts.append("unknown: what the asset would write is not known")
        parts.extend(_delta(c) for c in report.schema_delta if c.severity.value != "none")
    else:
        for read in item.reads:
            column = "every column" if read.column == "*" else read.column
            parts.append(f"{column} ← {', '.join(read.reads)}")
        if item.opaque_from is not None:
            why = (
                f"no column lineage on the edge from {item.opaque_from}"
                if item.opaque_edge
                else f"downstream of {item.opaque_from}"
            )
            parts.append(f"unknown: {why}" if not item.reads else f"also an opaque path: {why}")
    return _cell("; ".join(parts)) or "-"


def _row(item: AffectedDataset, report: ImpactReport) -> str:
    contracts = "; ".join(
        f"v{h.version} of {h.job} ({', '.join(h.affected)})" for h in item.contracts
    )
    consumers = "; ".join(
        f"{c.name} ({c.kind or '-'}, {c.severity.value}{', ' + c.contact if c.contact else ''})"
        for c in item.consumers
    )
    cells = [
        f"**{item.label}**" if item.severity.value == "breaking" else item.severity.value,
        str(item.depth),
        _cell(_code(item.dataset)),  # GFM splits cells on a pipe even inside a code span
        _columns(item, report),
        _cell(contracts) or "-",
        _cell(", ".join(item.owners)) or "-",
        _cell(consumers) or "-",
    ]
    return "| " + " | ".join(cells) + " |"


def _fenced(text: str) -> list[str]:
    longest = max((len(m) for m in re.findall(r"`{3,}", text)), default=2)
    fence = "`" * (longest + 1)
    return [f"{fence}text", text, fence]


def _plan(plan: AssetPlan) -> list[str]:
    report = plan.report
    if report is None:
        return [f"#### {_code(plan.asset)}: not planned", "", _cell(plan.skipped or "")]
    lines = [
        f"#### {_code(plan.asset)} → {_code(report.sink_dataset)}: {report.severity.value}",
        "",
        f"Planned schema from {_FROM[report.planned_from]}"
        + (f" (sample rule: {report.sample_rule.value})" if report.sample_rule else "")
        + f"; {len(report.affected)} affected dataset(s) within {report.depth} hop(s).",
        "",
    ]
    if report.affected:
        lines += [
            "| Severity | Depth | Dataset | Columns | Contracts | Owners | Consumers |",
            "|---|---:|---|---|---|---|---|",
        ]
        lines += [_row(item, report) for item in report.affected]
        lines.append("")
    lines += [
        f"<details><summary>Details: {_cell(plan.asset)}</summary>",
        "",
        *_fenced(render_text(report)),
        "",
        "</details>",
    ]
    return lines


def render_markdown(change: ChangeImpact) -> str:
    """The change set as a pull-request comment."""
    planned = [p for p in change.plans if p.report is not None]
    affected = sum(len(p.report.affected) for p in planned if p.report is not None)
    assets = ", ".join(_code(p.asset) for p in change.plans)
    lines = [
        MARKER,
        f"### Change impact: {change.severity.value}",
        "",
        f"**{change.severity.value}**: {len(planned)} of {len(change.plans)} selected asset(s) "
        f"planned ({assets}); {affected} affected dataset(s); owners to notify: "
        f"{_cell(', '.join(change.owners)) or '-'}",
    ]
    for plan in change.plans:
        lines += ["", *_plan(plan)]
    return "\n".join(lines) + "\n"
