"""``dagster asset materialize`` in a subprocess runs the profile check of the selected asset."""

from __future__ import annotations

import dagster as dg

from faucet_core import ProfilingConfig, profile
from faucet_core.store import ProfileStore, RunStatus
from tests.faucet_dagster.locations.orders_location import MIN_HISTORY, orders_frame
from tests.faucet_dagster.processes import (
    DagsterHome,
    latest_evaluation,
    latest_step_failures,
    materialize_cli,
)


def test_materialize_runs_the_check_and_records_a_baseline_point(dagster_home: DagsterHome):
    done = materialize_cli(dagster_home)
    assert done.returncode == 0, done.stderr[-3000:]

    with ProfileStore(dagster_home.store_url) as store:
        runs = store.history("orders")
    assert [r.status for r in runs] == [RunStatus.WARMING]
    assert runs[0].row_count == 400
    with dagster_home.instance() as instance:
        evaluation = latest_evaluation(instance)
        assert (evaluation.passed, evaluation.severity) == (True, dg.AssetCheckSeverity.WARN)
        assert evaluation.description == (
            f"warming up: 0 of {MIN_HISTORY} run(s); "
            f"drift detection starts at {MIN_HISTORY} baseline runs"
        )
        assert evaluation.metadata["faucet/status"] == dg.MetadataValue.text("warming")
        materialization = instance.get_latest_materialization_event(dg.AssetKey("orders"))
        assert materialization is not None
        assert runs[0].run_id == materialization.run_id
        assert instance.get_latest_materialization_event(dg.AssetKey("report")) is None


def test_a_blocking_drift_fails_the_command(dagster_home: DagsterHome):
    config = ProfilingConfig(min_history=MIN_HISTORY, on_drift="fail")
    with ProfileStore(dagster_home.store_url) as store:
        for day in range(MIN_HISTORY):
            store.record("orders", profile(orders_frame(day, 0.01), config), config)

    done = materialize_cli(
        dagster_home,
        FAUCET_TEST_DAY=str(MIN_HISTORY),
        FAUCET_TEST_NULL_SHARE="0.5",
        FAUCET_TEST_ON_DRIFT="fail",
    )
    output = done.stdout + done.stderr
    assert done.returncode != 0, output[-3000:]

    with dagster_home.instance() as instance:
        # Dagster's own words: 1.10.21 and later count the checks, 1.10.19 and 1.10.20 name one
        failed = "\n".join(latest_step_failures(instance))
    assert any(
        words in failed
        for words in (
            "1 blocking asset check failed with ERROR severity",
            "Blocking check 'faucet_profile' for asset 'orders' failed with ERROR severity",
        )
    ), failed or output[-3000:]

    with dagster_home.instance() as instance:
        evaluation = latest_evaluation(instance)
        assert (evaluation.passed, evaluation.severity) == (False, dg.AssetCheckSeverity.ERROR)
        assert evaluation.metadata["faucet/status"] == dg.MetadataValue.text("drifted")
        # the data stays written
        assert instance.get_latest_materialization_event(dg.AssetKey("orders")) is not None
    with ProfileStore(dagster_home.store_url) as store:
        last = store.latest("orders")
        assert last is not None
        assert (last.status, last.in_baseline) == (RunStatus.DRIFTED, False)
        assert store.baseline_depth("orders") == MIN_HISTORY
