"""The sensor on real Dagster runs: what is notified, to whom, in which shape, once."""

from __future__ import annotations

import json
import pathlib

import dagster as dg
import pytest

from faucet_core.notify import DriftNotification
from tests.faucet_core.notify.fake_http import (
    SLACK_API_PATH,
    SLACK_WEBHOOK_PATH,
    WEBHOOK_PATH,
)
from tests.faucet_core.notify.golden import assert_fixture
from tests.faucet_dagster.sensors.scenario import FINDINGS, Scenario, keys, normalized, reason

FIXTURES = pathlib.Path(__file__).parent / "fixtures"


def test_first_tick_starts_after_the_evaluations_already_there(scenario: Scenario):
    scenario.warm_up()
    scenario.drift()
    sensor = scenario.sensor()
    first = scenario.tick(sensor)
    assert reason(first) == (
        "started after check evaluation 4: drift found from now on is notified"
    )
    assert json.loads(first.cursor) == {
        "v": 1,
        "start": 4,
        "to": {"slack_webhook": {"checks": {}}},
    }
    assert reason(scenario.tick(sensor)) == "no new drift notifications"
    assert scenario.http.requests == []


def test_each_finding_goes_to_every_destination_once(scenario: Scenario):
    http = scenario.http
    sensor = scenario.sensor(
        [scenario.slack_webhook(), scenario.slack_bot(), scenario.webhook()],
        dagster_base_url="http://dagster.local:3000/",
    )
    scenario.tick(sensor)
    scenario.warm_up()
    assert reason(scenario.tick(sensor)) == "no new drift notifications"
    run = scenario.drift()
    result = scenario.tick(sensor)
    assert reason(result) == (
        "delivered 9 notification(s) (slack_bot 3, slack_webhook 3, webhook 3)"
    )
    for path in (SLACK_WEBHOOK_PATH, SLACK_API_PATH, WEBHOOK_PATH):
        assert keys(http.delivered(path)) == FINDINGS
    hook = http.delivered(WEBHOOK_PATH)
    assert [b["id"] for b in hook] == [f"{run.run_id}/orders/faucet_profile#{i}" for i in range(3)]
    assert {b["run_url"] for b in hook} == {f"http://dagster.local:3000/runs/{run.run_id}"}
    assert_fixture(FIXTURES / "webhook_region_new_value.json", normalized(hook[1]))
    for i, body in enumerate(http.delivered(SLACK_WEBHOOK_PATH)):
        assert_fixture(FIXTURES / f"slack_finding_{i}.json", normalized(body))
    bot = http.delivered(SLACK_API_PATH)
    assert [b["blocks"] for b in bot] == [b["blocks"] for b in http.delivered(SLACK_WEBHOOK_PATH)]
    assert {b["channel"] for b in bot} == {"#data-alerts"}
    # Nothing new: nothing sent again, on this tick or the next.
    before = len(http.requests)
    assert reason(scenario.tick(sensor)) == "no new drift notifications"
    assert reason(scenario.tick(sensor)) == "no new drift notifications"
    assert len(http.requests) == before


def test_a_second_drift_is_notified_and_the_first_is_not_repeated(instance, sqlite_url, http, feed):
    # Under fail a drifting run stays out of the baseline, so the same drift fails again.
    scenario = Scenario(instance=instance, store_url=sqlite_url, http=http, on_drift="fail")
    sensor = scenario.sensor([scenario.webhook()])
    scenario.tick(sensor)
    scenario.warm_up()
    first = scenario.drift(day=3)
    scenario.tick(sensor)
    second = scenario.drift(day=4)
    scenario.materialize(day=5)  # a stable day: nothing to notify
    result = scenario.tick(sensor)
    assert reason(result) == "delivered 3 notification(s) (webhook 3)"
    bodies = http.delivered(WEBHOOK_PATH)
    assert keys(bodies) == FINDINGS + FINDINGS
    assert [b["run_id"] for b in bodies] == [first.run_id] * 3 + [second.run_id] * 3
    progress = json.loads(result.cursor)["to"]["webhook"]["checks"]
    assert progress == {"orders:faucet_profile": {"after": 6}}


@pytest.mark.parametrize(
    ("on_drift", "severity", "sent"),
    [("warn", None, 0), ("notify", "WARN", 3), ("fail", "ERROR", 3)],
    ids=["warn", "notify", "fail"],
)
def test_on_drift_decides(instance, sqlite_url, http, feed, on_drift, severity, sent):
    scenario = Scenario(instance=instance, store_url=sqlite_url, http=http, on_drift=on_drift)
    sensor = scenario.sensor([scenario.webhook()])
    scenario.tick(sensor)
    scenario.warm_up()
    scenario.drift()
    scenario.tick(sensor)
    bodies = http.delivered(WEBHOOK_PATH)
    assert len(bodies) == sent
    assert {b["severity"] for b in bodies} == ({severity} if sent else set())
    assert {b["on_drift"] for b in bodies} == ({on_drift} if sent else set())


def test_group_by_evaluation_sends_one_message_per_evaluation(scenario: Scenario):
    sensor = scenario.sensor(
        [scenario.slack_webhook(), scenario.webhook()], group_by_evaluation=True
    )
    scenario.tick(sensor)
    scenario.warm_up()
    scenario.drift()
    assert reason(scenario.tick(sensor)) == (
        "delivered 2 notification(s) (slack_webhook 1, webhook 1)"
    )
    [slack] = scenario.http.delivered(SLACK_WEBHOOK_PATH)
    [hook] = scenario.http.delivered(WEBHOOK_PATH)
    assert keys([hook]) == FINDINGS
    assert slack["text"].splitlines()[0] == "Profile drift on orders: 3 finding(s)"
    assert_fixture(FIXTURES / "slack_grouped_evaluation.json", normalized(slack))


def test_classified_column_values_never_appear(scenario: Scenario):
    sensor = scenario.sensor([scenario.slack_webhook(), scenario.webhook()])
    scenario.tick(sensor)
    scenario.warm_up()
    scenario.drift()
    scenario.tick(sensor)
    hook = scenario.http.delivered(WEBHOOK_PATH)
    email = [f for b in hook for f in b["findings"] if f["column"] == "email"]
    assert [(f["metric"], f["classified"], f["value_key"]) for f in email] == [
        ("null_rate", True, None)
    ]
    region = [f for b in hook for f in b["findings"] if f["column"] == "region"]
    assert {f["classified"] for f in region} == {False}
    everything = json.dumps([r.body for r in scenario.http.requests])
    assert "@shop.example" not in everything
    assert "user" not in everything


def test_text_fn_and_blocks_fn(scenario: Scenario):
    seen: list[DriftNotification] = []

    def text(n: DriftNotification) -> str:
        seen.append(n)
        return f"{n.asset} {n.findings[0].finding.key} ({n.first_index + 1}/{n.total_findings})"

    def blocks(n: DriftNotification) -> list[dict]:
        return [{"type": "section", "text": {"type": "plain_text", "text": text(n)}}]

    sensor = scenario.sensor([scenario.slack_webhook()], text_fn=text, blocks_fn=blocks)
    scenario.tick(sensor)
    scenario.warm_up()
    scenario.drift()
    scenario.tick(sensor)
    bodies = scenario.http.delivered(SLACK_WEBHOOK_PATH)
    assert [b["text"] for b in bodies] == [
        "orders amount.null_rate (1/3)",
        "orders region.new_value (2/3)",
        "orders email.null_rate (3/3)",
    ]
    assert bodies[0]["blocks"][0]["text"]["text"] == "orders amount.null_rate (1/3)"
    assert all(isinstance(n, DriftNotification) for n in seen)


def test_evaluations_of_other_checks_are_ignored(scenario: Scenario):
    @dg.asset_check(asset="orders")
    def row_count_positive() -> dg.AssetCheckResult:
        return dg.AssetCheckResult(
            passed=False, metadata={"faucet/findings": dg.MetadataValue.json([])}
        )

    scenario.checks = [*scenario.checks, row_count_positive]
    sensor = scenario.sensor([scenario.webhook()])
    scenario.tick(sensor)
    scenario.warm_up()
    assert reason(scenario.tick(sensor)) == "no new drift notifications"
    assert scenario.http.requests == []


@pytest.mark.parametrize("on_drift", ["notify", "fail"])
def test_drift_found_in_the_assets_step_is_notified_the_same(
    instance, sqlite_url, http, feed, on_drift
):
    scenario = Scenario(
        instance=instance, store_url=sqlite_url, http=http, on_drift=on_drift, in_step=True
    )
    sensor = scenario.sensor([scenario.webhook()])
    scenario.tick(sensor)
    scenario.warm_up()
    drifted = scenario.drift()
    result = scenario.tick(sensor)
    assert reason(result) == "delivered 3 notification(s) (webhook 3)"
    bodies = http.delivered(WEBHOOK_PATH)
    assert keys(bodies) == FINDINGS
    assert {b["run_id"] for b in bodies} == {drifted.run_id}
    assert {b["severity"] for b in bodies} == {"WARN" if on_drift == "notify" else "ERROR"}
