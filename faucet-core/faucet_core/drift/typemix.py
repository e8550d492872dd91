"""type_mix: a JSON type the column's baseline never held at a reportable share."""

from __future__ import annotations

from collections.abc import Sequence

from faucet_core.drift.messages import type_mix_message
from faucet_core.drift.model import DriftFinding, DriftMetric, DriftTest
from faucet_core.profile.model import ColumnProfile, JsonType

__all__ = ["TYPE_MARGIN", "type_mix"]

TYPE_MARGIN = 2.0
"""A type the baseline held just under new_value_min_share must at least double."""


def _share(column: ColumnProfile, json_type: str) -> float:
    return column.types.get(json_type, 0) / column.row_count if column.row_count else 0.0


def type_mix(
    name: str, current: ColumnProfile, past: Sequence[ColumnProfile], min_share: float
) -> list[DriftFinding]:
    """A finding per non-null JSON type that is at least ``min_share`` of the run while
    every baseline run held it below ``min_share`` (and below half the current share).
    Nulls are null_rate's business, and so is a column whose baseline runs held no value
    at all: with no type before, the first values mix nothing (a reply id on the first
    reply of a month); the null rate judges whether values were due."""
    findings: list[DriftFinding] = []
    null = JsonType.NULL.value
    if not any(n for c in past for t, n in c.types.items() if t != null):
        return findings
    for json_type in current.types:
        if json_type == null:
            continue
        share = _share(current, json_type)
        if share < min_share:
            continue
        most = max(_share(c, json_type) for c in past)
        if most >= min_share or share < TYPE_MARGIN * most:
            continue
        findings.append(
            DriftFinding(
                column=name,
                metric=DriftMetric.TYPE_MIX,
                message=type_mix_message(name, json_type, share, most, len(past)),
                value=share,
                baseline_center=most,
                baseline_spread=0.0,
                score=share,
                threshold=min_share,
                test=DriftTest.SHARE,
                baseline_runs=len(past),
                statistic="types",
                value_key=json_type,
                share=share,
                baseline_share=most,
            )
        )
    return findings
