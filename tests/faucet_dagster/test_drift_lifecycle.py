"""Day by day through real Dagster runs: warming up, stable, then drift under each on_drift."""

from __future__ import annotations

import dagster as dg
import pytest

from faucet_core.store import ProfileStore, RunStatus
from faucet_dagster import build_profile_checks
from tests.faucet_dagster.helpers import (
    Feed,
    evaluation,
    failures,
    finding_keys,
    materialize,
    materialized,
    meta,
    orders,
    report,
)

DRIFT_NULL_SHARE = 0.5


def _checks(on_drift: str) -> list[dg.AssetChecksDefinition]:
    return build_profile_checks([orders], config={"min_history": 3, "on_drift": on_drift})


def _warm_up(
    instance: dg.DagsterInstance, feed: Feed, url: str, checks: list, days: int = 3
) -> None:
    for day in range(days):
        feed.day = day
        result = materialize([orders, report, *checks], instance, url)
        assert result.success, failures(result)


RESET_HINT = (
    " This run stays out of the baseline (on_drift: fail), so the change fails again until "
    "accepted; if it is intended, re-baseline: faucet profiling reset --select orders"
)


def _description_matches_findings(
    ev: dg.AssetCheckEvaluation, rate: str, high: str, *, failing: bool = False
) -> None:
    """One line (the UI shows the description on one line), a short clause per finding;
    the full message stays in the findings metadata."""
    (finding,) = meta(ev, "faucet/findings")
    assert finding["message"].startswith(f"amount.null_rate: null_rate {rate} vs baseline mean ")
    assert ev.description == (
        f"Drift in 1 column against 3 baseline runs: amount null rate {rate} (expected at "
        f"most {high})." + (RESET_HINT if failing else "")
    )
    assert "\n" not in ev.description


def test_warming_then_stable(instance, feed, sqlite_url):
    checks = _checks("warn")
    for day in range(3):
        feed.day = day
        result = materialize([orders, report, *checks], instance, sqlite_url)
        assert result.success
        ev = evaluation(result)
        assert ev.passed is True
        assert ev.severity == dg.AssetCheckSeverity.WARN
        assert ev.description == (
            f"warming up: {day} of 3 run(s); drift detection starts at 3 baseline runs"
        )
        assert meta(ev, "faucet/status") == "warming"
        assert meta(ev, "faucet/warming") == f"warming up: {day} of 3 run(s)"
        assert meta(ev, "faucet/baseline_runs") == str(day)
        assert meta(ev, "faucet/findings") == []
    for day in (3, 4):
        feed.day = day
        result = materialize([orders, report, *checks], instance, sqlite_url)
        ev = evaluation(result)
        assert (ev.passed, ev.severity) == (True, dg.AssetCheckSeverity.WARN)
        assert ev.description == f"stable against {day} baseline run(s)"
        assert meta(ev, "faucet/status") == "stable"
        assert "faucet/warming" not in ev.metadata
        assert materialized(result) == ["orders", "report"]
    with ProfileStore(sqlite_url) as store:
        runs = store.history("orders")
        assert [r.status for r in runs] == [RunStatus.WARMING] * 3 + [RunStatus.STABLE] * 2
        assert store.baseline_depth("orders") == 5


@pytest.mark.parametrize("on_drift", ["warn", "notify"], ids=["warn", "notify"])
def test_drift_warns_and_the_run_succeeds(instance, feed, sqlite_url, on_drift):
    checks = _checks(on_drift)
    assert [spec.blocking for c in checks for spec in c.check_specs] == [False]
    _warm_up(instance, feed, sqlite_url, checks)
    feed.day, feed.null_share = 3, DRIFT_NULL_SHARE
    result = materialize([orders, report, *checks], instance, sqlite_url)

    assert result.success
    ev = evaluation(result)
    assert (ev.passed, ev.severity, ev.blocking) == (False, dg.AssetCheckSeverity.WARN, False)
    assert meta(ev, "faucet/status") == "drifted"
    assert meta(ev, "faucet/on_drift") == on_drift
    assert "amount.null_rate" in finding_keys(ev)
    assert meta(ev, "faucet/finding_count") == len(finding_keys(ev))
    _description_matches_findings(ev, "50.7%", "4.3%")
    assert materialized(result) == ["orders", "report"]
    with ProfileStore(sqlite_url) as store:
        assert store.baseline_depth("orders") == 4  # a warned drift joins the baseline


def test_drift_fails_blocks_downstream_and_stays_out_of_the_baseline(instance, feed, sqlite_url):
    checks = _checks("fail")
    assert [spec.blocking for c in checks for spec in c.check_specs] == [True]
    _warm_up(instance, feed, sqlite_url, checks)

    feed.day, feed.null_share = 3, DRIFT_NULL_SHARE
    result = materialize([orders, report, *checks], instance, sqlite_url)
    assert not result.success
    ev = evaluation(result)
    assert (ev.passed, ev.severity, ev.blocking) == (False, dg.AssetCheckSeverity.ERROR, True)
    assert "amount.null_rate" in finding_keys(ev)
    assert "1 blocking asset check failed with ERROR severity" in "\n".join(failures(result))
    _description_matches_findings(ev, "50.7%", "4.3%", failing=True)
    # The data stays written; the downstream asset of the same run is not materialized.
    assert materialized(result) == ["orders"]
    latest = instance.get_latest_materialization_event(dg.AssetKey("orders"))
    assert latest is not None
    assert latest.run_id == result.run_id
    assert instance.get_latest_materialization_event(dg.AssetKey("report")).run_id != result.run_id
    with ProfileStore(sqlite_url) as store:
        assert store.baseline_depth("orders") == 3
        last = store.latest("orders")
        assert last is not None
        assert (last.status, last.in_baseline) == (RunStatus.DRIFTED, False)

    # The anomaly was not learned: it fails again the next day.
    feed.day = 4
    again = materialize([orders, report, *checks], instance, sqlite_url)
    assert not again.success
    ev = evaluation(again)
    assert (ev.passed, ev.severity) == (False, dg.AssetCheckSeverity.ERROR)
    _description_matches_findings(ev, "47.2%", "4.3%", failing=True)
    assert materialized(again) == ["orders"]

    # A normal day passes against the clean baseline, and the downstream runs again.
    feed.day, feed.null_share = 5, 0.01
    normal = materialize([orders, report, *checks], instance, sqlite_url)
    assert normal.success
    assert evaluation(normal).description == "stable against 3 baseline run(s)"
    assert materialized(normal) == ["orders", "report"]
    with ProfileStore(sqlite_url) as store:
        assert store.baseline_depth("orders") == 4
