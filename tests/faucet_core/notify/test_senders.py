"""The senders against a real HTTP server on 127.0.0.1 standing in for Slack and a webhook."""

from __future__ import annotations

import socket

import pytest

from faucet_core.errors import NotifyError
from faucet_core.notify import (
    DeliveryError,
    DeliveryProblem,
    JsonWebhookSender,
    SlackBotSender,
    SlackMessage,
    SlackWebhookSender,
)
from faucet_core.notify.webhook_send import parse_retry_after
from tests.faucet_core.notify.fake_http import (
    BOT_TOKEN,
    CHANNEL,
    SLACK_API_PATH,
    SLACK_WEBHOOK_PATH,
    WEBHOOK_PATH,
    FakeHttp,
    Reply,
    slack_error,
)

MESSAGE = SlackMessage(
    text="drift!", blocks=({"type": "section", "text": {"type": "mrkdwn", "text": "x"}},)
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _error(send, message) -> DeliveryError:  # type: ignore[no-untyped-def]
    with pytest.raises(DeliveryError) as info:
        send(message, timeout=5)
    return info.value


# -- Slack incoming webhook ----------------------------------------------------------------


def test_webhook_posts_text_and_blocks(http: FakeHttp):
    SlackWebhookSender(http.url(SLACK_WEBHOOK_PATH)).send(MESSAGE, timeout=5)
    [body] = http.delivered(SLACK_WEBHOOK_PATH)
    assert body == {"text": "drift!", "blocks": [dict(MESSAGE.blocks[0])]}


def test_webhook_without_blocks_sends_text_only(http: FakeHttp):
    SlackWebhookSender(http.url(SLACK_WEBHOOK_PATH)).send(SlackMessage("t"), timeout=5)
    assert http.delivered(SLACK_WEBHOOK_PATH) == [{"text": "t"}]


@pytest.mark.parametrize(
    ("reply", "problem", "detail"),
    [
        (
            Reply(429, "rate_limited", {"Retry-After": "3"}),
            DeliveryProblem.RATE_LIMITED,
            "HTTP 429 'rate_limited'",
        ),
        (Reply(500, "internal_error"), DeliveryProblem.RETRYABLE, "HTTP 500"),
        (Reply(503, ""), DeliveryProblem.RETRYABLE, "HTTP 503"),
        (Reply(404, "no_service"), DeliveryProblem.BROKEN, "create a new incoming webhook"),
        (Reply(403, "invalid_token"), DeliveryProblem.BROKEN, "not valid"),
        (Reply(410, "channel_is_archived"), DeliveryProblem.BROKEN, "archived"),
        (Reply(400, "invalid_blocks"), DeliveryProblem.REJECTED, "'invalid_blocks'"),
        (Reply(400, "user_not_found"), DeliveryProblem.BROKEN, "HTTP 400"),
    ],
    ids=["429", "500", "503", "404", "403", "410", "invalid_blocks", "400-other"],
)
def test_webhook_errors_are_classified(http: FakeHttp, reply, problem, detail):
    http.script(SLACK_WEBHOOK_PATH, reply)
    url = http.url(SLACK_WEBHOOK_PATH)
    error = _error(SlackWebhookSender(url).send, MESSAGE)
    assert error.problem is problem
    assert detail in error.detail
    assert error.status == reply.status
    assert SLACK_WEBHOOK_PATH not in error.detail
    if problem is DeliveryProblem.RATE_LIMITED:
        assert error.retry_after == 3.0


def test_webhook_unreachable_is_retryable():
    url = f"http://127.0.0.1:{_free_port()}{SLACK_WEBHOOK_PATH}"
    error = _error(SlackWebhookSender(url).send, MESSAGE)
    assert error.problem is DeliveryProblem.RETRYABLE
    assert "could not reach Slack" in error.detail
    assert SLACK_WEBHOOK_PATH not in error.detail


def test_webhook_url_that_is_not_http_is_broken_without_echoing_it():
    error = _error(SlackWebhookSender("ftp://hooks.example/secret-path").send, MESSAGE)
    assert error.problem is DeliveryProblem.BROKEN
    assert "secret-path" not in error.detail
    assert repr(SlackWebhookSender("https://hooks.example/secret")) == "SlackWebhookSender(url=***)"


# -- Slack bot token (chat.postMessage) -----------------------------------------------------


def _bot(http: FakeHttp, token: str = BOT_TOKEN, channel: str = CHANNEL) -> SlackBotSender:
    return SlackBotSender(token, channel, base_url=http.url("/api/"))


def test_bot_posts_to_its_channel_with_the_token(http: FakeHttp):
    _bot(http).send(MESSAGE, timeout=5)
    [received] = [r for r in http.received(SLACK_API_PATH) if r.ok]
    assert received.headers["authorization"] == f"Bearer {BOT_TOKEN}"
    assert received.body["channel"] == CHANNEL
    assert received.body["text"] == "drift!"
    assert received.body["blocks"] == [dict(MESSAGE.blocks[0])]


@pytest.mark.parametrize(
    ("reply", "problem", "detail"),
    [
        (
            slack_error("ratelimited", 429, **{"Retry-After": "2"}),
            DeliveryProblem.RATE_LIMITED,
            "'ratelimited'",
        ),
        (slack_error("internal_error", 500), DeliveryProblem.RETRYABLE, "HTTP 500"),
        (Reply(502, "<html>bad gateway</html>"), DeliveryProblem.RETRYABLE, "HTTP 502"),
        (slack_error("fatal_error"), DeliveryProblem.RETRYABLE, "'fatal_error'"),
        (slack_error("not_in_channel"), DeliveryProblem.BROKEN, "/invite"),
        (slack_error("missing_scope"), DeliveryProblem.BROKEN, "chat:write"),
        (slack_error("token_revoked"), DeliveryProblem.BROKEN, "revoked"),
        (slack_error("invalid_blocks"), DeliveryProblem.REJECTED, "'invalid_blocks'"),
        (slack_error("msg_too_long"), DeliveryProblem.REJECTED, "'msg_too_long'"),
        (slack_error("something_new"), DeliveryProblem.RETRYABLE, "'something_new'"),
        (Reply(404, "not found"), DeliveryProblem.BROKEN, "HTTP 404"),
    ],
    ids=[
        "429",
        "500",
        "502-html",
        "fatal_error",
        "not_in_channel",
        "missing_scope",
        "token_revoked",
        "invalid_blocks",
        "msg_too_long",
        "unknown",
        "404",
    ],
)
def test_bot_errors_are_classified(http: FakeHttp, reply, problem, detail):
    http.script(SLACK_API_PATH, reply)
    error = _error(_bot(http).send, MESSAGE)
    assert error.problem is problem
    assert detail in error.detail
    assert BOT_TOKEN not in error.detail
    if problem is DeliveryProblem.RATE_LIMITED:
        assert error.retry_after == 2.0


def test_bot_with_a_wrong_token_is_broken(http: FakeHttp):
    error = _error(_bot(http, token="xoxb-wrong").send, MESSAGE)
    assert error.problem is DeliveryProblem.BROKEN
    assert "'invalid_auth'" in error.detail
    assert "token" in error.detail
    assert "xoxb-wrong" not in error.detail
    assert "xoxb" not in repr(_bot(http, token="xoxb-wrong"))


def test_bot_with_an_unknown_channel_is_broken(http: FakeHttp):
    error = _error(_bot(http, channel="#nope").send, MESSAGE)
    assert error.problem is DeliveryProblem.BROKEN
    assert "'channel_not_found'" in error.detail
    assert "'#nope'" in error.detail


def test_bot_unreachable_is_retryable():
    sender = SlackBotSender(BOT_TOKEN, CHANNEL, base_url=f"http://127.0.0.1:{_free_port()}/api/")
    assert _error(sender.send, MESSAGE).problem is DeliveryProblem.RETRYABLE


# -- generic JSON webhook -------------------------------------------------------------------


def test_json_webhook_posts_json_with_headers(http: FakeHttp):
    sender = JsonWebhookSender(http.url(WEBHOOK_PATH), {"Authorization": "Bearer h-secret"})
    sender.send({"kind": "profile_drift", "n": 1}, timeout=5)
    [received] = http.received(WEBHOOK_PATH)
    assert received.ok
    assert received.body == {"kind": "profile_drift", "n": 1}
    assert received.headers["authorization"] == "Bearer h-secret"
    assert received.headers["content-type"] == "application/json; charset=utf-8"


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        (Reply(429, "", {"Retry-After": "4"}), DeliveryProblem.RATE_LIMITED),
        (Reply(500, "boom"), DeliveryProblem.RETRYABLE),
        (Reply(408, ""), DeliveryProblem.RETRYABLE),
        (Reply(400, "bad"), DeliveryProblem.REJECTED),
        (Reply(422, "bad"), DeliveryProblem.REJECTED),
        (Reply(401, ""), DeliveryProblem.BROKEN),
        (Reply(404, ""), DeliveryProblem.BROKEN),
    ],
    ids=["429", "500", "408", "400", "422", "401", "404"],
)
def test_json_webhook_errors_are_classified(http: FakeHttp, reply, problem):
    http.script(WEBHOOK_PATH, reply)
    error = _error(JsonWebhookSender(http.url(WEBHOOK_PATH)).send, {"a": 1})
    assert error.problem is problem
    assert error.detail == f"the webhook answered HTTP {reply.status}"
    if problem is DeliveryProblem.RATE_LIMITED:
        assert error.retry_after == 4.0


def test_json_webhook_unreachable_is_retryable():
    sender = JsonWebhookSender(f"http://127.0.0.1:{_free_port()}{WEBHOOK_PATH}")
    error = _error(sender.send, {"a": 1})
    assert error.problem is DeliveryProblem.RETRYABLE
    assert WEBHOOK_PATH not in error.detail


def test_json_webhook_needs_an_http_url():
    with pytest.raises(NotifyError, match="not an http") as info:
        JsonWebhookSender("file:///etc/secret-file")
    assert "secret-file" not in str(info.value)


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        (
            {"Authorization": "Bearer s3cr3t-v\nX-Injected: 1"},
            "the value of webhook header 'Authorization' holds a line break or another control "
            "character, which HTTP cannot send: check where the value comes from (its "
            "environment variable)",
        ),
        (
            {"X Api Key": "s3cr3t-v"},
            "webhook header name 'X Api Key' is not a valid HTTP header name: use letters, "
            "digits and '-' (e.g. 'Authorization', 'X-Api-Key')",
        ),
    ],
    ids=["value", "name"],
)
def test_json_webhook_refuses_headers_http_cannot_carry_without_repeating_them(headers, message):
    with pytest.raises(NotifyError) as info:
        JsonWebhookSender("http://127.0.0.1:9/hook", headers)
    assert str(info.value) == message
    assert "s3cr3t-v" not in str(info.value)


def test_bot_token_with_a_line_break_is_refused_without_repeating_it():
    with pytest.raises(NotifyError) as info:
        SlackBotSender("xoxb-s3cr3t\nX: 1", CHANNEL)
    assert str(info.value) == (
        "the Slack bot token holds a line break or another control character: check its "
        "environment variable"
    )


def test_retry_after_as_http_date():
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:30 GMT", now=1445412500.0) == 10.0
    assert parse_retry_after("2.5") == 2.5
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None
