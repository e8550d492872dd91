"""One number format for every text faucet shows: check descriptions, the markdown
summary, the CLI and notifications.

* whole numbers with thousands separators: ``3,827``;
* other numbers of 1,000 or more with one decimal: ``16,870.4``;
* smaller numbers with four significant digits: ``12.35``, ``0.001235``;
* very large (1e15 and beyond) or very small (below 1e-4) magnitudes in scientific
  notation with four significant digits: ``1.235e+16``;
* rates (null rate, shares) as percentages: ``40.0%``, or two decimals below 1 %:
  ``0.12%``.
"""

from __future__ import annotations

import math

__all__ = ["RATE_STATISTICS", "fmt_number", "fmt_rate"]

RATE_STATISTICS = frozenset({"null_rate"})
"""Statistics that are fractions of the run's records, shown as percentages."""


def fmt_rate(value: float) -> str:
    """A fraction as a percentage: one decimal, two below 1 %."""
    if not math.isfinite(value):
        return str(value)
    if value != 0 and abs(value) < 0.01:
        return f"{value:.2%}"
    return f"{value:.1%}"


def fmt_number(value: float, statistic: str = "") -> str:
    """``value`` in the one format (a percentage when ``statistic`` is a rate)."""
    if statistic in RATE_STATISTICS:
        return fmt_rate(value)
    if not math.isfinite(value):
        return str(value)
    if value == 0:
        return "0"
    magnitude = abs(value)
    if magnitude >= 1e15 or magnitude < 1e-4:
        return f"{value:.4g}"
    if value == round(value):
        return f"{round(value):,}"
    if magnitude >= 999.95:  # 4 significant digits would print 1000 without a separator
        return f"{value:,.1f}"
    return f"{value:.4g}"
