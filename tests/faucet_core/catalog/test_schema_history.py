"""The catalog's schema history: each column a profiled run added, dropped or retyped,
dated by that run, per partition, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from faucet_core import ProfilingConfig, profile
from faucet_core.catalog import Catalog
from tests.faucet_core.catalog.builders import B, at


@pytest.fixture
def catalog(store_url: str):  # type: ignore[no-untyped-def]
    with Catalog(store_url) as cat:
        yield cat


def _profile(**columns: list[object]):  # type: ignore[no-untyped-def]
    rows = [
        dict(zip(columns, values, strict=True)) for values in zip(*columns.values(), strict=True)
    ]
    return profile(rows, ProfilingConfig())


def test_each_change_is_dated_by_the_run_that_shipped_it(catalog: Catalog) -> None:
    ids = list(range(10))
    runs = [
        ("r0", _profile(id=ids, email=["a@x"] * 10)),
        ("r1", _profile(id=ids, email=["a@x"] * 10)),  # no change
        ("r2", _profile(id=ids)),  # email dropped
        ("r3", _profile(id=[str(i) for i in ids], tier=["gold"] * 10)),  # retyped, added
    ]
    for minute, (run_id, prof) in enumerate(runs):
        catalog.record_profile(
            B, run_id=run_id, profile=prof, status="stable", recorded_at=at(minute)
        )
    # Recording r3 again (a retried check) replaces its rows, it does not add more.
    catalog.record_profile(B, run_id="r3", profile=runs[3][1], status="stable", recorded_at=at(3))
    history = catalog.detail(B.uri).schema_history
    assert [(c.run_id, c.changed_at, c.column, c.change, c.before, c.after) for c in history] == [
        ("r2", at(2), "email", "dropped", ("string",), ()),
        ("r3", at(3), "tier", "added", (), ("string",)),
        ("r3", at(3), "id", "types", ("integer",), ("string",)),
    ]


def test_partitions_are_compared_with_their_own_previous_run(catalog: Catalog) -> None:
    eu, us = _profile(id=[1, 2], region=["eu", "eu"]), _profile(id=[1, 2])
    catalog.record_profile(
        B, run_id="a", profile=eu, status="stable", partition="eu", recorded_at=at(0)
    )
    catalog.record_profile(
        B, run_id="b", profile=us, status="stable", partition="us", recorded_at=at(1)
    )
    catalog.record_profile(
        B, run_id="c", profile=eu, status="stable", partition="eu", recorded_at=at(2)
    )
    assert catalog.detail(B.uri).schema_history == ()
