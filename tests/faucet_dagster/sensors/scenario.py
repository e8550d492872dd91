"""A real Dagster scenario for the notification sensor: an ``orders`` asset with a faucet
profile check, days of data, drift on demand, and ticks of the sensor against a local
HTTP server standing in for Slack and a webhook."""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import dagster as dg
import pandas as pd

from faucet_dagster import (
    FaucetResource,
    JsonWebhook,
    SlackBot,
    SlackWebhook,
    build_drift_notification_sensor,
    build_profile_checks,
    profiled_asset,
)
from tests.faucet_core.notify.fake_http import CHANNEL, FakeHttp

ROWS = 400
POLICY = {"rules": [{"label": "pii", "columns": ["*email*"]}]}

SLACK_URL_VAR = "FAUCET_TEST_SLACK_WEBHOOK_URL"
BOT_TOKEN_VAR = "FAUCET_TEST_SLACK_BOT_TOKEN"
HOOK_URL_VAR = "FAUCET_TEST_WEBHOOK_URL"


@dataclass
class Feed:
    """What ``orders`` produces when it runs next."""

    day: int = 0
    amount_nulls: float = 0.01
    email_nulls: float = 0.01
    latam: float = 0.0
    """Share of rows from a region never seen before."""
    wide: int = 0
    """Extra boolean columns c0000.., never null unless ``wide_nulls`` says otherwise."""
    wide_nulls: float = 0.0

    def frame(self) -> pd.DataFrame:
        rng = random.Random(self.day)
        rows = range(ROWS)
        data: dict[str, list[Any]] = {
            "amount": [
                None if rng.random() < self.amount_nulls else round(rng.uniform(10, 100), 2)
                for _ in rows
            ],
            "region": [
                "latam" if rng.random() < self.latam else rng.choice(["eu", "us", "apac"])
                for _ in rows
            ],
            "email": [
                None if rng.random() < self.email_nulls else f"user{rng.randrange(50)}@shop.example"
                for _ in rows
            ],
        }
        for i in range(self.wide):
            data[f"c{i:04}"] = [
                None if rng.random() < self.wide_nulls else j % 2 == 0 for j in rows
            ]
        return pd.DataFrame(data)


FEED = Feed()


@dg.asset
def orders() -> pd.DataFrame:
    return FEED.frame()


def _frame() -> pd.DataFrame:
    return FEED.frame()


class LogCapture(logging.Handler):
    """Everything the sensor logs through its context."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def messages(self, level: int | None = None) -> list[str]:
        return [r.getMessage() for r in self.records if level is None or r.levelno == level]


@dataclass
class Scenario:
    instance: dg.DagsterInstance
    store_url: str
    http: FakeHttp
    on_drift: str = "notify"
    cursor: str | None = None
    config: dict[str, Any] = field(default_factory=dict)
    """More profiling settings for the check."""
    logs: LogCapture = field(default_factory=LogCapture)
    results: list[dg.SensorResult] = field(default_factory=list)
    in_step: bool = False
    """Profile in the asset's step (``profiled_asset``) instead of a separate check."""

    def __post_init__(self) -> None:
        config = {"min_history": 3, "on_drift": self.on_drift, "policy": POLICY, **self.config}
        self.checks: list[Any] = []
        if self.in_step:
            self.assets = [profiled_asset(config=config, name="orders")(_frame)]
        else:
            self.assets = [orders]
            self.checks = build_profile_checks([orders], config=config)

    # -- destinations ---------------------------------------------------------------------
    def slack_webhook(self, **kw: Any) -> SlackWebhook:
        return SlackWebhook(url=dg.EnvVar(SLACK_URL_VAR), **kw)

    def slack_bot(self, channel: str = CHANNEL, **kw: Any) -> SlackBot:
        return SlackBot(
            token=dg.EnvVar(BOT_TOKEN_VAR), channel=channel, base_url=self.http.url("/api/"), **kw
        )

    def webhook(self, **kw: Any) -> JsonWebhook:
        return JsonWebhook(url=dg.EnvVar(HOOK_URL_VAR), **kw)

    def sensor(self, destinations: Sequence[Any] | None = None, **kw: Any) -> dg.SensorDefinition:
        return build_drift_notification_sensor(
            destinations=destinations or [self.slack_webhook()], **kw
        )

    # -- Dagster --------------------------------------------------------------------------
    def resources(self) -> dict[str, Any]:
        return {"faucet": FaucetResource(store_url=self.store_url)}

    def materialize(self, **feed: Any) -> dg.ExecuteInProcessResult:
        for key, value in feed.items():
            setattr(FEED, key, value)
        return dg.materialize(
            [*self.assets, *self.checks],
            instance=self.instance,
            resources=self.resources(),
            raise_on_error=False,
        )

    def warm_up(self, days: int = 3, **feed: Any) -> None:
        for day in range(days):
            result = self.materialize(day=day, **feed)
            assert result.success

    def drift(self, day: int = 3, **feed: Any) -> dg.ExecuteInProcessResult:
        values = {"amount_nulls": 0.5, "email_nulls": 0.5, "latam": 0.2, **feed}
        result = self.materialize(day=day, **values)
        [evaluation] = result.get_asset_check_evaluations()
        assert evaluation.passed is False
        # back to normal for whatever runs next
        FEED.amount_nulls, FEED.email_nulls, FEED.latam, FEED.wide_nulls = 0.01, 0.01, 0.0, 0.0
        return result

    def tick(self, sensor: dg.SensorDefinition, *, cursor: str | None = None) -> dg.SensorResult:
        """One tick, from the scenario's last cursor (or ``cursor``); keeps the new cursor."""
        defs = dg.Definitions(
            assets=self.assets,
            asset_checks=self.checks,
            sensors=[sensor],
            resources=self.resources(),
        )
        context = dg.build_sensor_context(
            instance=self.instance,
            definitions=defs,
            cursor=cursor if cursor is not None else self.cursor,
        )
        context.log.addHandler(self.logs)
        result = sensor(context)
        assert isinstance(result, dg.SensorResult)
        self.cursor = result.cursor
        self.results.append(result)
        return result


FINDINGS = ["amount.null_rate", "region.new_value", "email.null_rate"]


def keys(bodies: list[dict]) -> list[str]:
    """The finding keys of Slack messages (from their text) or webhook bodies."""
    keys = []
    for body in bodies:
        if "findings" in body:
            keys += [f"{f['column']}.{f['metric']}" for f in body["findings"]]
        else:
            keys.append(body["text"].split(": ")[1])
    return keys


def reason(result: dg.SensorResult) -> str:
    skip = result.skip_reason
    return skip.skip_message if isinstance(skip, dg.SkipReason) else str(skip)


_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_WHEN = re.compile(r"\d{4}-\d\d-\d\d( \d\d:\d\d UTC|T\d\d:\d\d:\d\d(\.\d+)?Z)")


def normalized(value: Any) -> Any:
    """Run ids and times replaced, so a message can be compared with a fixture."""
    if isinstance(value, str):
        return _WHEN.sub("<evaluated_at>", _UUID.sub("<run_id>", value))
    if isinstance(value, list):
        return [normalized(v) for v in value]
    if isinstance(value, dict):
        return {k: normalized(v) for k, v in value.items()}
    return value
