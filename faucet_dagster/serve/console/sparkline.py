"""Inline SVG sparklines: one series over the stored runs, drift runs marked.

Pure: no I/O. The SVG uses presentation attributes only (no ``style``), so the console's
``Content-Security-Policy`` needs no inline-style exception; every text is escaped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from markupsafe import Markup, escape

__all__ = ["HEIGHT", "WIDTH", "svg_sparkline"]

WIDTH = 160
HEIGHT = 32
PAD = 4


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def svg_sparkline(
    values: Sequence[float],
    marks: Sequence[bool] = (),
    *,
    label: str,
    runs: Sequence[str] = (),
) -> Markup:
    """An ``<svg>`` line of ``values`` (scaled between their min and max), a red dot on
    each run where ``marks`` is true (``class="drift"``), a ``<title>`` per point naming
    ``runs[i]`` and the value. ``label`` is the accessible name."""
    finite = [v for v in values if math.isfinite(v)]
    lo, hi = (min(finite), max(finite)) if finite else (0.0, 0.0)
    span = hi - lo
    n = len(values)
    step = (WIDTH - 2 * PAD) / (n - 1) if n > 1 else 0.0

    def point(i: int, v: float) -> tuple[float, float]:
        x = PAD + i * step if n > 1 else WIDTH / 2
        level = 0.5 if span == 0 or not math.isfinite(v) else (v - lo) / span
        return x, HEIGHT - PAD - level * (HEIGHT - 2 * PAD)

    points = [point(i, v) for i, v in enumerate(values)]
    parts = [
        f'<svg class="spark" xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" '
        f'height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(label)}" data-points="{n}" '
        f'data-drift="{sum(1 for m in marks[:n] if m)}">',
        f"<title>{escape(label)}</title>",
    ]
    if len(points) > 1:
        line = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in points)
        parts.append(f'<polyline points="{line}" fill="none" stroke="#2563eb" stroke-width="1.5"/>')
    for i, (x, y) in enumerate(points):
        drifted = i < len(marks) and marks[i]
        run = runs[i] if i < len(runs) else f"run {i + 1}"
        tip = f"{run}: {values[i]:.6g}" + (" (drift)" if drifted else "")
        attrs = (
            'class="drift" r="3.5" fill="#dc2626"'
            if drifted
            else 'class="run" r="1.8" fill="#2563eb"'
        )
        parts.append(
            f'<circle {attrs} cx="{_fmt(x)}" cy="{_fmt(y)}"><title>{escape(tip)}</title></circle>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
