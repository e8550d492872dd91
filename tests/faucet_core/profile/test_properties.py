"""Property-based proof for issue 11: any input of a documented type is profiled (or
refused with our documented error), its profile is sound, and it round-trips through
``to_dict``/``from_dict``, strict JSON and a real SQLite ``ProfileStore``; the pandas
conversions that once crashed the process run in a child process."""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import subprocess
import sys
import uuid
from fractions import Fraction
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from faucet_core import FaucetError, ProfilingConfig, ProfilingInputError, TableProfile, profile
from faucet_core.profile.isotext import epoch_text
from faucet_core.profile.state import batch_moments, combine_moments
from faucet_core.store import ProfileStore
from tests.faucet_core.profile.strategies import (
    arrow_tables,
    assert_sound,
    polars_frames,
    python_values,
    records,
)

ROOT = Path(__file__).resolve().parents[3]
BOUNDED = settings(
    max_examples=25,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


class Opaque:
    """A value with no JSON type."""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Any:
    url = f"sqlite:///{tmp_path_factory.mktemp('props') / 'faucet.db'}"
    with ProfileStore(url) as opened:
        yield opened


def round_trips(prof: TableProfile, store: ProfileStore) -> None:
    data = prof.to_dict()
    text = prof.to_json()
    json.loads(text, parse_constant=lambda token: pytest.fail(f"non-JSON token {token}"))
    assert TableProfile.from_dict(data).to_dict() == data
    assert TableProfile.from_json(text).to_dict() == data
    key = f"prop-{uuid.uuid4().hex}"
    store.record(key, prof, ProfilingConfig())
    (run,) = store.history(key)
    assert run.profile.to_dict() == data


@BOUNDED
@given(records)
def test_records_are_profiled_soundly_and_round_trip(
    store: ProfileStore, records: list[dict[str, Any]]
) -> None:
    prof = profile(records)
    assert_sound(prof, len(records))
    round_trips(prof, store)


@BOUNDED
@given(st.lists(python_values, max_size=12), st.integers(min_value=0, max_value=11))
def test_a_value_without_a_json_type_is_our_error(values: list[Any], at: int) -> None:
    records = [{"b": v} for v in values]
    bad = [*records[:at], {"b": Opaque()}, *records[at:]]
    with pytest.raises(ProfilingInputError) as caught:
        profile(bad)
    assert str(caught.value).startswith("column 'b': a value of type ")


@BOUNDED
@given(arrow_tables())
def test_arrow_tables_are_profiled_soundly_and_round_trip(
    store: ProfileStore, table: pa.Table
) -> None:
    prof = profile(table)
    assert_sound(prof, table.num_rows)
    assert "out of range" not in prof.to_json()
    round_trips(prof, store)
    batches = profile(iter(table.to_batches(max_chunksize=3)) if table.num_rows else table)
    assert batches.to_dict(sketches=False)["row_count"] == table.num_rows


@BOUNDED
@given(polars_frames())
def test_polars_frames_are_profiled_soundly_and_round_trip(store: ProfileStore, frame: Any) -> None:
    try:
        prof = profile(frame)
    except FaucetError:  # a documented refusal is fine; anything else fails the test
        return
    assert_sound(prof, frame.height)
    round_trips(prof, store)


@BOUNDED
@given(st.lists(python_values, max_size=10))
def test_a_list_column_profiles_the_same_in_one_batch_or_one_value_at_a_time(
    values: list[Any],
) -> None:
    whole = profile([{"v": v} for v in values])
    parts = [profile([{"v": v}]) for v in values]
    if not parts:
        return
    merged = parts[0]
    for part in parts[1:]:
        merged = merged.merge(part)
    assert merged["v"].types == whole["v"].types
    assert merged["v"].null_count == whole["v"].null_count


def test_pandas_frames_in_a_child_process() -> None:
    """The child runs its own bounded hypothesis loop over pandas frames (object columns
    of numpy scalars and nested values included); a crash shows as a signal here."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.faucet_core.profile.pandas_props"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, (done.returncode, done.stdout[-3000:], done.stderr[-3000:])
    assert done.stdout.startswith("ok: ")


# -- the arithmetic behind the robust statistics --------------------------------------------
finite = st.floats(allow_nan=False, allow_infinity=False)


def exact(values: list[float]) -> tuple[Fraction, Fraction]:
    xs = [Fraction(v) for v in values]
    mean = sum(xs, Fraction(0)) / len(xs)
    return mean, sum(((x - mean) ** 2 for x in xs), Fraction(0)) / len(xs)


def close(value: float, target: Fraction, scale: float) -> bool:
    """Within a relative 1e-9 of ``target`` or of the data's magnitude, or one float step of
    that magnitude (the mean of 0 and 5e-324 is no float)."""
    slack = Fraction(1e-9) * (abs(target) + Fraction(scale)) + Fraction(math.ulp(scale))
    return abs(Fraction(value) - target) <= slack


@settings(max_examples=200, deadline=None, database=None)
@given(st.lists(finite, min_size=1, max_size=20), st.lists(finite, min_size=1, max_size=20))
@example(a=[0.0], b=[5e-324])  # the mean and spread of the smallest floats are no floats
def test_moments_are_finite_and_right_for_any_finite_data(a: list[float], b: list[float]) -> None:
    import numpy as np

    mean_a, sd_a = batch_moments(np.array(a), max(abs(v) for v in a))
    mean_b, sd_b = batch_moments(np.array(b), max(abs(v) for v in b))
    mean, sd = combine_moments(len(a), mean_a, sd_a, len(b), mean_b, sd_b)
    assert math.isfinite(mean)
    assert math.isfinite(sd)
    true_mean, true_var = exact(a + b)
    magnitude = max(abs(v) for v in a + b)
    assert close(mean, true_mean, magnitude)
    # in exact rationals: the variance of data near the float limit is no float, and a
    # standard deviation among the smallest floats is off by up to a float step
    step = Fraction(math.ulp(magnitude))
    assert abs(Fraction(sd) ** 2 - true_var) <= Fraction(1e-9) * (
        true_var + Fraction(magnitude) ** 2
    ) + step * (2 * Fraction(sd) + step)


@settings(max_examples=300, deadline=None, database=None)
@given(
    st.integers(min_value=-(2**63), max_value=2**63 - 1), st.sampled_from(["s", "ms", "us", "ns"])
)
def test_epoch_text_matches_arrow_and_python_where_they_can_render(value: int, unit: str) -> None:
    text = epoch_text(value, unit)
    arrow = pc.cast(pa.array([value], pa.timestamp(unit)), pa.string())[0].as_py()
    if not arrow.startswith("<"):
        year = int(arrow[: arrow.index("-", 1)])
        if 1 <= year <= 9999:
            assert text == arrow
    per_second = {"s": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}[unit]
    try:
        python = dt.datetime(1970, 1, 1) + dt.timedelta(microseconds=value * 10**6 // per_second)
    except OverflowError:
        return
    assert text.startswith(python.isoformat(sep=" ")[:19])
