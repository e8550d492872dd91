"""Notifications of the faucet checks' findings: the drift notification sensor and its
destinations (Slack webhook, Slack bot, JSON webhook)."""

from faucet_dagster.notifications.destinations import JsonWebhook, SlackBot, SlackWebhook
from faucet_dagster.notifications.sensor import build_drift_notification_sensor

__all__ = ["JsonWebhook", "SlackBot", "SlackWebhook", "build_drift_notification_sensor"]
