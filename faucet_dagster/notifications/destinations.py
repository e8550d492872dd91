"""Where drift notifications go: Slack incoming webhook, Slack bot token, JSON webhook.

Each destination takes its secrets from ``dg.EnvVar`` only (a literal is refused when the
definitions load) and turns into a :class:`faucet_core.notify.Channel` on every tick.

Webhook headers: a header whose name looks secret (:func:`secret_header`) or whose literal
value carries credentials (``Bearer ...``, ``Basic ...``) must be a ``dg.EnvVar``. Every
header value, literal or read from the environment, is redacted from what the sensor logs.
"""

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import dagster as dg

from faucet_core.errors import FaucetError
from faucet_core.notify import (
    Channel,
    ChannelKind,
    JsonWebhookSender,
    SlackBotSender,
    SlackWebhookSender,
)
from faucet_core.notify.slack_send import SLACK_API_URL

__all__ = ["Destination", "JsonWebhook", "SlackBot", "SlackWebhook", "secret_header"]

_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")
_SECRET_WORDS = (
    "auth",
    "cookie",
    "token",
    "key",
    "secret",
    "signature",
    "password",
    "passwd",
    "credential",
    "session",
    "jwt",
    "private",
)
"""A header whose lower-cased name contains one of these must come from the environment."""
_CREDENTIAL_VALUE = re.compile(r"\s*(bearer|basic|token|digest|apikey)\s", re.IGNORECASE)
"""A literal value in the form of an HTTP credential (``Bearer abc``)."""
_MIN_REDACTED_LITERAL = 4
"""Literal (public) header values shorter than this are not redacted: replacing ``1`` or
``v2`` everywhere would garble the log. Values read from the environment always are."""


def secret_header(name: str) -> bool:
    """Whether a webhook header named ``name`` must be given as a ``dg.EnvVar``:
    ``Authorization``, ``Proxy-Authorization``, ``Cookie``, ``X-Api-Key``, ``X-Auth-Token``,
    ``X-Hub-Signature``, ... (any name holding auth, cookie, token, key, secret, signature,
    password, passwd, credential, session, jwt or private)."""
    lowered = name.lower()
    return any(word in lowered for word in _SECRET_WORDS)


def _fingerprint(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:16]


def _secret(value: Any, field_name: str, cls: str, example: str) -> None:
    if not isinstance(value, dg.EnvVar):
        raise dg.DagsterInvalidDefinitionError(
            f"{cls}({field_name}=...) must come from the environment, not from code: pass "
            f"{field_name}=dg.EnvVar({example!r})"
        )


def _name(value: Any, cls: str) -> None:
    if not isinstance(value, str) or not _NAME.fullmatch(value):
        raise dg.DagsterInvalidDefinitionError(
            f"{cls}(name={value!r}) is not a valid destination name: use 1 to 64 letters, "
            "digits, '_', '.' or '-' (it keys the destination's progress in the cursor)"
        )


def _secret_parts(value: str) -> list[str]:
    """What to redact for a header value: the value, and the credential of a ``Bearer x``."""
    parts = [value]
    match = _CREDENTIAL_VALUE.match(value)
    if match is not None:
        credential = value[match.end() :].strip()
        if len(credential) >= _MIN_REDACTED_LITERAL:
            parts.append(credential)
    return parts


def _unset(var: dg.EnvVar, name: str, label: str, kind: ChannelKind = ChannelKind.SLACK) -> Channel:
    env = var.env_var_name
    return Channel(
        name=name,
        kind=kind,
        label=label,
        fingerprint=f"unset:{env}",
        setup_error=(
            f"environment variable {env} is not set in the process that evaluates sensors "
            "(the code location): set it there"
        ),
    )


def _value(var: dg.EnvVar) -> str | None:
    value = var.get_value()
    return value.strip() if value and value.strip() else None


@dataclass(frozen=True)
class SlackWebhook:
    """A Slack incoming webhook: ``SlackWebhook(url=dg.EnvVar("SLACK_WEBHOOK_URL"))``."""

    url: dg.EnvVar
    name: str = "slack_webhook"

    def __post_init__(self) -> None:
        _secret(self.url, "url", "SlackWebhook", "SLACK_WEBHOOK_URL")
        _name(self.name, "SlackWebhook")

    @property
    def label(self) -> str:
        return f"{self.name!r} (Slack webhook, URL from ${self.url.env_var_name})"

    def resolve(self) -> Channel:
        """The channel a tick sends through (the URL is read from the environment now)."""
        url = _value(self.url)
        if url is None:
            return _unset(self.url, self.name, self.label)
        fp = _fingerprint("slack_webhook", url)
        try:
            sender = SlackWebhookSender(url)
        except FaucetError as exc:
            return Channel(self.name, ChannelKind.SLACK, self.label, fp, setup_error=str(exc))
        return Channel(self.name, ChannelKind.SLACK, self.label, fp, sender, secrets=(url,))


@dataclass(frozen=True)
class SlackBot:
    """A Slack app's bot token posting with ``chat.postMessage`` to ``channel``:
    ``SlackBot(token=dg.EnvVar("SLACK_BOT_TOKEN"), channel="#data-alerts")``."""

    token: dg.EnvVar
    channel: str
    name: str = "slack_bot"
    base_url: str = SLACK_API_URL

    def __post_init__(self) -> None:
        _secret(self.token, "token", "SlackBot", "SLACK_BOT_TOKEN")
        _name(self.name, "SlackBot")
        if not isinstance(self.channel, str) or not self.channel.strip():
            raise dg.DagsterInvalidDefinitionError(
                f"SlackBot(channel={self.channel!r}) is empty: give a channel name "
                "('#data-alerts') or id ('C0123456789')"
            )
        if not self.base_url.startswith(("https://", "http://")):
            raise dg.DagsterInvalidDefinitionError(
                f"SlackBot(base_url={self.base_url!r}) is not an http(s) URL "
                f"(default {SLACK_API_URL!r})"
            )

    @property
    def label(self) -> str:
        return f"{self.name!r} (Slack bot to {self.channel}, token from ${self.token.env_var_name})"

    def resolve(self) -> Channel:
        """The channel a tick sends through (the token is read from the environment now)."""
        token = _value(self.token)
        if token is None:
            return _unset(self.token, self.name, self.label)
        fp = _fingerprint("slack_bot", token, self.channel, self.base_url)
        try:
            sender = SlackBotSender(token, self.channel, base_url=self.base_url)
        except FaucetError as exc:
            return Channel(self.name, ChannelKind.SLACK, self.label, fp, setup_error=str(exc))
        return Channel(self.name, ChannelKind.SLACK, self.label, fp, sender, secrets=(token,))


@dataclass(frozen=True)
class JsonWebhook:
    """A generic webhook that receives the notification as JSON:
    ``JsonWebhook(url=dg.EnvVar("ALERTS_WEBHOOK_URL"))``. ``headers`` are sent with each
    request. A header whose name looks secret (``Authorization``, ``Cookie``, ``X-Api-Key``,
    any name holding auth, token, key, secret, signature, ...: :func:`secret_header`) or
    whose value reads like a credential (``Bearer ...``) must be a ``dg.EnvVar``; a literal
    is refused when the definitions load. Every header value is redacted from the logs."""

    url: dg.EnvVar
    name: str = "webhook"
    headers: Mapping[str, str | dg.EnvVar] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _secret(self.url, "url", "JsonWebhook", "ALERTS_WEBHOOK_URL")
        _name(self.name, "JsonWebhook")
        if not isinstance(self.headers, Mapping):
            raise dg.DagsterInvalidDefinitionError(
                f"JsonWebhook(headers=...) must map header names to strings or dg.EnvVar; got "
                f"a {type(self.headers).__name__}"
            )
        for key, value in self.headers.items():
            if not isinstance(key, str) or not isinstance(value, str):
                raise dg.DagsterInvalidDefinitionError(
                    f"JsonWebhook(headers=...) maps header names to strings or dg.EnvVar; "
                    f"got {key!r}: {type(value).__name__}"
                )
            if isinstance(value, dg.EnvVar):
                continue
            env = re.sub(r"[^A-Z0-9]+", "_", key.upper()).strip("_")
            why = (
                "its name marks it as a secret"
                if secret_header(key)
                else "its value reads like a credential"
                if _CREDENTIAL_VALUE.match(value)
                else None
            )
            if why is not None:
                # The value itself is never repeated: it may be the secret.
                raise dg.DagsterInvalidDefinitionError(
                    f"JsonWebhook(headers={{{key!r}: ...}}) is a literal string, but {why}: "
                    "secret headers must come from the environment, not from code: pass "
                    f"headers={{{key!r}: dg.EnvVar('ALERTS_WEBHOOK_{env}')}}"
                )

    @property
    def label(self) -> str:
        return f"{self.name!r} (JSON webhook, URL from ${self.url.env_var_name})"

    def resolve(self) -> Channel:
        """The channel a tick sends through (URL and headers are read from the environment)."""
        url = _value(self.url)
        if url is None:
            return _unset(self.url, self.name, self.label, ChannelKind.JSON)
        headers: dict[str, str] = {}
        secrets = [url]
        for key, value in self.headers.items():
            if isinstance(value, dg.EnvVar):
                resolved = _value(value)
                if resolved is None:
                    return _unset(value, self.name, self.label, ChannelKind.JSON)
                secrets.extend(_secret_parts(resolved))
                headers[key] = resolved
            else:
                if len(value.strip()) >= _MIN_REDACTED_LITERAL:
                    secrets.extend(_secret_parts(value))
                headers[key] = value
        fp = _fingerprint("json_webhook", url, *sorted(f"{k}={v}" for k, v in headers.items()))
        try:
            sender = JsonWebhookSender(url, headers)
        except FaucetError as exc:
            return Channel(self.name, ChannelKind.JSON, self.label, fp, setup_error=str(exc))
        return Channel(self.name, ChannelKind.JSON, self.label, fp, sender, secrets=tuple(secrets))


Destination = SlackWebhook | SlackBot | JsonWebhook
