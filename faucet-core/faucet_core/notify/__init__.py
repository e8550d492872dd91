"""Drift notifications: the model, pure message building, senders and delivery.

- :mod:`~faucet_core.notify.model`: :class:`DriftNotification` and its findings;
- :mod:`~faucet_core.notify.slack_message` / :mod:`~faucet_core.notify.json_message`:
  Slack Block Kit and webhook JSON, free of I/O;
- :mod:`~faucet_core.notify.slack_send` / :mod:`~faucet_core.notify.webhook_send`: senders;
- :mod:`~faucet_core.notify.delivery`: the retry policy and :func:`deliver`;
- :mod:`~faucet_core.notify.ledger` and :mod:`~faucet_core.notify.dispatch`: exactly-once
  delivery of a stream of check evaluations to several destinations.
"""

from faucet_core.notify.delivery import (
    DeliveryError,
    DeliveryProblem,
    RetryPolicy,
    Sender,
    deliver,
    mask_secrets,
)
from faucet_core.notify.dispatch import (
    BlocksFn,
    Channel,
    ChannelKind,
    Dispatcher,
    DispatchOptions,
    Evaluation,
    EvaluationState,
    TextFn,
)
from faucet_core.notify.json_message import PAYLOAD_VERSION, json_payload
from faucet_core.notify.ledger import LEDGER_VERSION, Ledger
from faucet_core.notify.model import (
    CheckSeverity,
    DriftNotification,
    NotificationKind,
    NotifiedFinding,
    classified_columns,
    findings_from_metadata,
)
from faucet_core.notify.slack_message import (
    MAX_BLOCKS,
    MAX_CONTEXT_ELEMENTS,
    MAX_FIELD_CHARS,
    MAX_FIELDS,
    MAX_HEADER_CHARS,
    MAX_SECTION_CHARS,
    MAX_TEXT_CHARS,
    SlackMessage,
    plain_text,
    slack_blocks,
    slack_text,
)
from faucet_core.notify.slack_send import SLACK_API_URL, SlackBotSender, SlackWebhookSender
from faucet_core.notify.webhook_send import JsonWebhookSender

__all__ = [
    "LEDGER_VERSION",
    "MAX_BLOCKS",
    "MAX_CONTEXT_ELEMENTS",
    "MAX_FIELDS",
    "MAX_FIELD_CHARS",
    "MAX_HEADER_CHARS",
    "MAX_SECTION_CHARS",
    "MAX_TEXT_CHARS",
    "PAYLOAD_VERSION",
    "SLACK_API_URL",
    "BlocksFn",
    "Channel",
    "ChannelKind",
    "CheckSeverity",
    "DeliveryError",
    "DeliveryProblem",
    "DispatchOptions",
    "Dispatcher",
    "DriftNotification",
    "Evaluation",
    "EvaluationState",
    "JsonWebhookSender",
    "Ledger",
    "NotificationKind",
    "NotifiedFinding",
    "RetryPolicy",
    "Sender",
    "SlackBotSender",
    "SlackMessage",
    "SlackWebhookSender",
    "TextFn",
    "classified_columns",
    "deliver",
    "findings_from_metadata",
    "json_payload",
    "mask_secrets",
    "plain_text",
    "slack_blocks",
    "slack_text",
]
