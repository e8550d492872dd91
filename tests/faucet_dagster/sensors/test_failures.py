"""Outages, rate limits, broken destinations and restarts: never dropped, never repeated."""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import Callable
from typing import Any

import dagster as dg
import pytest

from faucet_core.notify import RetryPolicy
from tests.faucet_core.notify.fake_http import (
    BOT_TOKEN,
    SLACK_API_PATH,
    SLACK_WEBHOOK_PATH,
    WEBHOOK_PATH,
    Reply,
)
from tests.faucet_dagster.sensors.scenario import (
    BOT_TOKEN_VAR,
    FINDINGS,
    HOOK_URL_VAR,
    SLACK_URL_VAR,
    Scenario,
    keys,
    reason,
)

QUICK = RetryPolicy(max_attempts=3, initial_backoff=0.01, max_backoff=0.05)


def _dead_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _ready(scenario: Scenario, sensor: dg.SensorDefinition) -> None:
    """First tick (the start), three normal days, then a drifting day with 3 findings."""
    scenario.tick(sensor)
    scenario.warm_up()
    scenario.drift()


@pytest.mark.parametrize("outage", ["http-503", "connection-refused"], ids=str)
def test_outage_then_recovery(scenario: Scenario, monkeypatch, outage):
    http = scenario.http
    sensor = scenario.sensor([scenario.slack_webhook(), scenario.webhook()], retry=QUICK)
    _ready(scenario, sensor)
    if outage == "http-503":
        http.outage(SLACK_WEBHOOK_PATH, Reply(503, "service_unavailable"))
    else:
        monkeypatch.setenv(SLACK_URL_VAR, f"http://127.0.0.1:{_dead_port()}{SLACK_WEBHOOK_PATH}")
    assert reason(scenario.tick(sensor)) == (
        "delivered 3 notification(s) (slack_webhook 0, webhook 3); waiting: slack_webhook"
    )
    assert reason(scenario.tick(sensor)) == "no new drift notifications; waiting: slack_webhook"
    assert http.delivered(SLACK_WEBHOOK_PATH) == []
    assert keys(http.delivered(WEBHOOK_PATH)) == FINDINGS
    if outage == "http-503":
        # one message, three attempts per tick: no retry storm
        assert len(http.received(SLACK_WEBHOOK_PATH)) == 6
    warnings = scenario.logs.messages(logging.WARNING)
    assert len(warnings) == 2
    assert warnings[0].startswith(
        "'slack_webhook' (Slack webhook, URL from "
        f"${SLACK_URL_VAR}): not delivered after 3 attempt(s) ("
    )
    # three quiet days settled (ids 1-3), the drifting evaluation (4) still owed to Slack
    assert json.loads(scenario.cursor)["to"]["slack_webhook"]["checks"] == {
        "orders:faucet_profile": {"after": 3}
    }

    http.outage(SLACK_WEBHOOK_PATH, None)
    monkeypatch.setenv(SLACK_URL_VAR, http.url(SLACK_WEBHOOK_PATH))
    assert reason(scenario.tick(sensor)) == (
        "delivered 3 notification(s) (slack_webhook 3, webhook 0)"
    )
    assert keys(http.delivered(SLACK_WEBHOOK_PATH)) == FINDINGS
    assert keys(http.delivered(WEBHOOK_PATH)) == FINDINGS  # not sent twice
    assert reason(scenario.tick(sensor)) == "no new drift notifications"


def test_429_is_retried_after_retry_after_within_the_tick(scenario: Scenario):
    http = scenario.http
    sensor = scenario.sensor([scenario.slack_bot()], retry=QUICK)
    _ready(scenario, sensor)
    http.script(
        SLACK_API_PATH,
        Reply(200, {"ok": True, "channel": "C1", "ts": "1.1"}),
        Reply(429, {"ok": False, "error": "ratelimited"}, {"Retry-After": "1"}),
    )
    assert reason(scenario.tick(sensor)) == "delivered 3 notification(s) (slack_bot 3)"
    assert [r.status for r in http.received(SLACK_API_PATH)] == [200, 429, 200, 200]
    assert keys(http.delivered(SLACK_API_PATH)) == FINDINGS


def test_retry_after_beyond_the_tick_waits_in_the_cursor(scenario: Scenario):
    http = scenario.http
    sensor = scenario.sensor([scenario.slack_webhook()], retry=QUICK)
    _ready(scenario, sensor)
    http.script(SLACK_WEBHOOK_PATH, Reply(429, "rate_limited", {"Retry-After": "600"}))
    assert reason(scenario.tick(sensor)) == "no new drift notifications; waiting: slack_webhook"
    state = json.loads(scenario.cursor)
    assert state["to"]["slack_webhook"]["wait_until"] > 0
    scenario.tick(sensor)
    assert len(http.received(SLACK_WEBHOOK_PATH)) == 1  # still waiting: not asked again
    # Ten minutes later (the cursor's clock moved back instead of waiting):
    state["to"]["slack_webhook"]["wait_until"] -= 601
    scenario.cursor = json.dumps(state)
    assert reason(scenario.tick(sensor)) == "delivered 3 notification(s) (slack_webhook 3)"
    assert keys(http.delivered(SLACK_WEBHOOK_PATH)) == FINDINGS


def test_no_duplicate_after_a_restart_with_new_sensor_code(tmp_path, sqlite_url, http, feed):
    home = tmp_path / "dagster_home"
    home.mkdir()
    with dg.instance_for_test(temp_dir=str(home)) as instance:
        scenario = Scenario(instance=instance, store_url=sqlite_url, http=http)
        sensor = scenario.sensor([scenario.slack_webhook(), scenario.webhook()], retry=QUICK)
        _ready(scenario, sensor)
        # Slack takes the first finding, then fails; the webhook takes everything.
        http.script(SLACK_WEBHOOK_PATH, Reply(200, "ok"), *[Reply(500, "oops")] * 3)
        assert reason(scenario.tick(sensor)) == (
            "delivered 4 notification(s) (slack_webhook 1, webhook 3); waiting: slack_webhook"
        )
        saved = scenario.cursor
    assert json.loads(saved)["to"]["slack_webhook"]["checks"]["orders:faucet_profile"] == {
        "after": 3,
        "at": {"4": 1},
    }
    # The daemon restarts with a new version of the sensor code (another text, a new
    # destination); the cursor is all that carries over.
    with dg.instance_for_test(temp_dir=str(home)) as instance:
        scenario = Scenario(instance=instance, store_url=sqlite_url, http=http, cursor=saved)
        sensor = scenario.sensor(
            [scenario.slack_webhook(), scenario.webhook(), scenario.slack_bot()],
            retry=QUICK,
            text_fn=lambda n: f"v2 {n.findings[0].finding.key}",
        )
        assert reason(scenario.tick(sensor)) == (
            "delivered 2 notification(s) (slack_bot 0, slack_webhook 2, webhook 0)"
        )
        assert reason(scenario.tick(sensor)) == "no new drift notifications"
    texts = [b["text"] for b in http.delivered(SLACK_WEBHOOK_PATH)]
    assert texts[0].startswith("Profile drift on orders: amount.null_rate")
    assert texts[1:] == [f"v2 {key}" for key in FINDINGS[1:]]
    assert keys(http.delivered(WEBHOOK_PATH)) == FINDINGS
    # A destination added later starts from the cursor's position: no backlog replay.
    assert http.delivered(SLACK_API_PATH) == []


def _webhook_revoked(scenario: Scenario, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv(SLACK_URL_VAR, scenario.http.url("/services/T0/B0/revoked"))
    return scenario.slack_webhook()


def _webhook_fixed(scenario: Scenario, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv(SLACK_URL_VAR, scenario.http.url(SLACK_WEBHOOK_PATH))
    return scenario.slack_webhook()


def _bot_bad_token(scenario: Scenario, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv(BOT_TOKEN_VAR, "xoxb-revoked-t0ken")
    return scenario.slack_bot()


def _bot_fixed(scenario: Scenario, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv(BOT_TOKEN_VAR, BOT_TOKEN)
    return scenario.slack_bot()


def _hook_wrong_path(scenario: Scenario, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv(HOOK_URL_VAR, scenario.http.url("/hooks/old"))
    return scenario.webhook()


def _hook_fixed(scenario: Scenario, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv(HOOK_URL_VAR, scenario.http.url(WEBHOOK_PATH))
    return scenario.webhook()


Make = Callable[[Scenario, pytest.MonkeyPatch], Any]


@pytest.mark.parametrize(
    ("broken", "fixed", "path", "error"),
    [
        (
            _webhook_revoked,
            _webhook_fixed,
            "/services/T0/B0/revoked",
            "'slack_webhook' (Slack webhook, URL from $FAUCET_TEST_SLACK_WEBHOOK_URL) are held: "
            "the Slack webhook answered HTTP 404 'no_service' (Slack knows no webhook at this "
            "URL: create a new incoming webhook and update the URL's environment variable)",
        ),
        (
            _bot_bad_token,
            _bot_fixed,
            SLACK_API_PATH,
            "'slack_bot' (Slack bot to #data-alerts, token from $FAUCET_TEST_SLACK_BOT_TOKEN) are "
            "held: chat.postMessage to '#data-alerts' answered HTTP 200 'invalid_auth' (the token "
            "is not valid: check the token's environment variable)",
        ),
        (
            lambda s, m: s.slack_bot(channel="#nope"),
            lambda s, m: s.slack_bot(),
            SLACK_API_PATH,
            "chat.postMessage to '#nope' answered HTTP 200 'channel_not_found' (no such channel "
            "for this token: check channel=, and invite the bot to a private channel)",
        ),
        (
            _hook_wrong_path,
            _hook_fixed,
            "/hooks/old",
            "'webhook' (JSON webhook, URL from $FAUCET_TEST_WEBHOOK_URL) are held: the webhook "
            "answered HTTP 404",
        ),
    ],
    ids=["webhook-404", "invalid_auth", "channel_not_found", "json-404"],
)
def test_a_broken_destination_logs_one_error_and_holds_its_findings(
    scenario: Scenario, monkeypatch, broken: Make, fixed: Make, path: str, error: str
):
    http = scenario.http
    sensor = scenario.sensor([broken(scenario, monkeypatch)], retry=QUICK)
    _ready(scenario, sensor)
    for _ in range(4):
        scenario.tick(sensor)
    assert len(http.received(path)) == 1  # one try, then silence: no retry storm
    errors = scenario.logs.messages(logging.ERROR)
    assert len(errors) == 1
    assert error in errors[0]
    assert errors[0].endswith(
        "Findings are kept, not dropped; faucet tries again in 3600 s or as soon as the "
        "destination's configuration changes"
    )
    # Fixing the configuration (a new URL, token or channel) resumes at once, with every
    # finding held meanwhile, once.
    sensor = scenario.sensor([fixed(scenario, monkeypatch)], retry=QUICK)
    result = scenario.tick(sensor)
    assert reason(result).startswith("delivered 3 notification(s)")
    good = [r for r in http.requests if r.ok]
    assert keys([r.body for r in good]) == FINDINGS
    assert "broken" not in json.dumps(json.loads(result.cursor)["to"])


def test_an_unset_environment_variable_is_one_clear_error(scenario: Scenario, monkeypatch):
    sensor = scenario.sensor([scenario.slack_webhook(), scenario.webhook()], retry=QUICK)
    _ready(scenario, sensor)
    monkeypatch.delenv(SLACK_URL_VAR)
    for _ in range(3):
        scenario.tick(sensor)
    assert scenario.logs.messages(logging.ERROR) == [
        "faucet drift notifications to 'slack_webhook' (Slack webhook, URL from "
        "$FAUCET_TEST_SLACK_WEBHOOK_URL) are held: environment variable "
        "FAUCET_TEST_SLACK_WEBHOOK_URL is not set in the process that evaluates sensors (the "
        "code location): set it there. Findings are kept, not dropped; faucet tries again as "
        "soon as this is fixed"
    ]
    assert keys(scenario.http.delivered(WEBHOOK_PATH)) == FINDINGS
    monkeypatch.setenv(SLACK_URL_VAR, scenario.http.url(SLACK_WEBHOOK_PATH))
    assert reason(scenario.tick(sensor)) == (
        "delivered 3 notification(s) (slack_webhook 3, webhook 0)"
    )


def test_blocks_slack_refuses_are_sent_again_as_text(scenario: Scenario):
    http = scenario.http
    sensor = scenario.sensor([scenario.slack_webhook()], retry=QUICK)
    _ready(scenario, sensor)
    http.script(SLACK_WEBHOOK_PATH, Reply(400, "invalid_blocks"))
    assert reason(scenario.tick(sensor)) == "delivered 3 notification(s) (slack_webhook 3)"
    bodies = http.delivered(SLACK_WEBHOOK_PATH)
    assert "blocks" not in bodies[0]
    assert "blocks" in bodies[1]
    assert keys(bodies) == FINDINGS
    [warning] = scenario.logs.messages(logging.WARNING)
    assert "Slack refused the blocks of " in warning
    assert "sending it as text" in warning


def test_secrets_never_appear_in_logs_or_the_cursor(scenario: Scenario, monkeypatch, caplog, capfd):
    caplog.set_level(logging.DEBUG)
    http = scenario.http
    secrets = [
        http.url(SLACK_WEBHOOK_PATH),
        SLACK_WEBHOOK_PATH,
        WEBHOOK_PATH,
        BOT_TOKEN,
        "hdr-s3cr3t",
    ]
    monkeypatch.setenv("FAUCET_TEST_HEADER", "Bearer hdr-s3cr3t")
    hook = scenario.webhook(headers={"Authorization": dg.EnvVar("FAUCET_TEST_HEADER")})
    sensor = scenario.sensor([scenario.slack_webhook(), scenario.slack_bot(), hook], retry=QUICK)
    _ready(scenario, sensor)
    # Every kind of trouble: 5xx and a 429 (warnings), then broken destinations (errors).
    http.outage(SLACK_WEBHOOK_PATH, Reply(500, "boom"))
    http.script(
        SLACK_API_PATH, Reply(429, {"ok": False, "error": "ratelimited"}, {"Retry-After": "900"})
    )
    http.outage(WEBHOOK_PATH, Reply(401, "unauthorized"))
    scenario.tick(sensor)
    http.outage(SLACK_WEBHOOK_PATH, Reply(404, "no_service"))
    scenario.tick(sensor)
    monkeypatch.setenv(SLACK_URL_VAR, "ftp://" + SLACK_WEBHOOK_PATH)
    scenario.tick(sensor)
    logged = "\n".join(scenario.logs.messages())
    assert "are held" in logged
    assert "rate limited" in logged
    captured = capfd.readouterr()
    everything = "\n".join(
        [
            logged,
            caplog.text,
            captured.out,
            captured.err,
            *(r.cursor or "" for r in scenario.results),
        ]
    )
    leaked = [s for s in secrets if s in everything]
    assert leaked == []
