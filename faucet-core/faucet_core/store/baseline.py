"""Reading a baseline for the detector, leaving out (and naming) the runs it cannot use.

A run can be unusable in two ways: its stored profile cannot be decoded, or it decodes
but the detector cannot compute with it (a ``stddev`` that is null, say). Either way it
is skipped and reported as a :class:`SkippedRun`, so one damaged old run never blocks
every later ``record`` of its key.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection

from faucet_core.config import ProfilingConfig
from faucet_core.db.schema import profile_runs
from faucet_core.drift import DriftFinding, detect_drift
from faucet_core.drift.detector import Older
from faucet_core.errors import FaucetError, StoreCorruptError
from faucet_core.profile import TableProfile
from faucet_core.store.codec import decode_profile
from faucet_core.store.models import BaselineKey, SkippedRun
from faucet_core.store.rows import RawRun, raw_runs, recorded_at_of, skipped, to_raw, where_of

__all__ = ["BaselineRun", "detect", "load_baseline", "probe"]

_COMPUTE_ERRORS = (ArithmeticError, AttributeError, KeyError, TypeError, ValueError, FaucetError)


@dataclass(frozen=True)
class BaselineRun:
    raw: RawRun
    profile: TableProfile
    recorded_at: dt.datetime | None = None


def load_baseline(
    conn: Connection, key: BaselineKey, baseline_id: int, window: int | None
) -> tuple[list[BaselineRun], list[SkippedRun]]:
    """The newest ``window`` baseline runs of one key, oldest first, and the damaged ones."""
    query = (
        raw_runs("seq", "run_id", "recorded_at", "profile")
        .where(profile_runs.c.baseline_id == baseline_id, profile_runs.c.in_baseline.is_(True))
        .order_by(profile_runs.c.seq.desc())
    )
    if window is not None:
        query = query.limit(window)
    runs: list[BaselineRun] = []
    bad: list[SkippedRun] = []
    for row in reversed(conn.execute(query).all()):
        raw = to_raw(row)
        try:
            blob = raw.values["profile"]
            if not isinstance(blob, (bytes, bytearray, memoryview)):
                raise StoreCorruptError(
                    f"{where_of(key, raw)}: column profile holds a {type(blob).__name__}, "
                    "not stored bytes"
                )
            prof = decode_profile(bytes(blob), where_of(key, raw), check_sketches=False)
        except StoreCorruptError as exc:
            bad.append(skipped(key, raw, exc))
            continue
        runs.append(BaselineRun(raw, prof, recorded_at_of(raw, conn.dialect)))
    return runs, bad


def probe(current: TableProfile, run: BaselineRun, config: ProfilingConfig) -> str | None:
    """Why the detector cannot compute with ``run`` (compared with itself and with
    ``current``), or None when it can."""
    copies = [run.profile] * max(2, config.min_history)
    try:
        detect_drift(run.profile, copies, config)
        detect_drift(current, copies, config)
    except _COMPUTE_ERRORS as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def _drift(
    current: TableProfile,
    baseline: Sequence[BaselineRun],
    config: ProfilingConfig,
    current_time: dt.datetime | None,
    older: Older | None = None,
) -> list[DriftFinding]:
    """detect_drift with the runs' recorded times when every run has one."""
    times = [r.recorded_at for r in baseline]
    if current_time is None or any(t is None for t in times):
        return detect_drift(current, [r.profile for r in baseline], config, older=older)
    return detect_drift(
        current,
        [r.profile for r in baseline],
        config,
        current_time=current_time,
        baseline_times=[t for t in times if t is not None],
        older=older,
    )


def detect(
    key: BaselineKey,
    current: TableProfile,
    baseline: Sequence[BaselineRun],
    config: ProfilingConfig,
    current_time: dt.datetime | None = None,
    older: Older | None = None,
) -> tuple[list[DriftFinding], list[BaselineRun], list[SkippedRun]]:
    """Findings of ``current`` (recorded at ``current_time``) against ``baseline``; runs
    the detector cannot compute with are probed one by one, left out and returned as
    skipped. ``older``: the runs before the window (the detector's memory)."""
    try:
        return _drift(current, baseline, config, current_time, older), list(baseline), []
    except _COMPUTE_ERRORS:
        pass
    usable: list[BaselineRun] = []
    bad: list[SkippedRun] = []
    for run in baseline:
        problem = probe(current, run, config)
        if problem is None:
            usable.append(run)
        else:
            error = StoreCorruptError(
                f"{where_of(key, run.raw)}: the detector cannot use its stored profile ({problem})"
            )
            bad.append(skipped(key, run.raw, error))
    if len(usable) < config.min_history:
        return [], usable, bad
    try:
        findings = _drift(current, usable, config, current_time, older)
    except _COMPUTE_ERRORS as exc:
        raise StoreCorruptError(
            f"baseline {key}: drift detection failed on the stored baseline "
            f"({type(exc).__name__}: {exc}); run `faucet doctor` to find the damaged run"
        ) from None
    return findings, usable, bad
