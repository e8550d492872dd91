"""Reading evaluations from the instance's event log: runs still in progress, evaluations
landing out of order, and a PostgreSQL event log."""

from __future__ import annotations

import json
import uuid

import dagster as dg
import pytest
from dagster._core.definitions.asset_checks.asset_check_evaluation import (
    AssetCheckEvaluation,
    AssetCheckEvaluationPlanned,
)
from dagster._core.events import DagsterEvent, DagsterEventType
from sqlalchemy.engine import make_url

from tests.faucet_core.notify.fake_http import WEBHOOK_PATH, FakeHttp
from tests.faucet_dagster.sensors.scenario import FINDINGS, Scenario, keys, reason

ORDERS = dg.AssetKey("orders")
CHECK = "faucet_profile"


class SlowRun:
    """A run of the profile check that is still going: its check is planned, not evaluated."""

    def __init__(self, instance: dg.DagsterInstance) -> None:
        self.instance = instance
        self.run = instance.add_run(
            dg.DagsterRun(
                job_name="slow_job", run_id=str(uuid.uuid4()), status=dg.DagsterRunStatus.STARTED
            )
        )
        self._report(
            DagsterEventType.ASSET_CHECK_EVALUATION_PLANNED,
            AssetCheckEvaluationPlanned(asset_key=ORDERS, check_name=CHECK),
        )

    def _report(self, kind: DagsterEventType, data: object) -> None:
        event = DagsterEvent(
            event_type_value=kind.value,
            job_name="slow_job",
            event_specific_data=data,  # type: ignore[arg-type]
        )
        self.instance.report_dagster_event(event, self.run.run_id)

    def evaluate_like(self, evaluation: dg.AssetCheckEvaluation) -> None:
        """Finish the check with the same outcome as ``evaluation`` (a real drift)."""
        self._report(
            DagsterEventType.ASSET_CHECK_EVALUATION,
            AssetCheckEvaluation(
                asset_key=ORDERS,
                check_name=CHECK,
                passed=evaluation.passed,
                metadata=evaluation.metadata,
                severity=evaluation.severity,
            ),
        )

    def fail(self) -> None:
        run = self.instance.get_run_by_id(self.run.run_id)
        assert run is not None
        self.instance.report_run_failed(run)


def test_a_run_in_progress_holds_the_cursor_but_not_later_drift(scenario: Scenario):
    sensor = scenario.sensor([scenario.webhook()])
    scenario.tick(sensor)
    scenario.warm_up()
    slow = SlowRun(scenario.instance)  # planned as evaluation 4
    drift = scenario.drift()  # evaluation 5 completes first
    assert reason(scenario.tick(sensor)) == "delivered 3 notification(s) (webhook 3)"
    progress = json.loads(scenario.cursor)["to"]["webhook"]["checks"]["orders:faucet_profile"]
    assert progress == {"after": 3, "done": [5]}
    assert reason(scenario.tick(sensor)) == "no new drift notifications"

    [evaluation] = drift.get_asset_check_evaluations()
    slow.evaluate_like(evaluation)  # the slow run's check finally drifts too
    assert reason(scenario.tick(sensor)) == "delivered 3 notification(s) (webhook 3)"
    bodies = scenario.http.delivered(WEBHOOK_PATH)
    assert keys(bodies) == FINDINGS + FINDINGS
    assert [b["run_id"] for b in bodies] == [drift.run_id] * 3 + [slow.run.run_id] * 3
    progress = json.loads(scenario.cursor)["to"]["webhook"]["checks"]["orders:faucet_profile"]
    assert progress == {"after": 5}


def test_a_run_that_ended_without_evaluating_is_passed_over(scenario: Scenario):
    sensor = scenario.sensor([scenario.webhook()])
    scenario.tick(sensor)
    scenario.warm_up()
    slow = SlowRun(scenario.instance)
    scenario.drift()
    scenario.tick(sensor)
    slow.fail()
    assert reason(scenario.tick(sensor)) == "no new drift notifications"
    progress = json.loads(scenario.cursor)["to"]["webhook"]["checks"]["orders:faucet_profile"]
    assert progress == {"after": 5}
    assert len(scenario.http.delivered(WEBHOOK_PATH)) == 3


def test_a_run_stuck_past_the_pending_timeout_stops_holding_the_cursor(scenario: Scenario):
    sensor = scenario.sensor([scenario.webhook()], pending_timeout_seconds=0.0)
    scenario.tick(sensor)
    scenario.warm_up()
    slow = SlowRun(scenario.instance)
    scenario.drift()
    scenario.tick(sensor)
    progress = json.loads(scenario.cursor)["to"]["webhook"]["checks"]["orders:faucet_profile"]
    assert progress == {"after": 5}
    [warning] = scenario.logs.messages(30)
    assert f"orders:faucet_profile: run {slow.run.run_id} has been running for" in warning


# -- PostgreSQL event log -----------------------------------------------------------------


@pytest.fixture
def postgres_storage(postgres_url: str) -> dict[str, object]:
    pytest.importorskip(
        "dagster_postgres",
        reason="needs dagster-postgres (`make install` adds it without its dagster==1.13.27 pin)",
    )
    # dagster-postgres binds parameters the psycopg2 way (NOTIFY run_events, %s)
    url = make_url(postgres_url).set(drivername="postgresql+psycopg2")
    return {"storage": {"postgres": {"postgres_url": url.render_as_string(hide_password=False)}}}


@pytest.mark.postgres
def test_postgres_event_log(postgres_storage, sqlite_url, http: FakeHttp, feed):
    with dg.instance_for_test(overrides=postgres_storage) as instance:
        assert type(instance.event_log_storage).__name__ == "PostgresEventLogStorage"
        scenario = Scenario(instance=instance, store_url=sqlite_url, http=http)
        sensor = scenario.sensor([scenario.webhook()])
        scenario.tick(sensor)
        scenario.warm_up()
        slow = SlowRun(instance)
        drift = scenario.drift()
        assert reason(scenario.tick(sensor)) == "delivered 3 notification(s) (webhook 3)"
        slow.evaluate_like(drift.get_asset_check_evaluations()[0])
        assert reason(scenario.tick(sensor)) == "delivered 3 notification(s) (webhook 3)"
        saved = scenario.cursor
    # The daemon restarts: a new instance on the same database, the cursor carried over.
    with dg.instance_for_test(overrides=postgres_storage) as instance:
        scenario = Scenario(instance=instance, store_url=sqlite_url, http=http, cursor=saved)
        assert reason(scenario.tick(scenario.sensor([scenario.webhook()]))) == (
            "no new drift notifications"
        )
    assert keys(http.delivered(WEBHOOK_PATH)) == FINDINGS + FINDINGS
