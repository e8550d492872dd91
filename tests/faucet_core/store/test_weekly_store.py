"""The store hands its runs' recorded times to the detector: a weekly series recorded
one run a day is judged against the same weekday (SQLite and PostgreSQL)."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from faucet_core import ProfilingConfig, TableProfile
from faucet_core.config import DriftMethod
from faucet_core.store import ProfileStore
from faucet_core.store.models import RunStatus
from tests.faucet_core.drift.builders import column, numeric, table

IQR = ProfilingConfig(method=DriftMethod.IQR)
MONDAY = dt.datetime(2025, 1, 6, 2, 0, tzinfo=dt.timezone.utc)


def _day(level: float) -> TableProfile:
    return table(column("x", rows=5000, distinct=4000, num=numeric(level, lo=0.0, hi=2000.0)))


def _level(day: int, rng: random.Random) -> float:
    return (600.0 if day % 7 == 6 else 1000.0) + rng.gauss(0.0, 8.0)  # Sundays at 60 %


@pytest.mark.parametrize(
    ("daily", "status"), [(True, RunStatus.STABLE), (False, RunStatus.DRIFTED)]
)
def test_a_normal_sunday_is_judged_against_sundays(
    store_url: str, daily: bool, status: RunStatus
) -> None:
    rng = random.Random(11)
    step = dt.timedelta(days=1 if daily else 7)  # weekly: every run on a Monday
    with ProfileStore(store_url) as store:
        for d in range(27):
            store.record("visits", _day(_level(d, rng)), IQR, recorded_at=MONDAY + d * step)
        sunday = store.record("visits", _day(_level(27, rng)), IQR, recorded_at=MONDAY + 27 * step)
    assert sunday.status is status
    assert [f.key for f in sunday.findings] == ([] if daily else ["x.mean"])
