"""Profiling the columns of a batch in threads gives the profile one thread gives, and a
large batch whose first values are already too many to count is profiled as one that is
counted."""

from __future__ import annotations

import datetime as dt
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

from faucet_core import ProfilingConfig
from faucet_core.errors import ProfilingInputError
from faucet_core.profile.profiler import THREADS_ENV, Profiler, default_threads

from .helpers import comparable

ROWS = 70_000  # two batches, the first of 65,536 rows


def _table(rows: int = ROWS) -> pa.Table:
    rng = np.random.default_rng(7)
    start = dt.datetime(2024, 1, 1)
    return pa.table(
        {
            "id": pa.array(np.arange(rows)),
            "few": pa.array(rng.integers(0, 30, rows)),
            "amount": pa.array(rng.lognormal(3, 1, rows), mask=rng.random(rows) < 0.02),
            "country": pa.array(np.array(["DE", "FR", "US", ""])[rng.integers(0, 4, rows)]),
            "ref": pa.array([f"r-{i * 7919 % 100_003}" for i in range(rows)]),
            "when": pa.array(
                [start + dt.timedelta(seconds=int(s)) for s in rng.integers(0, 10**7, rows)],
                pa.timestamp("us"),
            ),
            # 150 distinct values, the first 1,024 rows holding 101 of them
            "edge": pa.array(np.concatenate([np.arange(1024) % 101, np.arange(rows - 1024) % 150])),
            "day": pa.array(
                [start.date() + dt.timedelta(days=int(d)) for d in rng.integers(0, 90, rows)]
            ),
            "paid": pa.array(rng.random(rows) < 0.7),
        }
    )


def _everything(profiler: Profiler, data: Any) -> dict[str, Any]:
    profiler.add(data)
    out = profiler.finish().to_dict()
    for column in out["columns"]:
        column["sketches"].pop("kll")  # the quantile sketch compacts at random
        if column["numeric"] is not None:
            column["numeric"].pop("p50")
            column["numeric"].pop("p95")
    return out


@pytest.mark.parametrize("threads", [2, 4])
def test_threads_give_the_profile_one_thread_gives(threads: int) -> None:
    table = _table()
    one = _everything(Profiler(threads=1), table)
    assert _everything(Profiler(threads=threads), table) == one
    assert [c["name"] for c in one["columns"]] == table.column_names


def test_threads_with_python_value_columns_and_a_policy() -> None:
    pd = pytest.importorskip("pandas")
    df = _table().to_pandas()
    df["mixed"] = [1, "a", 2.5, None, {"k": 1}] * (len(df) // 5)  # profiled value by value
    df["email"] = [f"user{i % 500}@example.com" for i in range(len(df))]
    rule = {"label": "pii.email", "detectors": ["email"]}
    config = ProfilingConfig.model_validate({"policy": {"rules": [rule]}})
    assert isinstance(df, pd.DataFrame)
    one = _everything(Profiler(config, threads=1), df)
    assert _everything(Profiler(config, threads=2), df) == one
    email = next(c for c in one["columns"] if c["name"] == "email")
    assert email["classified"] == ["pii.email"]


def test_the_first_failing_column_is_reported() -> None:
    interval = pa.array([pa.scalar((1, 2, 3), pa.month_day_nano_interval())] * 10_000)
    table = pa.table({"ok": pa.array(np.arange(10_000)), "bad1": interval, "bad2": interval})
    for threads in (1, 2):
        with pytest.raises(ProfilingInputError, match="column 'bad1'"):
            Profiler(threads=threads).add(table)


def test_a_large_batch_too_varied_to_count_matches_counting_it() -> None:
    """Batches of 65,536 rows skip the value counts of a column whose first 1,024 values
    are more than categorical_max_distinct; batches of 4,096 rows never do."""
    table = _table()
    small = Profiler(threads=1)
    for batch in table.to_batches(max_chunksize=4096):
        small.add(batch)
    large = Profiler(threads=1)
    large.add(table)
    expected, got = small.finish(), large.finish()
    assert comparable(got, quantiles=False) == comparable(expected, quantiles=False)
    for name in table.column_names:
        assert got[name].sketches["hll"] == expected[name].sketches["hll"], name
    assert got["edge"].high_cardinality
    assert got["ref"].high_cardinality
    assert got["few"].top_values is not None
    assert got["day"].top_values is not None


def test_the_thread_count_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(THREADS_ENV, "1")
    assert default_threads() == 1
    assert Profiler().threads == 1
    monkeypatch.setenv(THREADS_ENV, "3")
    assert Profiler().threads == 3
    assert Profiler(threads=2).threads == 2
    monkeypatch.setenv(THREADS_ENV, "many")
    with pytest.raises(ProfilingInputError, match=THREADS_ENV):
        default_threads()
    monkeypatch.delenv(THREADS_ENV)
    assert 1 <= default_threads() <= 4


def test_busy_cpus_get_no_second_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default is one thread plus the CPUs the load average leaves idle (the load of a
    shared machine cannot be set from a test: its reading is replaced)."""
    monkeypatch.delenv(THREADS_ENV, raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    for load, threads in ((0.0, 2), (1.0, 2), (1.4, 2), (1.6, 1), (7.5, 1)):
        monkeypatch.setattr(os, "getloadavg", lambda load=load: (load, load, load))
        assert default_threads() == threads, load
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: set(range(16)), raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert default_threads() == 4


def test_profilers_in_several_threads_at_once() -> None:
    """Profilers of different sizes running at once share the pools without disturbing
    one another."""
    table = _table()
    one = _everything(Profiler(threads=1), table)
    with ThreadPoolExecutor(3) as callers:
        runs = [callers.submit(_everything, Profiler(threads=n), table) for n in (2, 3, 2)]
        assert [run.result() for run in runs] == [one, one, one]
