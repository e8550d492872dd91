"""Which columns are stable categories, and the value findings of one that is.

Only a stable category's values are judged value by value (new, vanished, PSI): a
column of readings, of dates or timestamps, or whose frequent values turn over is no
category, and the findings the value tests raised on it are cleared under the name of
the first rule that says so (counted like every clearing rule).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from faucet_core.config import ProfilingConfig
from faucet_core.drift.model import DriftFinding
from faucet_core.drift.psi import psi_finding
from faucet_core.drift.valuelist import ValueList, is_calendar, is_churning, is_measurement
from faucet_core.drift.values import ShareJudge, new_values, vanished_values

__all__ = ["not_a_category", "stable_category", "value_findings"]


def stable_category(now: ValueList, before: list[ValueList], min_share: float) -> bool:
    """The value tests judge the column's values: no reading, no calendar, no churn."""
    return bool(before) and not_a_category(now, before, min_share) is None


def not_a_category(now: ValueList, before: list[ValueList], min_share: float) -> str | None:
    """The name of the first rule that says the column is no stable category, in order,
    or None: only stable categories' values are judged."""
    rules: tuple[tuple[str, Callable[[], bool]], ...] = (
        ("readings_are_not_categories", lambda: is_measurement(before)),
        ("calendar_values", lambda: is_calendar([now, before[-1]])),
        ("churning_values", lambda: is_churning(before, min_share)),
    )
    return next((rule for rule, applies in rules if applies()), None)


def value_findings(
    name: str,
    now: ValueList,
    before: list[ValueList],
    config: ProfilingConfig,
    tests: int,
    cleared: Counter[str],
) -> list[DriftFinding]:
    """New and vanished values of the column (PSI when there are none), at the test's
    share of the run's budget (``tests`` sharing it), or none when the column is no
    stable category (``cleared`` counts them under the rule that says so)."""
    min_share = config.new_value_min_share
    judge = ShareJudge.of(config, tests, before, cleared)
    findings = new_values(name, now, before, judge)
    findings.extend(vanished_values(name, now, before, judge))
    if not findings:
        psi = psi_finding(
            name, now, before, config.psi_threshold, min_share, lambda: judge.volatility
        )
        if psi is not None:
            findings.append(psi)
    if not findings:
        return []
    # Only stable categories are judged (checked last: most runs have nothing to drop).
    rule = not_a_category(now, before, min_share)
    if rule is not None:
        cleared[rule] += len(findings)
        return []
    return findings
