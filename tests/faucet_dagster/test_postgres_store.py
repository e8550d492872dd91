"""The checks on a shared PostgreSQL store (``FAUCET_TEST_POSTGRES_URL``)."""

from __future__ import annotations

import dagster as dg
import pytest

from faucet_core.store import ProfileStore, RunStatus
from faucet_dagster import build_profile_checks
from tests.faucet_dagster.helpers import (
    evaluation,
    failures,
    materialize,
    materialized,
    meta,
    orders,
    report,
)

pytestmark = pytest.mark.postgres


def test_checks_on_a_postgres_store(instance, feed, postgres_url):
    checks = build_profile_checks([orders], config={"min_history": 3, "on_drift": "fail"})
    for day in range(3):
        feed.day = day
        result = materialize([orders, report, *checks], instance, postgres_url)
        assert result.success, failures(result)
    assert evaluation(result).description == (
        "warming up: 2 of 3 run(s); drift detection starts at 3 baseline runs"
    )
    feed.day, feed.null_share = 3, 0.5
    result = materialize([orders, report, *checks], instance, postgres_url)
    assert not result.success
    ev = evaluation(result)
    assert (ev.passed, ev.severity) == (False, dg.AssetCheckSeverity.ERROR)
    assert meta(ev, "faucet/status") == "drifted"
    assert materialized(result) == ["orders"]

    # Re-running the check reports the recorded outcome and adds nothing.
    again = materialize(
        [orders, *checks], instance, postgres_url, selection=dg.AssetSelection.checks(*checks)
    )
    assert evaluation(again).description == ev.description
    with ProfileStore(postgres_url) as store:
        runs = store.history("orders")
        assert [r.status for r in runs] == [RunStatus.WARMING] * 3 + [RunStatus.DRIFTED]
        assert runs[-1].run_id == result.run_id
        assert store.baseline_depth("orders") == 3
