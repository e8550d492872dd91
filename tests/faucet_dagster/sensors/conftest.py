"""Fixtures of the sensor tests: a Dagster instance on SQLite, a faucet store, a local
HTTP server standing in for Slack and a webhook, and the secrets in the environment."""

from __future__ import annotations

from collections.abc import Iterator

import dagster as dg
import pytest

from tests.faucet_core.notify.fake_http import (
    BOT_TOKEN,
    SLACK_WEBHOOK_PATH,
    WEBHOOK_PATH,
    FakeHttp,
    fake_http,
)
from tests.faucet_dagster.sensors.scenario import (
    BOT_TOKEN_VAR,
    FEED,
    HOOK_URL_VAR,
    SLACK_URL_VAR,
    Feed,
    Scenario,
)


@pytest.fixture
def http(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeHttp]:
    with fake_http() as server:
        monkeypatch.setenv(SLACK_URL_VAR, server.url(SLACK_WEBHOOK_PATH))
        monkeypatch.setenv(BOT_TOKEN_VAR, BOT_TOKEN)
        monkeypatch.setenv(HOOK_URL_VAR, server.url(WEBHOOK_PATH))
        yield server


@pytest.fixture
def instance() -> Iterator[dg.DagsterInstance]:
    with dg.instance_for_test() as inst:
        yield inst


@pytest.fixture
def feed() -> Iterator[Feed]:
    FEED.__init__()  # type: ignore[misc]
    yield FEED
    FEED.__init__()  # type: ignore[misc]


@pytest.fixture
def scenario(instance, sqlite_url, http, feed) -> Scenario:  # type: ignore[no-untyped-def]
    return Scenario(instance=instance, store_url=sqlite_url, http=http)
