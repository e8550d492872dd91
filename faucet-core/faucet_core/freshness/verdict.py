"""Judging freshness at a given ``now``: fresh, overdue, or warming up."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from faucet_core.errors import ConfigError
from faucet_core.freshness.cadence import (
    Cadence,
    Update,
    duration_text,
    learn_cadence,
    update_times,
)
from faucet_core.freshness.config import FreshnessConfig

__all__ = ["FreshnessState", "FreshnessVerdict", "judge_freshness"]


class FreshnessState(str, Enum):
    FRESH = "fresh"
    OVERDUE = "overdue"
    WARMING = "warming"
    """Too little history to learn a cadence (and no ``max_lag``), or never materialized."""


def _utc_text(at: dt.datetime) -> str:
    return at.astimezone(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


@dataclass(frozen=True)
class FreshnessVerdict:
    """What :func:`judge_freshness` found."""

    state: FreshnessState
    now: dt.datetime
    last: dt.datetime | None
    """The latest update that counts (UTC)."""
    expected: dt.datetime | None
    """When the next update was expected (None under ``max_lag`` or while warming)."""
    deadline: dt.datetime | None
    """When the asset is (or became) overdue."""
    cadence: Cadence | None
    updates: int
    """Updates the verdict was learned from."""
    min_history: int
    max_lag: dt.timedelta | None = None

    @property
    def overdue(self) -> bool:
        return self.state is FreshnessState.OVERDUE

    @property
    def lag(self) -> dt.timedelta | None:
        """Time since the last update."""
        return None if self.last is None else self.now - self.last

    @property
    def overdue_by(self) -> dt.timedelta | None:
        if self.deadline is None or self.now <= self.deadline:
            return None
        return self.now - self.deadline

    @property
    def rule(self) -> str:
        """What the deadline comes from: the learned cadence or ``max_lag``."""
        if self.max_lag is not None:
            return f"max_lag {duration_text(self.max_lag.total_seconds())}"
        if self.cadence is not None:
            return f"learned cadence: {self.cadence.describe()}"
        return "learning the cadence"

    @property
    def message(self) -> str:
        """One sentence for a check description or a notification."""
        if self.last is None:
            return "no materialization yet: freshness is judged once the asset has updates"
        lag = self.lag
        assert lag is not None
        since = f"last update {_utc_text(self.last)} ({duration_text(lag.total_seconds())} ago)"
        if self.state is FreshnessState.WARMING:
            got = max(0, self.updates - 1)
            return (
                f"warming up: {got} of {self.min_history} intervals between updates needed to "
                f"learn the cadence; {since}"
            )
        assert self.deadline is not None
        if self.state is FreshnessState.OVERDUE:
            by = self.overdue_by or dt.timedelta()
            return (
                f"overdue by {duration_text(by.total_seconds())}: {since}; an update was due "
                f"by {_utc_text(self.deadline)} ({self.rule})"
            )
        return f"fresh: {since}; next update due by {_utc_text(self.deadline)} ({self.rule})"

    def to_dict(self) -> dict[str, Any]:
        def iso(value: dt.datetime | None) -> str | None:
            return None if value is None else value.astimezone(dt.timezone.utc).isoformat()

        lag = self.lag
        return {
            "state": self.state.value,
            "now": iso(self.now),
            "last_update": iso(self.last),
            "expected": iso(self.expected),
            "deadline": iso(self.deadline),
            "lag_seconds": None if lag is None else lag.total_seconds(),
            "updates": self.updates,
            "min_history": self.min_history,
            "max_lag_seconds": None if self.max_lag is None else self.max_lag.total_seconds(),
            "cadence": None if self.cadence is None else self.cadence.to_dict(),
            "message": self.message,
        }


def judge_freshness(
    updates: Iterable[Update], now: dt.datetime, config: FreshnessConfig | None = None
) -> FreshnessVerdict:
    """Fresh, overdue or warming up at ``now``, from the asset's ``updates``.

    Updates after ``now`` are ignored (a clock skew between hosts must not make the asset
    fresh before its time). With ``max_lag`` the asset is overdue once its last update is
    older than ``max_lag``, whatever the history; otherwise it is overdue once ``now`` is
    past the learned cadence's deadline for the next update."""
    config = config or FreshnessConfig()
    if now.tzinfo is None or now.utcoffset() is None:
        raise ConfigError(f"now={now.isoformat()} has no time zone: pass an aware datetime (UTC)")
    now = now.astimezone(dt.timezone.utc)
    past = [u for u in updates if u.at <= now]
    times = update_times(past)
    times = times[-config.history :]
    kept = [Update(t) for t in times]  # the counted updates, already filtered and merged
    cadence = learn_cadence(kept, min_history=config.min_history, timezone=config.timezone)
    last = times[-1] if times else None

    def verdict(state: FreshnessState, expected: Any, deadline: Any) -> FreshnessVerdict:
        return FreshnessVerdict(
            state=state,
            now=now,
            last=last,
            expected=expected,
            deadline=deadline,
            cadence=cadence,
            updates=len(times),
            min_history=config.min_history,
            max_lag=config.max_lag,
        )

    if last is None:
        return verdict(FreshnessState.WARMING, None, None)
    if config.max_lag is not None:
        deadline = last + config.max_lag
        state = FreshnessState.OVERDUE if now > deadline else FreshnessState.FRESH
        return verdict(state, None, deadline)
    if cadence is None:
        return verdict(FreshnessState.WARMING, None, None)
    expected = cadence.expected_after(last)
    deadline = cadence.deadline_after(last)
    state = FreshnessState.OVERDUE if now > deadline else FreshnessState.FRESH
    return verdict(state, expected, deadline)
