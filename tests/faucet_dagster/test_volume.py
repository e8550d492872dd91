"""Volume through real Dagster runs: an empty delivery and a lost share of the rows are
findings on the table (``row_count``), in the check result, the store and the metrics."""

from __future__ import annotations

import dagster as dg

from faucet_core.store import ProfileStore, RunStatus
from faucet_dagster import build_profile_checks
from tests.faucet_dagster.helpers import (
    Feed,
    evaluation,
    failures,
    finding_keys,
    materialize,
    meta,
    orders,
    report,
)


def _checks(**config: object) -> list[dg.AssetChecksDefinition]:
    return build_profile_checks([orders], config={"min_history": 3, **config})


def _runs(instance: dg.DagsterInstance, feed: Feed, url: str, checks: list, days: int) -> None:
    for day in range(days):
        feed.day = day
        result = materialize([orders, report, *checks], instance, url)
        assert result.success, failures(result)


def test_an_empty_delivery_is_a_row_count_finding_even_while_warming_up(instance, feed, sqlite_url):
    checks = _checks()
    _runs(instance, feed, sqlite_url, checks, days=2)  # 2 of 3 runs: warming up
    feed.day, feed.rows = 2, 0
    result = materialize([orders, report, *checks], instance, sqlite_url)
    assert result.success, failures(result)  # warn: the run goes on
    ev = evaluation(result)
    assert not ev.passed
    assert ev.severity is dg.AssetCheckSeverity.WARN
    assert finding_keys(ev) == ["row_count"]
    (finding,) = meta(ev, "faucet/findings")
    assert finding["column"] == ""
    assert finding["message"] == (
        "row_count: the run wrote no records; each of 2 baseline runs wrote some (400 to 400)"
    )
    assert ev.description == (
        "Drift in the row count against 2 baseline runs: row count 0 (expected at least 400)."
    )
    with ProfileStore(sqlite_url) as store:
        (latest,) = store.history("orders", limit=1)
        assert latest.status is RunStatus.DRIFTED


def test_a_delivery_missing_forty_percent_of_its_rows_is_a_finding(instance, feed, sqlite_url):
    checks = _checks()
    _runs(instance, feed, sqlite_url, checks, days=5)
    feed.day, feed.rows = 5, 240
    ev = evaluation(materialize([orders, report, *checks], instance, sqlite_url))
    assert not ev.passed
    assert finding_keys(ev)[0] == "row_count"
    (finding, *_) = meta(ev, "faucet/findings")
    assert finding["metric"] == "row_count"
    assert finding["value"] == 240
    # a normal day afterwards is quiet again
    feed.day, feed.rows = 6, 400
    assert evaluation(materialize([orders, report, *checks], instance, sqlite_url)).passed


def test_blocking_on_an_empty_delivery(instance, feed, sqlite_url):
    checks = _checks(on_drift="fail")
    _runs(instance, feed, sqlite_url, checks, days=3)
    feed.day, feed.rows = 3, 0
    result = materialize([orders, report, *checks], instance, sqlite_url)
    assert not result.success  # ERROR on the blocking check stops the run
    ev = evaluation(result)
    assert ev.severity is dg.AssetCheckSeverity.ERROR
    assert finding_keys(ev) == ["row_count"]
