"""Inline SVG charts of one series over the stored runs: a time axis, the values, the band
the detector judges the latest run against, and a marker on each run where this very
series drifted (with the band that run's finding carries).

Pure: no I/O. Presentation attributes only (no ``style``), so the console's
``Content-Security-Policy`` needs no inline-style exception; every text is escaped.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

__all__ = ["HEIGHT", "WIDTH", "ChartPoint", "svg_chart"]

WIDTH = 340
HEIGHT = 96
LEFT, RIGHT, TOP, BOTTOM = 58, 8, 6, 18
REACH = 3.0
"""A band edge farther than this many value ranges from the values is drawn at that
distance (its tooltip keeps the number): a wide band must not flatten the line."""


@dataclass(frozen=True)
class ChartPoint:
    at: dt.datetime
    value: float | None
    """None: the run has no such value (the column was missing, or had no records)."""
    run: str
    """What the point's tooltip names: the run's time and short id."""
    drift: bool = False
    """A finding of this series in this run."""
    expected: tuple[float, float] | None = None
    """The band that run's finding carries (``expected_low`` .. ``expected_high``)."""


def _f(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _finite(values: Sequence[float | None]) -> list[float]:
    return [v for v in values if v is not None and math.isfinite(v)]


def _time_label(at: dt.datetime, span: dt.timedelta) -> str:
    if span < dt.timedelta(days=1):
        return at.strftime("%H:%M:%S" if span < dt.timedelta(minutes=10) else "%H:%M")
    return at.strftime("%m-%d" if span < dt.timedelta(days=300) else "%Y-%m")


def svg_chart(
    points: Sequence[ChartPoint],
    *,
    label: str,
    fmt: Callable[[float], str],
    band: tuple[float, float] | None = None,
    band_from: dt.datetime | None = None,
    bounds: tuple[float, float] | None = None,
    dots: bool = True,
    size: tuple[int, int] = (WIDTH, HEIGHT),
) -> Markup:
    """An ``<svg>`` chart of ``points`` (oldest first). ``band`` is the detector's band for
    the latest run, shaded from ``band_from`` (its oldest baseline run) to the latest;
    ``bounds`` clamps the value axis (0..1 for a share); ``fmt`` writes a value;
    ``dots=False`` draws a dot (with its tooltip) only on drifted runs and the latest;
    ``size`` is (width, height) in pixels."""
    width, height = size
    values = _finite([p.value for p in points])
    lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
    flat = 0.01 if bounds is not None and bounds[1] <= 1.0 else 1.0  # a share: 1 point
    span = hi - lo if hi > lo else max(abs(hi) * 0.05, flat)
    edges = _finite([*(band or ()), *(e for p in points if p.expected for e in p.expected)])
    y_lo = min([lo, *(max(e, lo - REACH * span) for e in edges)])
    y_hi = max([hi, *(min(e, hi + REACH * span) for e in edges)])
    if y_hi <= y_lo:
        y_lo, y_hi = y_lo - span, y_hi + span
    if bounds is not None:
        y_lo, y_hi = max(y_lo, bounds[0]), min(y_hi, bounds[1])
        if y_hi <= y_lo:
            y_lo, y_hi = bounds
    plot_w, plot_h = width - LEFT - RIGHT, height - TOP - BOTTOM

    def y_of(v: float) -> float:
        v = min(max(v, y_lo), y_hi)
        return TOP + plot_h - (v - y_lo) / (y_hi - y_lo) * plot_h

    first, last = (points[0].at, points[-1].at) if points else (None, None)
    t_span = (last - first) if first is not None and last is not None else dt.timedelta(0)

    seconds = t_span.total_seconds()

    def x_of(at: dt.datetime) -> float:
        if first is None or seconds <= 0:
            return LEFT + plot_w / 2
        return LEFT + (at - first).total_seconds() / seconds * plot_w

    drifts = sum(1 for p in points if p.drift)
    parts = [
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(label)}" data-points="{len(points)}" data-drift="{drifts}"'
        f"{' data-band' if band else ''}>",
        f"<title>{escape(label)}</title>",
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#f9fafb" '
        'stroke="#e5e7eb"/>',
    ]
    if band is not None and points:
        x0 = x_of(band_from) if band_from is not None else LEFT
        top, bottom = y_of(band[1]), y_of(band[0])
        tip = f"the detector's band for the latest run: {fmt(band[0])} to {fmt(band[1])}"
        parts.append(
            f'<rect class="band" x="{_f(x0)}" y="{_f(top)}" width="{_f(LEFT + plot_w - x0)}" '
            f'height="{_f(max(bottom - top, 1.0))}" fill="#dbeafe" fill-opacity="0.9">'
            f"<title>{escape(tip)}</title></rect>"
        )
    for value, anchor in ((y_hi, TOP + 8), (y_lo, TOP + plot_h)):
        parts.append(
            f'<text class="axis" x="{LEFT - 4}" y="{_f(anchor)}" font-size="10" '
            f'fill="#6b7280" text-anchor="end">{escape(fmt(value))}</text>'
        )
    if first is not None and last is not None:
        ticks = (
            [(first, "start"), (last, "end")] if t_span > dt.timedelta(0) else [(last, "middle")]
        )
        for tick, side in ticks:
            parts.append(
                f'<text class="axis" x="{_f(x_of(tick))}" y="{height - 4}" font-size="10" '
                f'fill="#6b7280" text-anchor="{side}">'
                f"{escape(_time_label(tick, t_span))}</text>"
            )
    # the line, broken where a run has no value
    xy: list[tuple[float, float] | None] = [
        None if p.value is None or not math.isfinite(p.value) else (x_of(p.at), y_of(p.value))
        for p in points
    ]
    segment: list[str] = []
    segments: list[list[str]] = [segment]
    for pos in xy:
        if pos is None:
            segment = []
            segments.append(segment)
            continue
        segment.append(f"{pos[0]:.1f},{pos[1]:.1f}")
    for seg in segments:
        if len(seg) > 1:
            parts.append(
                f'<polyline points="{" ".join(seg)}" fill="none" stroke="#2563eb" '
                'stroke-width="1.5"/>'
            )
    newest = len(points) - 1
    for i, (p, pos) in enumerate(zip(points, xy, strict=True)):
        if pos is None or p.value is None or not (dots or p.drift or i == newest):
            continue
        x, y = pos
        if p.drift and p.expected is not None:
            top, bottom = y_of(p.expected[1]), y_of(p.expected[0])
            parts.append(
                f'<rect class="expected" x="{_f(x - 2)}" y="{_f(top)}" width="4" '
                f'height="{_f(max(bottom - top, 1.0))}" fill="#fecaca"/>'
            )
        tip = f"{p.run}: {fmt(p.value)}"
        if p.drift:
            tip += " (drift" + (
                f"; expected {fmt(p.expected[0])} to {fmt(p.expected[1])})" if p.expected else ")"
            )
        attrs = (
            'class="drift" r="4" fill="#dc2626"' if p.drift else 'class="run" r="2" fill="#2563eb"'
        )
        parts.append(
            f'<circle {attrs} cx="{_f(x)}" cy="{_f(y)}"><title>{escape(tip)}</title></circle>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
