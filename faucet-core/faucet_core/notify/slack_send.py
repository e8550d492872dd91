"""Posting to Slack with slack_sdk: an incoming webhook, or a bot token's chat.postMessage.

slack_sdk is imported when a sender is built (``pip install 'faucet-dagster[slack]'``).
Its own retries are off (the caller's :func:`~faucet_core.notify.delivery.deliver` retries
inside a time budget) and its logger is silenced: at DEBUG it writes the webhook URL.
Error texts name Slack's error code and status, never the URL or the token.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from typing import Any

from faucet_core.errors import NotifyError
from faucet_core.notify.delivery import DeliveryError, DeliveryProblem
from faucet_core.notify.slack_message import SlackMessage

__all__ = [
    "SLACK_API_URL",
    "SlackBotSender",
    "SlackWebhookSender",
    "slack_api_problem",
]

SLACK_API_URL = "https://slack.com/api/"

_QUIET = logging.Logger("faucet.notify.slack_sdk", level=logging.CRITICAL + 1)
"""A logger outside the logging tree that drops everything slack_sdk writes."""

_MESSAGE_ERRORS = frozenset(
    {
        "invalid_blocks",
        "invalid_blocks_format",
        "invalid_payload",
        "invalid_attachments",
        "invalid_metadata_format",
        "invalid_metadata_schema",
        "markdown_text_conflict",
        "msg_too_long",
        "msg_blocks_too_long",
        "no_text",
        "too_many_attachments",
        "too_many_blocks",
    }
)
_TRANSIENT_ERRORS = frozenset(
    {"internal_error", "fatal_error", "service_unavailable", "request_timeout", "ratelimited"}
)
_HINTS = {
    "invalid_auth": "the token is not valid: check the token's environment variable",
    "not_authed": "no token reached Slack: check the token's environment variable",
    "account_inactive": "the token belongs to a deleted user or app: install the app again",
    "token_revoked": "the token was revoked: install the app again and update the token",
    "token_expired": "the token expired: refresh it and update the environment variable",
    "no_permission": "the app lacks permission: check its scopes and the workspace settings",
    "missing_scope": "the app lacks the chat:write scope: add it and reinstall the app",
    "channel_not_found": "no such channel for this token: check channel=, and invite the bot "
    "to a private channel",
    "not_in_channel": "the bot is not in the channel: /invite it, or add chat:write.public",
    "is_archived": "the channel is archived: unarchive it or choose another channel",
    "restricted_action": "the workspace forbids the bot to post there",
    "no_service": "Slack knows no webhook at this URL: create a new incoming webhook and "
    "update the URL's environment variable",
    "invalid_token": "the webhook URL's token is not valid: create a new incoming webhook",
    "no_team": "the webhook's workspace is gone: create a new incoming webhook",
    "team_disabled": "the webhook's workspace is disabled",
    "channel_is_archived": "the webhook's channel is archived: unarchive it or create a new "
    "webhook",
    "action_prohibited": "an admin restricted this webhook: ask them, or create a new one",
    "posting_to_general_channel_denied": "only admins may post to this channel",
}


def _slack_sdk() -> Any:
    try:
        import slack_sdk
    except ImportError:
        raise NotifyError(
            "Slack notifications need slack_sdk: pip install 'faucet-dagster[slack]'"
        ) from None
    return slack_sdk


def _retry_after(headers: Mapping[str, Any] | None) -> float | None:
    if not headers:
        return None
    for key, value in headers.items():
        if str(key).lower() == "retry-after":
            raw = value[0] if isinstance(value, list | tuple) and value else value
            try:
                return max(0.0, float(raw))
            except (TypeError, ValueError):
                return None
    return None


def _whole_seconds(timeout: float) -> int:
    # slack_sdk takes whole seconds; rounding up overshoots a tick's budget by under 1 s.
    return max(1, math.ceil(timeout))


def _hint(code: str) -> str:
    hint = _HINTS.get(code)
    return f" ({hint})" if hint else ""


def slack_api_problem(status: int, code: str) -> DeliveryProblem:
    """How a Slack answer (HTTP status, error code) is handled."""
    if status == 429 or code == "ratelimited":
        return DeliveryProblem.RATE_LIMITED
    if status >= 500 or code in _TRANSIENT_ERRORS or status == 408:
        return DeliveryProblem.RETRYABLE
    if code in _MESSAGE_ERRORS:
        return DeliveryProblem.REJECTED
    if code in _HINTS or status in (401, 403, 404, 410):
        return DeliveryProblem.BROKEN
    if 400 <= status < 500:
        return DeliveryProblem.BROKEN
    return DeliveryProblem.RETRYABLE  # an unknown error code: at most one try per tick


def _network_error(exc: BaseException) -> DeliveryError:
    # urllib errors name the reason (refused, timed out), never the URL. A ValueError's
    # text may quote the request (a header holding the token), so it is not repeated.
    if not isinstance(exc, OSError):
        return DeliveryError(
            DeliveryProblem.RETRYABLE,
            f"could not reach Slack: {type(exc).__name__} (its text is withheld: it may quote "
            "the request)",
        )
    reason = getattr(exc, "reason", None) or exc
    return DeliveryError(
        DeliveryProblem.RETRYABLE, f"could not reach Slack: {type(exc).__name__}: {reason}"
    )


class SlackWebhookSender:
    """Posts to a Slack incoming webhook (the URL is the secret)."""

    def __init__(self, url: str) -> None:
        _slack_sdk()
        from slack_sdk.webhook import WebhookClient

        self._client = WebhookClient(url, logger=_QUIET, retry_handlers=[])

    def __repr__(self) -> str:
        return "SlackWebhookSender(url=***)"

    def send(self, message: SlackMessage, *, timeout: float) -> None:
        from slack_sdk.errors import SlackRequestError

        self._client.timeout = _whole_seconds(timeout)
        try:
            response = self._client.send(
                text=message.text, blocks=[dict(b) for b in message.blocks] or None
            )
        except SlackRequestError:
            raise DeliveryError(
                DeliveryProblem.BROKEN,
                "the webhook URL is not an http(s) URL: check the URL's environment variable",
            ) from None
        except (OSError, ValueError) as exc:  # URLError, timeouts, http.client errors
            raise _network_error(exc) from None
        status = int(response.status_code)
        if 200 <= status < 300:
            return
        code = (response.body or "").strip()[:100]
        problem = slack_api_problem(status, code)
        raise DeliveryError(
            problem,
            f"the Slack webhook answered HTTP {status} {code!r}{_hint(code)}",
            status=status,
            retry_after=_retry_after(response.headers),
        )


class SlackBotSender:
    """Posts with a bot token through ``chat.postMessage`` to one channel."""

    def __init__(self, token: str, channel: str, *, base_url: str = SLACK_API_URL) -> None:
        _slack_sdk()
        from slack_sdk import WebClient

        if any(ord(c) < 32 or ord(c) == 127 for c in token):
            raise NotifyError(
                "the Slack bot token holds a line break or another control character: check "
                "its environment variable"
            )
        self._client = WebClient(token=token, base_url=base_url, logger=_QUIET, retry_handlers=[])
        self.channel = channel

    def __repr__(self) -> str:
        return f"SlackBotSender(token=***, channel={self.channel!r})"

    def send(self, message: SlackMessage, *, timeout: float) -> None:
        from slack_sdk.errors import SlackApiError, SlackRequestError

        self._client.timeout = _whole_seconds(timeout)
        try:
            self._client.chat_postMessage(
                channel=self.channel,
                text=message.text,
                blocks=[dict(b) for b in message.blocks] or None,
            )
        except SlackApiError as exc:
            response = exc.response
            status = int(getattr(response, "status_code", 0) or 0)
            data = getattr(response, "data", None)
            code = str(data.get("error", ""))[:100] if isinstance(data, dict) else ""
            problem = slack_api_problem(status, code)
            what = f"{code!r}" if code else "no error code"
            raise DeliveryError(
                problem,
                f"chat.postMessage to {self.channel!r} answered HTTP {status} {what}{_hint(code)}",
                status=status,
                retry_after=_retry_after(getattr(response, "headers", None)),
            ) from None
        except SlackRequestError:
            raise DeliveryError(
                DeliveryProblem.BROKEN, "the Slack API base_url is not an http(s) URL"
            ) from None
        except (OSError, ValueError) as exc:
            raise _network_error(exc) from None
