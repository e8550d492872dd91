"""Text rendering of profiles for the terminal."""

from __future__ import annotations

import json

from faucet_core.profile import ColumnProfile, TableProfile

__all__ = ["render_column", "render_profile"]


def _num(value: float) -> str:
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}".replace(",", " ")
    return f"{value:.4g}"


def _value(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.10g}"
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def render_column(col: ColumnProfile, *, full: bool = False) -> str:
    types = " ".join(f"{t}:{n}" for t, n in col.types.items() if t != "null")
    parts = [
        f"  {col.name}",
        f"null {col.null_rate:.1%}",
        f"distinct {_num(col.distinct)}",
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
        parts.append(f"len {s.len_min}..{s.len_max} (mean {s.len_mean:.1f})")
    line = " ".join(parts)
    if col.top_values:
        shown = col.top_values if full else col.top_values[:4]
        line += "\n      top " + ", ".join(f"{_value(t.value)} {t.share:.1%}" for t in shown)
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
