"""Text rendering of profiles for the terminal."""

from __future__ import annotations

import json

from faucet_core.drift.numfmt import fmt_number, fmt_rate
from faucet_core.profile import ColumnProfile, TableProfile

__all__ = ["SHORT_TOP", "render_column", "render_profile"]


def _num(value: float) -> str:
    return fmt_number(value)


def _value(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.10g}"
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


SHORT_TOP = 4
"""Top values a compact view lists; the rest are counted (``… and N more``)."""


def _top(col: ColumnProfile, *, every: bool) -> str:
    kept = list(col.top_values or ())
    shown = kept if every else kept[:SHORT_TOP]
    text = ", ".join(f"{_value(t.value)} {fmt_rate(t.share)}" for t in shown)
    rest = kept[len(shown) :]
    if rest:
        share = fmt_rate(sum(t.share for t in rest))
        text += f", … and {len(rest)} more ({share} of the rows; --full lists them)"
    return text


def render_column(col: ColumnProfile, *, full: bool = False, every_value: bool = False) -> str:
    """One column; ``full``: every statistic; ``every_value``: every top value the profile
    kept (else the first few and how many more there are)."""
    types = " ".join(f"{t}:{_num(n)}" for t, n in col.types.items() if t != "null")
    distinct = max(0, min(col.distinct, col.row_count - col.null_count))  # a sketch overshoots
    parts = [
        f"  {col.name}",
        f"null {fmt_rate(col.null_rate)}",
        f"distinct {_num(distinct)}",
        f"[{types}]" if types else "[]",
    ]
    if col.numeric is not None:
        n = col.numeric
        parts.append(f"min {_num(n.min)} max {_num(n.max)} mean {_num(n.mean)}")
        if full:
            parts.append(f"stddev {_num(n.stddev)}")
        parts.append(f"p50 {_num(n.p50)} p95 {_num(n.p95)}")
    if col.string is not None:
        s = col.string
        parts.append(f"len {_num(s.len_min)}..{_num(s.len_max)} (mean {_num(s.len_mean)})")
    line = " ".join(parts)
    if col.top_values:
        line += "\n      top " + _top(col, every=full or every_value)
    elif col.classified:
        line += f"\n      values withheld (classified: {', '.join(col.classified)})"
    elif col.high_cardinality:
        line += "\n      values withheld (high cardinality)"
    return line


def render_profile(
    prof: TableProfile, *, title: str = "", full: bool = False, every_value: bool = False
) -> str:
    head = f"{_num(prof.row_count)} row(s), {len(prof.columns)} column(s)"
    if prof.skipped_columns:
        head += f", {prof.skipped_columns} skipped (max_columns)"
    lines = [f"{title}: {head}" if title else head, "columns:"]
    lines.extend(
        render_column(c, full=full, every_value=every_value) for c in prof.columns.values()
    )
    return "\n".join(lines)
