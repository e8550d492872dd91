"""A profile check with a damaged old run in its baseline still evaluates, and each run's
baseline point and catalog copy are committed together."""

from __future__ import annotations

from sqlalchemy import text

from faucet_core.catalog import Catalog
from faucet_core.store import ProfileStore
from faucet_dagster import build_profile_checks
from tests.faucet_dagster.helpers import evaluation, materialize, orders


def test_a_damaged_old_run_does_not_block_the_check(instance, feed, store_url) -> None:  # type: ignore[no-untyped-def]
    checks = build_profile_checks([orders], config={"min_history": 2, "window": 10})
    for day in range(3):
        feed.day = day
        result = materialize([orders, *checks], instance, store_url)
        assert result.success
    with ProfileStore(store_url) as store, store.engine.begin() as conn:
        conn.execute(text("UPDATE faucet_profile_runs SET profile = :b WHERE seq = 1"), {"b": b"x"})
    feed.day = 3
    result = materialize([orders, *checks], instance, store_url)
    assert result.success
    check = evaluation(result)
    assert check.passed
    with ProfileStore(store_url) as store:
        read = store.read_history("orders")
        assert [r.seq for r in read.runs] == [2, 3, 4]
        assert [s.seq for s in read.skipped] == [1]
    # Every recorded run has its catalog copy (written in the same transaction).
    with Catalog(store_url) as catalog:
        (dataset,) = [d for d in catalog.datasets() if d.name.endswith("orders")]
        copies = catalog.profiles(dataset.id)
    assert len(copies) == 4
