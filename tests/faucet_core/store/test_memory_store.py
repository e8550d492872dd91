"""The store keeps the runs that leave the window, without their sketches, as the
detector's memory (SQLite and PostgreSQL): a windy day that two older days matched is
stable; the memory is bounded by ``memory`` and goes with a reset."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pyarrow as pa
from sqlalchemy import create_engine, func, select, update

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.db.schema import profile_memory
from faucet_core.store import ProfileStore
from faucet_core.store.codec import decode_profile
from faucet_core.store.models import RunStatus

START = dt.datetime(2025, 1, 6, 2, 0, tzinfo=dt.timezone.utc)
CONFIG = ProfilingConfig(window=10, memory=15)


def _day(seed: int, wind: float = 10.0) -> TableProfile:
    speeds = np.random.default_rng(seed).normal(wind, 2.0, 24).round(1).tolist()
    return profile(pa.table({"wind": speeds}))


def _remembered(url: str) -> tuple[int, int]:
    """(rows in the memory table, rows holding a sketch)."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(profile_memory.c.profile)).scalars().all()
            count = conn.execute(select(func.count()).select_from(profile_memory)).scalar()
    finally:
        engine.dispose()
    sketched = sum(
        1
        for blob in rows
        if any(c.sketches for c in decode_profile(bytes(blob), "memory").columns.values())
    )
    return int(count or 0), sketched


def _record(store: ProfileStore, seq: int, day: TableProfile, config: ProfilingConfig = CONFIG):
    return store.record("weather", day, config, recorded_at=START + dt.timedelta(days=seq))


def test_a_windy_day_two_remembered_days_matched_is_stable(store_url: str) -> None:
    with ProfileStore(store_url) as store:
        seq = 0
        for windy in (True, True):  # two windy days, each followed by a calm window
            out = _record(store, seq, _day(seq, 85.0 if windy else 10.0))
            seq += 1
            for _ in range(CONFIG.window):
                _record(store, seq, _day(seq))
                seq += 1
        # both windy days have left the window now
        out = _record(store, seq, _day(seq, 80.0))
    assert out.status is RunStatus.STABLE, [f.message for f in out.findings]


def test_without_memory_the_same_day_is_a_finding(store_url: str) -> None:
    config = ProfilingConfig(window=10, memory=0)
    with ProfileStore(store_url) as store:
        seq = 0
        for _ in range(2):
            _record(store, seq, _day(seq, 85.0), config)
            seq += 1
            for _ in range(config.window):
                _record(store, seq, _day(seq), config)
                seq += 1
        out = _record(store, seq, _day(seq, 80.0), config)
    assert out.status is RunStatus.DRIFTED
    assert [f.key for f in out.findings] == ["wind.mean"]
    assert _remembered(store_url) == (0, 0)


def test_the_memory_is_bounded_keeps_no_sketch_and_goes_with_a_reset(store_url: str) -> None:
    with ProfileStore(store_url) as store:
        for seq in range(40):
            _record(store, seq, _day(seq))
        assert _remembered(store_url) == (CONFIG.memory, 0)
        store.reset("weather")
        assert _remembered(store_url) == (0, 0)


def test_a_damaged_remembered_run_is_left_out_and_loses_nothing(store_url: str) -> None:
    """A remembered run that cannot be decoded only clears less: the record goes through
    and the run's finding stands."""
    with ProfileStore(store_url) as store:
        seq = 0
        for _ in range(2):
            _record(store, seq, _day(seq, 85.0))
            seq += 1
            for _ in range(CONFIG.window):
                _record(store, seq, _day(seq))
                seq += 1
        engine = create_engine(store_url)
        try:
            with engine.begin() as conn:
                conn.execute(update(profile_memory).values(profile=b"not a profile"))
        finally:
            engine.dispose()
        out = _record(store, seq, _day(seq, 80.0))
        after = store.record(
            "weather", _day(seq + 1), CONFIG, recorded_at=START + dt.timedelta(days=seq + 1)
        )
    assert out.status is RunStatus.DRIFTED
    assert [f.key for f in out.findings] == ["wind.mean"]
    assert after.status is RunStatus.STABLE
