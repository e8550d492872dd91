"""build_drift_notification_sensor: arguments checked when definitions are built."""

from __future__ import annotations

from typing import Any

import dagster as dg
import pytest

import faucet_dagster
from faucet_core.errors import NotifyError
from faucet_dagster import JsonWebhook, SlackBot, SlackWebhook, build_drift_notification_sensor
from faucet_dagster.notifications.sensor import DEFAULT_SENSOR_NAME

HOOK = SlackWebhook(url=dg.EnvVar("SLACK_WEBHOOK_URL"))


def test_public_names():
    for name in ("build_drift_notification_sensor", "SlackWebhook", "SlackBot", "JsonWebhook"):
        assert name in faucet_dagster.__all__


def test_defaults():
    sensor = build_drift_notification_sensor(destinations=[HOOK])
    assert sensor.name == DEFAULT_SENSOR_NAME
    assert sensor.default_status is dg.DefaultSensorStatus.STOPPED
    assert sensor.minimum_interval_seconds == 30
    assert sensor.description == (
        "faucet: notifies profile drift found by the faucet profile checks (slack_webhook), "
        "one message per finding"
    )
    grouped = build_drift_notification_sensor(
        destinations=HOOK,
        name="alerts",
        group_by_evaluation=True,
        default_status=dg.DefaultSensorStatus.RUNNING,
        minimum_interval_seconds=60,
    )
    assert (grouped.name, grouped.default_status) == ("alerts", dg.DefaultSensorStatus.RUNNING)
    assert grouped.description is not None
    assert grouped.description.endswith("check evaluation")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda: SlackWebhook(url="https://hooks.slack.com/services/x"),
            "SlackWebhook(url=...) must come from the environment, not from code: pass "
            "url=dg.EnvVar('SLACK_WEBHOOK_URL')",
        ),
        (
            lambda: SlackBot(token="xoxb-1", channel="#a"),
            "pass token=dg.EnvVar('SLACK_BOT_TOKEN')",
        ),
        (
            lambda: JsonWebhook(url="https://example.com/hook"),
            "pass url=dg.EnvVar('ALERTS_WEBHOOK_URL')",
        ),
        (lambda: SlackBot(token=dg.EnvVar("T"), channel=" "), "channel=' ') is empty"),
        (
            lambda: SlackBot(token=dg.EnvVar("T"), channel="#a", base_url="slack.com"),
            "base_url='slack.com') is not an http(s) URL",
        ),
        (
            lambda: SlackWebhook(url=dg.EnvVar("U"), name="my hook"),
            "name='my hook') is not a valid",
        ),
        (
            lambda: JsonWebhook(url=dg.EnvVar("U"), headers={"X-N": 1}),  # type: ignore[dict-item]
            "headers=...) maps header names to strings or dg.EnvVar; got 'X-N': int",
        ),
    ],
    ids=[
        "webhook-literal",
        "bot-literal",
        "json-literal",
        "channel",
        "base_url",
        "name",
        "headers",
    ],
)
def test_destination_errors(make, message):
    with pytest.raises(dg.DagsterInvalidDefinitionError) as info:
        make()
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"destinations": []}, "destinations is empty"),
        ({"destinations": ["https://x"]}, "destinations holds a str"),
        (
            {"destinations": [HOOK, SlackWebhook(url=dg.EnvVar("OTHER"))]},
            "destination name(s) 'slack_webhook' used more than once",
        ),
        ({"destinations": [HOOK], "name": "my sensor"}, "name='my sensor' is not a valid"),
        ({"destinations": [HOOK], "tick_budget_seconds": 90}, "at most 50, inside Dagster's 60 s"),
        ({"destinations": [HOOK], "tick_budget_seconds": 0}, "must be above 0"),
        ({"destinations": [HOOK], "minimum_interval_seconds": 0}, "whole number >= 1"),
        ({"destinations": [HOOK], "dagster_base_url": "localhost:3000"}, "not an http(s) URL"),
        ({"destinations": [HOOK], "text_fn": "hello"}, "text_fn='hello' is not callable"),
        (
            {"destinations": [HOOK], "probe_interval_seconds": -1},
            "probe_interval_seconds=-1 must be a number of seconds, 0 or more",
        ),
    ],
    ids=[
        "empty",
        "wrong-type",
        "duplicate",
        "name",
        "budget-high",
        "budget-zero",
        "interval",
        "base-url",
        "text_fn",
        "probe-interval",
    ],
)
def test_factory_errors(kwargs: dict[str, Any], message: str):
    with pytest.raises(dg.DagsterInvalidDefinitionError) as info:
        build_drift_notification_sensor(**kwargs)
    assert message in str(info.value)


def test_destination_repr_shows_no_secret(monkeypatch):
    monkeypatch.setenv("SLACK_WEBHOOK_URL", "https://hooks.slack.com/services/T/B/s3cr3t")
    assert "s3cr3t" not in repr(HOOK)
    channel = HOOK.resolve()
    assert "s3cr3t" not in repr(channel)
    assert channel.label == "'slack_webhook' (Slack webhook, URL from $SLACK_WEBHOOK_URL)"


def _defs(sensor: dg.SensorDefinition) -> dg.Definitions:
    @dg.asset
    def orders() -> int:
        return 1

    return dg.Definitions(assets=[orders], sensors=[sensor])


def test_an_unreadable_cursor_stops_the_tick_with_the_fix(monkeypatch):
    sensor = build_drift_notification_sensor(destinations=[HOOK])
    with dg.instance_for_test() as instance:
        context = dg.build_sensor_context(
            instance=instance, definitions=_defs(sensor), cursor="edited by hand"
        )
        with pytest.raises(NotifyError, match="clear it to notify evaluations from now on"):
            sensor(context)


def test_the_sensor_needs_its_definitions():
    sensor = build_drift_notification_sensor(destinations=[HOOK])
    with (
        dg.instance_for_test() as instance,
        pytest.raises(dg.DagsterInvariantViolationError, match="evaluate it from its Definitions"),
    ):
        sensor(dg.build_sensor_context(instance=instance))


def test_a_code_location_without_checks_starts_at_zero():
    sensor = build_drift_notification_sensor(destinations=[HOOK])
    with dg.instance_for_test() as instance:
        result = sensor(dg.build_sensor_context(instance=instance, definitions=_defs(sensor)))
        assert isinstance(result, dg.SensorResult)
        assert result.cursor == '{"start":0,"to":{"slack_webhook":{"checks":{}}},"v":1}'
