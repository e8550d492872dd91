"""The notification model: what one ``profile_drift`` notification says.

A :class:`DriftNotification` carries one finding (the default, one notification per
finding) or several findings of the same check evaluation (grouped); a
``profile_check_error`` notification carries instead the error of a check that could
not profile or record its materialization (it has no findings). Findings of a
policy-classified column are withheld before they reach a notification: the finding's
value key and, for the metrics whose numbers are column values, its numbers and message.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from faucet_core.config import OnDrift, PolicyConfig
from faucet_core.drift.model import DriftFinding, DriftMetric
from faucet_core.errors import NotifyError

__all__ = [
    "CheckSeverity",
    "DriftNotification",
    "NotificationKind",
    "NotifiedFinding",
    "classified_columns",
    "findings_from_metadata",
]


class NotificationKind(str, Enum):
    """The kinds of notification faucet sends."""

    PROFILE_DRIFT = "profile_drift"
    PROFILE_CHECK_ERROR = "profile_check_error"
    """The check could not do its work (store unreachable, loader failed): the asset
    went unmonitored for this materialization."""
    PROFILE_FRESHNESS = "profile_freshness"
    """An asset became overdue (``episode: overdue``) or fresh again (``recovered``)."""
    PROFILE_SCHEMA_CHANGE = "profile_schema_change"
    """A run's profile gained or lost columns, or a column's JSON types changed."""


SUMMARY_KINDS = frozenset(
    {NotificationKind.PROFILE_FRESHNESS, NotificationKind.PROFILE_SCHEMA_CHANGE}
)
"""Kinds that carry one ``summary`` sentence and no findings."""


class CheckSeverity(str, Enum):
    """The severity of the check evaluation: WARN (warn, notify) or ERROR (fail)."""

    WARN = "WARN"
    ERROR = "ERROR"


_VALUE_METRICS = frozenset(
    {
        DriftMetric.MEAN,
        DriftMetric.MIN,
        DriftMetric.MAX,
        DriftMetric.NEW_VALUE,
        DriftMetric.VANISHED_VALUE,
    }
)
"""Metrics whose numbers or message can carry the column's values."""

WITHHELD = "withheld: classified column"


@dataclass(frozen=True)
class NotifiedFinding:
    """One finding as notifications show it: the partition it came from and whether its
    column is classified (then :meth:`of` has already withheld its values)."""

    finding: DriftFinding
    partition: str | None = None
    classified: bool = False

    @classmethod
    def of(
        cls, finding: DriftFinding, *, partition: str | None = None, classified: bool = False
    ) -> NotifiedFinding:
        """The finding, with its values withheld when ``classified``."""
        if classified:
            finding = _withhold(finding)
        return cls(finding=finding, partition=partition, classified=classified)

    def to_dict(self) -> dict[str, Any]:
        """The finding's JSON (as :meth:`DriftFinding.to_dict`) plus partition and classified."""
        return {
            **self.finding.to_dict(),
            "partition": self.partition,
            "classified": self.classified,
        }


def _withhold(finding: DriftFinding) -> DriftFinding:
    if finding.evidence:
        evidence = tuple(_withhold(e) for e in finding.evidence)
        finding = replace(finding, evidence=evidence)
    # type_mix names a JSON type, never a value: it keeps its key.
    key = finding.value_key if finding.metric is DriftMetric.TYPE_MIX else None
    if finding.metric not in _VALUE_METRICS:
        return replace(finding, value_key=key)
    return replace(
        finding,
        message=f"{finding.key}: {WITHHELD}",
        value=math.nan,
        baseline_center=math.nan,
        baseline_spread=math.nan,
        expected_low=None,
        expected_high=None,
        value_key=None,
    )


@dataclass(frozen=True)
class DriftNotification:
    """A ``profile_drift`` notification: findings ``first_index`` .. of one check evaluation.

    ``total_findings`` is the evaluation's finding count; ``id`` is stable across retries,
    ticks and restarts, so a receiver can drop the rare repeat (a crash between sending and
    recording the delivery).
    """

    asset: str
    check: str
    findings: tuple[NotifiedFinding, ...]
    first_index: int
    total_findings: int
    run_id: str
    evaluated_at: dt.datetime
    on_drift: OnDrift
    severity: CheckSeverity
    partition: str | None = None
    run_url: str | None = None
    kind: NotificationKind = NotificationKind.PROFILE_DRIFT
    error: str | None = None
    """``profile_check_error`` only: why the check could not do its work."""
    summary: str | None = None
    """``profile_freshness`` and ``profile_schema_change``: what happened, in one sentence."""
    episode: str | None = None
    """``profile_freshness``: ``overdue`` or ``recovered``."""

    def __post_init__(self) -> None:
        if self.kind in SUMMARY_KINDS:
            if not self.summary or self.findings:
                raise NotifyError(f"a {self.kind.value} notification has a summary, no findings")
        elif self.kind is NotificationKind.PROFILE_CHECK_ERROR:
            if not self.error or self.findings:
                raise NotifyError("a check-error notification has its error and no findings")
        elif not self.findings:
            raise NotifyError("a drift notification needs at least one finding")
        if self.evaluated_at.tzinfo is None:
            raise NotifyError("evaluated_at must be timezone-aware (UTC)")

    @property
    def is_error(self) -> bool:
        """True for a ``profile_check_error`` notification."""
        return self.kind is NotificationKind.PROFILE_CHECK_ERROR

    @property
    def id(self) -> str:
        where = f"/{self.partition}" if self.partition is not None else ""
        if self.is_error:
            return f"{self.run_id}/{self.asset}/{self.check}{where}#error"
        if self.kind is NotificationKind.PROFILE_FRESHNESS:
            at = self.evaluated_at.astimezone(dt.timezone.utc).strftime("%Y%m%dT%H%M%S")
            return f"{self.asset}/{self.check}#{self.episode or 'freshness'}@{at}"
        if self.kind is NotificationKind.PROFILE_SCHEMA_CHANGE:
            return f"{self.run_id}/{self.asset}/{self.check}{where}#schema"
        last = self.first_index + len(self.findings) - 1
        span = str(self.first_index) if last == self.first_index else f"{self.first_index}-{last}"
        return f"{self.run_id}/{self.asset}/{self.check}{where}#{span}"

    @property
    def grouped(self) -> bool:
        """True when the notification carries more than one finding."""
        return len(self.findings) > 1

    @property
    def evaluated_at_text(self) -> str:
        """``2026-09-25 02:00 UTC``."""
        return self.evaluated_at.astimezone(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def classified_columns(policy: PolicyConfig | None, columns: Iterable[str]) -> frozenset[str]:
    """The columns a policy classifies by name (``columns`` globs of its rules).

    Value detectors and nested field rules classify by what a column holds, which a
    finding does not show; those columns publish no values in their findings already.
    """
    if policy is None:
        return frozenset()
    from faucet_core.profile.policy import PolicyState

    return frozenset(c for c in columns if PolicyState(policy, c).labels)


def findings_from_metadata(
    items: Iterable[Mapping[str, Any]], *, classified: Iterable[str] = ()
) -> tuple[NotifiedFinding, ...]:
    """Findings as the profile check writes them (``faucet/findings``: the dicts of
    :meth:`DriftFinding.to_dict`, with ``partition`` when partitioned)."""
    hidden = frozenset(classified)
    out = []
    for item in items:
        if not isinstance(item, Mapping):
            raise NotifyError(f"a finding is {type(item).__name__}, not a JSON object")
        data = dict(item)
        partition = data.pop("partition", None)
        finding = DriftFinding.from_dict(data)
        out.append(
            NotifiedFinding.of(
                finding,
                partition=None if partition is None else str(partition),
                classified=finding.column in hidden,
            )
        )
    return tuple(out)
