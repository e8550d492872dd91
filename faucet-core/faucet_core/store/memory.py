"""The detector's memory in the store: runs that left the rolling window, kept without
their sketches (the detector's older runs, :mod:`faucet_core.drift.memory`).

When a ``record`` pushes a run out of the window, its profile is copied here with its
sketches dropped (the figures and top values are what the memory compares), and the
copies beyond the newest ``memory`` of the key are deleted. They are read back only when
a run has a finding to match, never for a stable run.
"""

from __future__ import annotations

from sqlalchemy import Connection, delete, insert, select

from faucet_core.db.schema import profile_memory, profile_runs
from faucet_core.errors import StoreCorruptError
from faucet_core.profile import TableProfile
from faucet_core.store.codec import decode_profile, encode_profile
from faucet_core.store.models import BaselineKey

__all__ = ["load_memory", "remember_leaving"]


def remember_leaving(
    conn: Connection, key: BaselineKey, baseline_id: int, window: int, memory: int
) -> None:
    """Copy the baseline runs past the newest ``window`` into the memory (once each), then
    keep only the newest ``memory`` copies of the key. A damaged run is not copied."""
    if memory <= 0:
        conn.execute(delete(profile_memory).where(profile_memory.c.baseline_id == baseline_id))
        return
    leaving = conn.execute(
        select(profile_runs.c.seq, profile_runs.c.recorded_at, profile_runs.c.profile)
        .where(profile_runs.c.baseline_id == baseline_id, profile_runs.c.in_baseline.is_(True))
        .order_by(profile_runs.c.seq.desc())
        .offset(window)
    ).all()
    if leaving:
        known: set[int] = set(
            conn.execute(
                select(profile_memory.c.seq).where(
                    profile_memory.c.baseline_id == baseline_id,
                    profile_memory.c.seq.in_([r.seq for r in leaving]),
                )
            ).scalars()
        )
        rows = []
        for r in leaving:
            if r.seq in known:
                continue
            try:
                prof = decode_profile(bytes(r.profile), f"{key} run {r.seq}", check_sketches=False)
            except (StoreCorruptError, TypeError):
                continue
            rows.append(
                {
                    "baseline_id": baseline_id,
                    "seq": r.seq,
                    "recorded_at": r.recorded_at,
                    "profile": encode_profile(prof, sketches=False),
                }
            )
        if rows:
            conn.execute(insert(profile_memory), rows)
    cutoff = conn.execute(
        select(profile_memory.c.seq)
        .where(profile_memory.c.baseline_id == baseline_id)
        .order_by(profile_memory.c.seq.desc())
        .offset(memory)
        .limit(1)
    ).scalar()
    if cutoff is not None:
        conn.execute(
            delete(profile_memory).where(
                profile_memory.c.baseline_id == baseline_id, profile_memory.c.seq <= cutoff
            )
        )


def load_memory(
    conn: Connection, key: BaselineKey, baseline_id: int, memory: int
) -> list[TableProfile]:
    """The newest ``memory`` remembered runs of the key, oldest first; a damaged copy is
    left out (it can only clear less)."""
    if memory <= 0:
        return []
    rows = conn.execute(
        select(profile_memory.c.seq, profile_memory.c.profile)
        .where(profile_memory.c.baseline_id == baseline_id)
        .order_by(profile_memory.c.seq.desc())
        .limit(memory)
    ).all()
    out: list[TableProfile] = []
    for r in reversed(rows):
        try:
            out.append(
                decode_profile(
                    bytes(r.profile), f"{key} remembered run {r.seq}", check_sketches=False
                )
            )
        except (StoreCorruptError, TypeError):
            continue
    return out
