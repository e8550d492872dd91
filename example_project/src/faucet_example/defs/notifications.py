"""Drift notifications of the checks with ``on_drift: notify`` (``orders``) or ``fail``.

Both destinations read their URL from the environment when the sensor ticks: ``make demo``
points them at a receiver it runs on 127.0.0.1; in production they are your Slack incoming
webhook and your alerting endpoint. Like every Dagster sensor factory's, the sensor is
created stopped: turn it on in the Dagster UI.
"""

import dagster as dg

from faucet_dagster import JsonWebhook, SlackWebhook, build_drift_notification_sensor

drift_notifications = build_drift_notification_sensor(
    destinations=[
        SlackWebhook(url=dg.EnvVar("SLACK_WEBHOOK_URL")),
        JsonWebhook(url=dg.EnvVar("ALERTS_WEBHOOK_URL")),
    ],
    dagster_base_url="http://127.0.0.1:3000",  # where `dagster dev` serves the UI
)
