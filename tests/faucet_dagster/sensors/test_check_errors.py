"""A profile check that could not do its work is notified (``profile_check_error``), once:
real Dagster runs, a real SQLite store and a local HTTP receiver."""

from __future__ import annotations

from typing import Any

from faucet_dagster import build_profile_checks
from tests.faucet_core.notify.fake_http import SLACK_WEBHOOK_PATH, WEBHOOK_PATH
from tests.faucet_dagster.sensors.scenario import POLICY, Scenario, orders, reason

SECRET = "hunter2-very-secret"


def _broken(_context: Any) -> Any:
    raise ConnectionError(f"could not reach postgresql://etl:{SECRET}@warehouse:5432/sales")


def _break(scenario: Scenario) -> None:
    """From now on the check's loader fails (the asset itself still materializes)."""
    scenario.checks = build_profile_checks(
        [orders],
        config={"min_history": 3, "on_drift": scenario.on_drift, "policy": POLICY},
        loader=_broken,
    )


def test_a_check_that_could_not_check_is_notified_once(scenario: Scenario) -> None:
    http = scenario.http
    sensor = scenario.sensor(
        [scenario.slack_webhook(), scenario.webhook()], dagster_base_url="http://dagster.local"
    )
    scenario.tick(sensor)
    scenario.warm_up()
    _break(scenario)
    run = scenario.materialize(day=3)
    assert run.success  # under notify the run goes on: only the sensor tells anyone
    result = scenario.tick(sensor)
    assert reason(result) == "delivered 2 notification(s) (slack_webhook 1, webhook 1)"
    (body,) = http.delivered(WEBHOOK_PATH)
    assert body["kind"] == "profile_check_error"
    assert body["id"] == f"{run.run_id}/orders/faucet_profile#error"
    assert (body["findings"], body["total_findings"], body["severity"]) == ([], 0, "WARN")
    assert body["error"] == (
        "the faucet loader for orders failed: ConnectionError: could not reach "
        "postgresql://etl:***@warehouse:5432/sales. Fix the loader passed to build_profile_checks"
    )
    assert body["run_url"] == f"http://dagster.local/runs/{run.run_id}"
    (slack,) = http.delivered(SLACK_WEBHOOK_PATH)
    assert slack["text"].startswith("faucet could not check orders: the faucet loader for")
    assert slack["blocks"][0]["text"]["text"] == ":warning: Profile check error: orders"
    everything = str(http.requests) + str(result.cursor) + "\n".join(scenario.logs.messages())
    assert SECRET not in everything
    # Once: not again on the next ticks, and a good run after it notifies nothing.
    assert reason(scenario.tick(sensor)) == "no new drift notifications"
    scenario.checks = build_profile_checks(
        [orders], config={"min_history": 3, "on_drift": "notify", "policy": POLICY}
    )
    scenario.materialize(day=4)
    assert reason(scenario.tick(sensor)) == "no new drift notifications"
    assert len(http.delivered(WEBHOOK_PATH)) == 1


def test_check_errors_can_be_left_to_other_alerting(scenario: Scenario) -> None:
    sensor = scenario.sensor([scenario.webhook()], notify_check_errors=False)
    scenario.tick(sensor)
    scenario.warm_up()
    _break(scenario)
    scenario.materialize(day=3)
    assert reason(scenario.tick(sensor)) == "no new drift notifications"
    assert scenario.http.delivered(WEBHOOK_PATH) == []


def test_under_warn_a_check_error_is_not_notified(instance, sqlite_url, http, feed) -> None:  # type: ignore[no-untyped-def]
    scenario = Scenario(instance=instance, store_url=sqlite_url, http=http, on_drift="warn")
    sensor = scenario.sensor([scenario.webhook()])
    scenario.tick(sensor)
    _break(scenario)
    scenario.materialize(day=0)
    assert reason(scenario.tick(sensor)) == "no new drift notifications"
    assert http.delivered(WEBHOOK_PATH) == []


def test_under_fail_the_error_is_an_error(instance, sqlite_url, http, feed) -> None:  # type: ignore[no-untyped-def]
    scenario = Scenario(instance=instance, store_url=sqlite_url, http=http, on_drift="fail")
    sensor = scenario.sensor([scenario.webhook()])
    scenario.tick(sensor)
    _break(scenario)
    run = scenario.materialize(day=0)
    assert not run.success  # the blocking check failed the run
    scenario.tick(sensor)
    (body,) = http.delivered(WEBHOOK_PATH)
    assert (body["kind"], body["severity"], body["on_drift"]) == (
        "profile_check_error",
        "ERROR",
        "fail",
    )


def test_an_unreachable_store_is_notified_too(scenario: Scenario, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # The sensor reads the evaluation from Dagster, so the store being the fault does
    # not silence it.
    sensor = scenario.sensor([scenario.webhook()])
    scenario.tick(sensor)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the store's folder should be")
    scenario.store_url = f"sqlite:///{blocker}/faucet.db"
    scenario.materialize(day=0)
    assert reason(scenario.tick(sensor)) == "delivered 1 notification(s) (webhook 1)"
    (body,) = scenario.http.delivered(WEBHOOK_PATH)
    assert body["kind"] == "profile_check_error"
    assert "not-a-folder" in body["error"]


def test_a_text_fn_that_assumes_a_finding_falls_back_to_the_default(scenario: Scenario) -> None:
    import logging

    sensor = scenario.sensor(
        [scenario.webhook()], text_fn=lambda n: f"custom: {n.findings[0].finding.headline}"
    )
    scenario.tick(sensor)
    _break(scenario)
    scenario.materialize(day=0)
    scenario.tick(sensor)
    (body,) = scenario.http.delivered(WEBHOOK_PATH)
    assert body["text"].startswith("faucet could not check orders: ")
    errors = scenario.logs.messages(logging.ERROR)
    assert any(m.startswith("text_fn raised IndexError") for m in errors), errors
