"""A materialization is profiled once: re-running only the check reports, it does not re-record."""

from __future__ import annotations

from collections.abc import Callable

import dagster as dg
import pytest

from faucet_core.store import ProfileStore
from faucet_dagster import FaucetResource, build_profile_checks
from tests.faucet_dagster.helpers import (
    Feed,
    evaluation,
    failures,
    materialize,
    materialized,
    meta,
    orders,
)

CheckOnly = Callable[
    [list[dg.AssetChecksDefinition], dg.DagsterInstance, str], dg.ExecuteInProcessResult
]


def _with_materialize(checks, instance, url):  # type: ignore[no-untyped-def]
    return materialize(
        [orders, *checks], instance, url, selection=dg.AssetSelection.checks(*checks)
    )


def _with_job_subset(checks, instance, url):  # type: ignore[no-untyped-def]
    defs = dg.Definitions(
        assets=[orders], asset_checks=checks, resources={"faucet": FaucetResource(store_url=url)}
    )
    keys = {key for c in checks for key in c.check_keys}
    job = defs.resolve_implicit_global_asset_job_def()
    subset = job.get_subset(asset_selection=set(), asset_check_selection=keys)
    return subset.execute_in_process(instance=instance, raise_on_error=False)


CHECK_ONLY = [
    pytest.param(_with_materialize, id="materialize-selection"),
    pytest.param(_with_job_subset, id="job-subset"),
]


@pytest.mark.parametrize("check_only", CHECK_ONLY)
def test_rerunning_the_check_adds_no_baseline_point(instance, feed, sqlite_url, check_only):
    checks = build_profile_checks([orders], config={"min_history": 3})
    for day in range(2):
        feed.day = day
        assert materialize([orders, *checks], instance, sqlite_url).success
    with ProfileStore(sqlite_url) as store:
        before = store.history("orders")

    result = check_only(checks, instance, sqlite_url)
    assert result.success, failures(result)
    assert materialized(result) == []
    ev = evaluation(result)
    assert ev.passed is True
    assert ev.description == "warming up: 1 of 3 run(s); drift detection starts at 3 baseline runs"
    assert meta(ev, "faucet/baseline_runs") == "1"  # text: the UI plots numbers
    with ProfileStore(sqlite_url) as store:
        after = store.history("orders")
    assert [(r.seq, r.run_id) for r in after] == [(r.seq, r.run_id) for r in before]


def test_rerunning_a_failed_check_fails_the_same_way(instance, feed: Feed, sqlite_url):
    checks = build_profile_checks([orders], config={"min_history": 3, "on_drift": "fail"})
    for day in range(3):
        feed.day = day
        assert materialize([orders, *checks], instance, sqlite_url).success
    feed.day, feed.null_share = 3, 0.5
    drifted = materialize([orders, *checks], instance, sqlite_url)
    assert not drifted.success
    first = evaluation(drifted)

    again = _with_materialize(checks, instance, sqlite_url)
    assert not again.success
    second = evaluation(again)
    assert (second.passed, second.severity) == (False, dg.AssetCheckSeverity.ERROR)
    assert second.description == first.description
    assert meta(second, "faucet/findings") == meta(first, "faucet/findings")
    with ProfileStore(sqlite_url) as store:
        assert len(store.history("orders")) == 4
        assert store.baseline_depth("orders") == 3


def test_the_check_of_a_later_run_profiles_the_new_materialization(instance, feed, sqlite_url):
    """A check-only run after a newer materialization records that one (once)."""
    checks = build_profile_checks([orders], config={"min_history": 3})
    assert materialize([orders, *checks], instance, sqlite_url).success
    feed.day = 1
    # Materialize without the check: nothing is recorded yet.
    assert materialize([orders], instance, sqlite_url).success
    with ProfileStore(sqlite_url) as store:
        assert len(store.history("orders")) == 1
    for _ in range(2):
        result = _with_materialize(checks, instance, sqlite_url)
        assert evaluation(result).description == (
            "warming up: 1 of 3 run(s); drift detection starts at 3 baseline runs"
        )
    latest = instance.get_latest_materialization_event(dg.AssetKey("orders"))
    with ProfileStore(sqlite_url) as store:
        runs = store.history("orders")
    assert len(runs) == 2
    assert latest is not None
    assert runs[-1].run_id == latest.run_id
