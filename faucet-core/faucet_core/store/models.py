"""Value types the profile store returns."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from faucet_core.errors import StoreError
from faucet_core.profile import TableProfile

if TYPE_CHECKING:
    from faucet_core.drift import DriftFinding

__all__ = [
    "REPAIR_HINT",
    "BaselineKey",
    "ProfileRun",
    "ProfilingOutcome",
    "RunStatus",
    "SkippedRun",
    "check_key",
]

REPAIR_HINT = "run `faucet doctor --repair` to move damaged runs to the quarantine table"


class RunStatus(str, Enum):
    """How a recorded run compared with its baseline."""

    WARMING = "warming"
    STABLE = "stable"
    DRIFTED = "drifted"


@dataclass(frozen=True, order=True)
class BaselineKey:
    """One baseline: a key (an asset) and, where it applies, a partition ("" for none)."""

    key: str
    partition: str = ""

    def __str__(self) -> str:
        return f"{self.key}::{self.partition}" if self.partition else self.key


@dataclass(frozen=True)
class SkippedRun:
    """A stored run that could not be read (damaged), left out of what was asked for."""

    key: BaselineKey
    row: int
    """The run's row id in ``faucet_profile_runs`` (what ``faucet doctor --repair`` moves)."""
    seq: int | None
    """The run's number in its baseline; None when the stored number itself is damaged."""
    run_id: str | None
    reason: str
    """Why it cannot be read: names the baseline, the run and the column."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key.key,
            "partition": self.key.partition or None,
            "row": self.row,
            "seq": self.seq,
            "run_id": self.run_id,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class ProfilingOutcome:
    """The result of recording one run."""

    key: BaselineKey
    status: RunStatus
    findings: tuple[DriftFinding, ...]
    baseline_runs: int
    """Runs in the baseline this run was compared with (before it joined)."""
    min_history: int
    in_baseline: bool
    """Whether this run joined the baseline (not under on_drift: fail when it drifted)."""
    seq: int
    run_id: str | None
    recorded_at: dt.datetime
    duplicate: bool = False
    """True when ``run_id`` was already recorded: the stored outcome is returned unchanged."""
    skipped_runs: tuple[SkippedRun, ...] = ()
    """Baseline runs left out of the comparison because they are damaged (each names its
    run and the reason); ``faucet doctor --repair`` moves them to the quarantine table."""
    in_transaction_error: str | None = None
    """Why the ``in_transaction`` callback of ``record`` failed (its writes were rolled
    back; the run itself was recorded), else None."""

    @property
    def drifted(self) -> bool:
        return self.status is RunStatus.DRIFTED

    @property
    def warming_message(self) -> str:
        """E.g. ``warming up: 2 of 5 run(s)``."""
        return f"warming up: {self.baseline_runs} of {self.min_history} run(s)"


@dataclass(frozen=True)
class ProfileRun:
    """One stored run of a baseline."""

    key: BaselineKey
    seq: int
    run_id: str | None
    recorded_at: dt.datetime
    status: RunStatus
    in_baseline: bool
    baseline_runs: int
    row_count: int
    profile: TableProfile = field(repr=False)
    findings: tuple[DriftFinding, ...] = ()

    def to_dict(self, *, sketches: bool = False) -> dict[str, Any]:
        return {
            "key": self.key.key,
            "partition": self.key.partition or None,
            "seq": self.seq,
            "run_id": self.run_id,
            "recorded_at": self.recorded_at.isoformat(),
            "status": self.status.value,
            "in_baseline": self.in_baseline,
            "baseline_runs": self.baseline_runs,
            "row_count": self.row_count,
            "findings": [f.to_dict() for f in self.findings],
            "profile": self.profile.to_dict(sketches=sketches),
        }


def check_key(key: str) -> str:
    """``key`` if it can name a baseline (a non-empty string of at most 512 characters)."""
    if not isinstance(key, str) or not key.strip():
        raise StoreError(f"baseline key {key!r} is invalid: it must be a non-empty string")
    if len(key) > 512:
        raise StoreError(f"baseline key {key[:40]!r}... is {len(key)} characters; the limit is 512")
    return key
