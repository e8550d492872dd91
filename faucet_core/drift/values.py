"""new_value and vanished_value: frequent values the baseline never listed, or always did.

Only stable categories are judged: a column is skipped when it lists no values in any
run (high-cardinality or classified), when its values are dates or timestamps (a
calendar column moves forward by design), or when its frequent values churn (a new one
in at least a fifth of the baseline's runs). Both tests keep a margin from the edge of
a full top-k list (see :data:`~faucet_core.drift.valuelist.EDGE_MARGIN`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from faucet_core.drift.messages import new_value_message, vanished_message
from faucet_core.drift.model import DriftFinding, DriftMetric, DriftTest
from faucet_core.drift.valuelist import EDGE_MARGIN, ValueKey, ValueList, new_share_needed

__all__ = ["ABSENT_P", "new_values", "vanished_values"]


def new_values(
    name: str, current: ValueList, past: Sequence[ValueList], min_share: float
) -> list[DriftFinding]:
    """Values of at least ``min_share`` (and clear of every baseline list's cut-off)
    that no baseline run listed."""
    seen: set[ValueKey] = set()
    for lst in past:
        seen.update(lst.shares)
    needed = new_share_needed(min_share, past)
    findings: list[DriftFinding] = []
    for key, share in current.shares.items():
        if key in seen or share < needed:
            continue
        value = current.value(key)
        findings.append(
            DriftFinding(
                column=name,
                metric=DriftMetric.NEW_VALUE,
                message=new_value_message(name, value, share, len(past)),
                value=share,
                baseline_center=0.0,
                baseline_spread=0.0,
                score=share,
                threshold=needed,
                test=DriftTest.SHARE,
                baseline_runs=len(past),
                statistic="share",
                value_key=value,
                share=share,
                baseline_share=0.0,
            )
        )
    return findings


ABSENT_P = 0.001
"""A value missing from a small run is vanished only when chance alone would miss it
less often than this: (1 - share) ** records."""


def _absent_by_chance(share: float, records: int) -> bool:
    """A value at ``share`` can be missing from ``records`` draws by chance: "clear" at
    12.5 % of a day's 24 hourly readings is missing on 4 % of days."""
    return records * math.log1p(-min(share, 1.0 - 1e-12)) > math.log(ABSENT_P)


def vanished_values(
    name: str, current: ValueList, past: Sequence[ValueList], min_share: float
) -> list[DriftFinding]:
    """Values listed at ``min_share`` or more (and well inside the list) in every
    baseline run that the current run no longer lists."""
    if not past:
        return []
    common = set(past[0].shares)
    for lst in past[1:]:
        common &= set(lst.shares)
    findings: list[DriftFinding] = []
    gone = [(min(lst.shares[k] for lst in past), k) for k in common if k not in current.shares]
    for least, key in sorted(gone, key=lambda item: -item[0]):
        if least < min_share:
            continue
        if any(lst.shares[key] < EDGE_MARGIN * lst.cutoff for lst in past):
            continue
        needed = max(min_share, EDGE_MARGIN * current.cutoff)
        if least < needed:
            continue
        if not current.truncated and _absent_by_chance(least, current.non_null):
            continue
        cutoff = current.cutoff if current.truncated else None
        value = past[-1].value(key)
        findings.append(
            DriftFinding(
                column=name,
                metric=DriftMetric.VANISHED_VALUE,
                message=vanished_message(name, value, least, len(past), cutoff),
                value=0.0 if cutoff is None else cutoff,
                baseline_center=least,
                baseline_spread=0.0,
                score=least,
                threshold=needed,
                test=DriftTest.SHARE,
                baseline_runs=len(past),
                statistic="share",
                value_key=value,
                share=0.0 if cutoff is None else cutoff,
                baseline_share=least,
            )
        )
    return findings
