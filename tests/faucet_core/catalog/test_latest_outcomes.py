"""Catalog.latest_outcomes: each dataset's newest profile outcome in one query (the
console's datasets list), on SQLite and PostgreSQL; and the check-error times kept
beside the check-error counter."""

from __future__ import annotations

import datetime as dt

from faucet_core.catalog import Catalog, LatestOutcome
from faucet_core.store import ProfileStore
from faucet_core.store.metrics import check_error_times, count_check_error
from tests.faucet_core.catalog.builders import A, B, C, at
from tests.faucet_core.store.helpers import day

FINDING = {"column": "amount", "metric": "mean", "message": "amount.mean: moved"}


def test_the_newest_profile_of_each_dataset_without_its_profile(store_url: str) -> None:
    with Catalog(store_url) as catalog:
        for i, status in enumerate(("warming", "stable", "drifted")):
            catalog.record_profile(
                A,
                run_id=f"a{i}",
                profile=day(i, rows=50),
                status=status,
                findings=[FINDING] if status == "drifted" else [],
                recorded_at=at(i),
            )
        # B's newest run is the older time, recorded last: the time decides
        catalog.record_profile(B, run_id="b1", profile=day(1), status="stable", recorded_at=at(5))
        catalog.record_profile(B, run_id="b0", profile=day(0), status="warming", recorded_at=at(1))
        found = catalog.latest_outcomes()
    assert set(found) == {A.id, B.id}
    assert C.id not in found  # no profile
    assert found[A.id] == LatestOutcome("a2", at(2), "drifted", (FINDING,))
    assert (found[B.id].run_id, found[B.id].status, found[B.id].findings) == ("b1", "stable", ())


def test_check_error_times_are_the_newest_per_asset(store_url: str) -> None:
    with ProfileStore(store_url) as store:
        before = dt.datetime.now(dt.timezone.utc)
        count_check_error(store, "orders", "warn")
        count_check_error(store, "orders", "fail")
        times = check_error_times(store.metrics())
        after = dt.datetime.now(dt.timezone.utc)
    assert set(times) == {"orders"}
    assert before - dt.timedelta(seconds=1) <= times["orders"] <= after


def test_dataset_summaries_are_the_datasets_list_without_the_rest(store_url: str) -> None:
    from tests.faucet_core.catalog.builders import run, schema

    with Catalog(store_url) as catalog:
        catalog.record([run("r1", 1, owners=("ann", "bo"), out_schema=schema("id:integer"))])
        catalog.record([run("r2", 7, inputs=(B,), output=C)])
        catalog.record([run("r0", 3, owners=("ann",))])  # an older run of B, recorded later
        full = catalog.datasets()
        summaries = catalog.dataset_summaries()
    assert [s.uri for s in summaries] == [e.uri for e in full]  # sorted by URI, every one
    for s, e in zip(summaries, full, strict=True):
        assert (s.id, s.namespace, s.name, s.owners, s.last_run_at) == (
            e.id,
            e.namespace,
            e.name,
            e.owners,
            e.last_run_at,
        )
    by_id = {s.id: s for s in summaries}
    assert by_id[B.id].last_run_at == at(3)  # the newest of its two writes, by event time
    assert by_id[C.id].last_run_at == at(7)
    assert by_id[A.id].last_run_at is None  # read, never written
