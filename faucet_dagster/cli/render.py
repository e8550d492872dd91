"""Text rendering of profiles for the terminal."""

from __future__ import annotations

import json

from faucet_core.drift.numfmt import fmt_number, fmt_rate
from faucet_core.profile import ColumnProfile, TableProfile

__all__ = ["render_column", "render_profile"]


def _num(value: float) -> str:
    return fmt_number(value)


def _value(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.10g}"
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def render_column(col: ColumnProfile, *, full: bool = False) -> str:
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
        shown = col.top_values if full else col.top_values[:4]
        line += "\n      top " + ", ".join(f"{_value(t.value)} {fmt_rate(t.share)}" for t in shown)
    elif col.classified:
        line += f"\n      values withheld (classified: {', '.join(col.classified)})"
    elif col.high_cardinality:
        line += "\n      values withheld (high cardinality)"
    return line


def render_profile(prof: TableProfile, *, title: str = "", full: bool = False) -> str:
    head = f"{_num(prof.row_count)} row(s), {len(prof.columns)} column(s)"
    if prof.skipped_columns:
        head += f", {prof.skipped_columns} skipped (max_columns)"
    lines = [f"{title}: {head}" if title else head, "columns:"]
    lines.extend(render_column(c, full=full) for c in prof.columns.values())
    return "\n".join(lines)
