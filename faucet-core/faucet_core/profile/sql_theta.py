"""A theta sketch computed by the database: distinct counts without a sort of every value.

For a dialect with no approximate distinct of its own (PostgreSQL), a large table's
distinct values are estimated from a 64-bit hash of each value: only the hashes below a
threshold, a fraction ``p`` of the hash range, are counted (``count(DISTINCT h) FILTER
(WHERE h < threshold)``), and the estimate is that count divided by ``p``. The count of a
uniform hash's distinct values below the threshold is binomial: its relative standard
error is ``sqrt((1 - p) / kept)``, at most 1 / sqrt(4096) ~ 1.6 % (the in-memory sketch's
HyperLogLog error, lg_k = 12) once :data:`ACCEPT` distinct hashes are kept.

``p`` is chosen to keep about :data:`KEEP` hashes from the column's expected distinct
count (the planner's statistics, else its non-null count); when fewer than :data:`ACCEPT`
are kept (the expectation was too high), the column is counted again with ``p`` scaled
up by what was seen. All the large columns of a table share one scan: every value is
hashed and compared once, and only the few kept hashes are sorted for the DISTINCT.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

__all__ = ["ACCEPT", "KEEP", "counts_query", "estimate", "fraction_for", "next_fraction", "settled"]

KEEP = 8192
"""Distinct hashes a column's threshold aims to keep."""
ACCEPT = 4096
"""At least this many kept (or the whole hash range counted), the estimate stands."""
_RANGE = 2**64
_LOWEST = -(2**63)


def fraction_for(expected_distinct: float) -> float:
    """The share of the hash range that keeps about :data:`KEEP` of ``expected_distinct``
    distinct values (1.0: every value)."""
    return min(1.0, KEEP / max(expected_distinct, 1.0))


def threshold(fraction: float) -> int | None:
    """The signed 64-bit bound below which a hash is kept (None: every hash)."""
    if fraction >= 1.0:
        return None
    return _LOWEST + max(1, round(fraction * _RANGE))


def counts_query(source: Any, hashed: Sequence[tuple[str, Any, float]]) -> Any:
    """One SELECT over ``source`` with, for each ``(label, hash expression, fraction)``,
    the distinct hashes below that fraction's threshold, labelled ``label``. The hash of a
    NULL is NULL, which count(DISTINCT) skips."""
    inner = sa.select(*[h.label(f"h{i}") for i, (_, h, _) in enumerate(hashed)])
    sub = inner.select_from(source).subquery()
    exprs = []
    for i, (label, _, fraction) in enumerate(hashed):
        h = sub.c[f"h{i}"]
        count: Any = sa.func.count(sa.distinct(h))
        bound = threshold(fraction)
        if bound is not None:
            count = count.filter(h < sa.literal(bound, sa.BigInteger))
        exprs.append(count.label(label))
    return sa.select(*exprs)


def estimate(kept: int, fraction: float) -> int:
    """The distinct estimate from ``kept`` distinct hashes below ``fraction`` of the range."""
    return kept if fraction >= 1.0 else round(kept / fraction)


def settled(kept: int, fraction: float) -> bool:
    """Whether the estimate is within the documented error (else count again)."""
    return fraction >= 1.0 or kept >= ACCEPT


def next_fraction(kept: int, fraction: float) -> float:
    """The fraction that keeps about :data:`KEEP` hashes, given ``kept`` at ``fraction``."""
    return min(1.0, fraction * KEEP / max(kept, 1))
