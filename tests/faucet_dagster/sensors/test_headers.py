"""Webhook headers: secret ones only from the environment, every value kept out of the logs.

The rule (docs/notifications.md): a header whose name looks secret (auth, cookie, token,
key, secret, signature, ...) or whose literal value reads like a credential (``Bearer x``)
must be a ``dg.EnvVar``; every configured header value is redacted wherever the sensor
logs, raises or reports.
"""

from __future__ import annotations

import logging
import os
from typing import Any

import dagster as dg
import pytest

from faucet_core.notify import DriftNotification
from faucet_dagster import JsonWebhook
from faucet_dagster.notifications.destinations import secret_header
from tests.faucet_core.notify.fake_http import WEBHOOK_PATH, Reply
from tests.faucet_dagster.sensors.scenario import FINDINGS, Scenario, keys, reason
from tests.faucet_dagster.sensors.test_failures import QUICK

HEADER_VAR = "FAUCET_TEST_WEBHOOK_AUTH"
TOKEN = "hdr-t0ken-9f2c71"
PUBLIC = "team-public-4411"
NAMED = "its name marks it as a secret"


@pytest.mark.parametrize(
    ("name", "value", "why", "env"),
    [
        ("Authorization", "Bearer zqabc", "its name marks it as a secret", "AUTHORIZATION"),
        ("Cookie", "session=zq81", "its name marks it as a secret", "COOKIE"),
        ("X-Api-Key", "zq-key-77", "its name marks it as a secret", "X_API_KEY"),
        ("X-Auth-Token", "zq-tok-13", "its name marks it as a secret", "X_AUTH_TOKEN"),
        ("X-Hub-Signature-256", "sha256=zq09", NAMED, "X_HUB_SIGNATURE_256"),
        ("X-Client-Secret", "zq-s3", "its name marks it as a secret", "X_CLIENT_SECRET"),
        ("X-Forward", "Bearer zqabc", "its value reads like a credential", "X_FORWARD"),
        ("X-Forward", "basic dXNlcjpwdw==", "its value reads like a credential", "X_FORWARD"),
    ],
)
def test_a_literal_secret_header_is_refused_when_the_definitions_load(name, value, why, env):
    with pytest.raises(dg.DagsterInvalidDefinitionError) as info:
        JsonWebhook(url=dg.EnvVar("U"), headers={"X-Team": "data", name: value})
    assert str(info.value) == (
        f"JsonWebhook(headers={{{name!r}: ...}}) is a literal string, but {why}: secret "
        "headers must come from the environment, not from code: pass "
        f"headers={{{name!r}: dg.EnvVar('ALERTS_WEBHOOK_{env}')}}"
    )
    assert value not in str(info.value)


def test_the_same_headers_from_the_environment_and_public_literals_load():
    hook = JsonWebhook(
        url=dg.EnvVar("U"),
        headers={
            "Authorization": dg.EnvVar("A"),
            "X-Api-Key": dg.EnvVar("K"),
            "X-Team": "data-platform",
            "X-Source": "faucet",
        },
    )
    assert set(hook.headers) == {"Authorization", "X-Api-Key", "X-Team", "X-Source"}
    names = ("Authorization", "X-Request-Id", "Cookie", "X-Team")
    assert [n for n in names if secret_header(n)] == ["Authorization", "Cookie"]


def test_headers_must_be_a_mapping():
    with pytest.raises(dg.DagsterInvalidDefinitionError) as info:
        JsonWebhook(url=dg.EnvVar("U"), headers=[("X-Team", "a")])  # type: ignore[arg-type]
    assert str(info.value) == (
        "JsonWebhook(headers=...) must map header names to strings or dg.EnvVar; got a list"
    )


def _leaky_text(n: DriftNotification) -> str:
    # A user callback whose error quotes the headers: the sensor must still not log them.
    raise RuntimeError(f"cannot format with {os.environ[HEADER_VAR]} and {PUBLIC}")


def _everything(scenario: Scenario, caplog: Any, capfd: Any) -> str:
    captured = capfd.readouterr()
    return "\n".join(
        [
            *scenario.logs.messages(),
            caplog.text,
            captured.out,
            captured.err,
            *(r.cursor or "" for r in scenario.results),
            *(reason(r) for r in scenario.results),
        ]
    )


def test_header_values_reach_the_webhook_and_never_the_logs(
    scenario: Scenario, monkeypatch, caplog, capfd
):
    caplog.set_level(logging.DEBUG)
    http = scenario.http
    monkeypatch.setenv(HEADER_VAR, f"Bearer {TOKEN}")
    hook = scenario.webhook(headers={"Authorization": dg.EnvVar(HEADER_VAR), "X-Team": PUBLIC})
    sensor = scenario.sensor([hook], retry=QUICK, text_fn=_leaky_text)
    scenario.tick(sensor)
    scenario.warm_up()
    scenario.drift()
    # A 5xx (a warning), then a 401 (the destination is held: an error), then recovery.
    http.script(WEBHOOK_PATH, *[Reply(503, "down")] * QUICK.max_attempts)
    assert reason(scenario.tick(sensor)) == "no new drift notifications; waiting: webhook"
    http.outage(WEBHOOK_PATH, Reply(401, f"bad token Bearer {TOKEN}"))
    assert reason(scenario.tick(sensor)) == "no new drift notifications; waiting: webhook"
    http.outage(WEBHOOK_PATH, None)
    monkeypatch.setenv(HEADER_VAR, f"Bearer {TOKEN}-2")  # rotated: tried again at once
    assert reason(scenario.tick(sensor)) == "delivered 3 notification(s) (webhook 3)"
    delivered = [r for r in http.received(WEBHOOK_PATH) if r.ok]
    assert {r.headers["authorization"] for r in delivered} == {f"Bearer {TOKEN}-2"}
    assert {r.headers["x-team"] for r in delivered} == {PUBLIC}
    assert keys([r.body for r in delivered]) == FINDINGS

    logged = scenario.logs.messages()
    assert (
        "text_fn raised RuntimeError: cannot format with *** and ***; the default was sent instead"
    ) in logged
    assert any("are held: the webhook answered HTTP 401" in m for m in logged)
    everything = _everything(scenario, caplog, capfd)
    assert TOKEN not in everything
    assert PUBLIC not in everything


def test_a_header_value_http_cannot_carry_is_one_error_naming_the_header_only(
    scenario: Scenario, monkeypatch, caplog, capfd
):
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv(HEADER_VAR, f"Bearer {TOKEN}\r\nX-Injected: 1")
    hook = scenario.webhook(headers={"Authorization": dg.EnvVar(HEADER_VAR)})
    sensor = scenario.sensor([hook], retry=QUICK)
    scenario.tick(sensor)
    scenario.warm_up()
    scenario.drift()
    for _ in range(2):
        assert reason(scenario.tick(sensor)) == "no new drift notifications; waiting: webhook"
    assert scenario.http.received(WEBHOOK_PATH) == []
    assert scenario.logs.messages(logging.ERROR) == [
        "faucet drift notifications to 'webhook' (JSON webhook, URL from "
        "$FAUCET_TEST_WEBHOOK_URL) are held: the value of webhook header 'Authorization' "
        "holds a line break or another control character, which HTTP cannot send: check "
        "where the value comes from (its environment variable). Findings are kept, not "
        "dropped; faucet tries again as soon as this is fixed"
    ]
    assert TOKEN not in _everything(scenario, caplog, capfd)
    monkeypatch.setenv(HEADER_VAR, f"Bearer {TOKEN}")
    assert reason(scenario.tick(sensor)) == "delivered 3 notification(s) (webhook 3)"
