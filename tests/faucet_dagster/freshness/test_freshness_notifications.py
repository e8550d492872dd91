"""``profile_freshness``: one notification per overdue episode and one on recovery, through
the drift notification sensor's destinations and ledger (a real local HTTP receiver)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import dagster as dg
import pytest
from sqlalchemy.engine import make_url

from faucet_dagster import (
    JsonWebhook,
    build_drift_notification_sensor,
    build_freshness_checks,
    build_freshness_sensor,
)
from tests.faucet_core.notify.fake_http import WEBHOOK_PATH, FakeHttp, fake_http
from tests.faucet_dagster.freshness.helpers import Bench, Clock, utc

D = dt.timedelta(days=1)


@dg.asset
def orders() -> None: ...


HOOK_VAR = "FAUCET_TEST_FRESHNESS_HOOK"


@pytest.fixture
def http(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeHttp]:
    with fake_http() as server:
        monkeypatch.setenv(HOOK_VAR, server.url(WEBHOOK_PATH))
        yield server


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def event_log(request: pytest.FixtureRequest) -> dict[str, object] | None:
    """The Dagster instance's storage: SQLite, or PostgreSQL (dagster-postgres)."""
    if request.param == "sqlite":
        return None
    pytest.importorskip("dagster_postgres", reason="needs dagster-postgres (make install)")
    url = make_url(str(request.getfixturevalue("postgres_url")))
    url = url.set(drivername="postgresql+psycopg2")  # dagster-postgres speaks psycopg2
    return {"storage": {"postgres": {"postgres_url": url.render_as_string(hide_password=False)}}}


def test_one_notification_per_episode_and_one_on_recovery(
    http: FakeHttp, event_log: dict[str, object] | None
) -> None:
    checks = build_freshness_checks([orders], config={"on_overdue": "notify"})
    clock = Clock()
    fresh_sensor = build_freshness_sensor(clock=clock)
    notify = build_drift_notification_sensor(
        destinations=[JsonWebhook(url=dg.EnvVar(HOOK_VAR), name="hook")]
    )
    defs = dg.Definitions(assets=[orders], asset_checks=checks, sensors=[fresh_sensor, notify])
    with dg.instance_for_test(overrides=event_log) as instance:
        b = Bench(instance=instance, defs=defs, clock=clock, sensor=fresh_sensor)
        cursor = None

        def notify_tick() -> None:
            nonlocal cursor
            ctx = dg.build_sensor_context(instance=instance, definitions=defs, cursor=cursor)
            result = notify(ctx)
            assert isinstance(result, dg.SensorResult)
            cursor = result.cursor

        notify_tick()  # the ledger starts here
        for i in range(8):
            b.materialize("orders", utc(2026, 11, 1, 2) + i * D)
        b.tick(utc(2026, 11, 8, 12))
        notify_tick()
        assert http.delivered(WEBHOOK_PATH) == []  # fresh: nothing to say
        for hour in (10, 14, 20):  # overdue from 11-09 04:24 on: said once
            b.tick(utc(2026, 11, 9, hour))
            notify_tick()
        b.materialize("orders", utc(2026, 11, 10, 1))
        b.tick(utc(2026, 11, 10, 2))
        notify_tick()
        notify_tick()
        bodies = http.delivered(WEBHOOK_PATH)
        assert [(m["kind"], m["episode"]) for m in bodies] == [
            ("profile_freshness", "overdue"),
            ("profile_freshness", "recovered"),
        ]
        overdue, recovered = bodies
        assert overdue["asset"] == "orders"
        assert overdue["text"].startswith("Overdue: orders: overdue by ")
        assert "learned cadence: daily at 02:00 UTC" in overdue["summary"]
        assert recovered["text"].startswith("Fresh again: orders: fresh: last update")
        assert overdue["id"] != recovered["id"]


def test_warn_sends_nothing(http: FakeHttp) -> None:
    checks = build_freshness_checks([orders])  # on_overdue: warn
    clock = Clock()
    fresh_sensor = build_freshness_sensor(clock=clock)
    notify = build_drift_notification_sensor(
        destinations=[JsonWebhook(url=dg.EnvVar(HOOK_VAR), name="hook")]
    )
    defs = dg.Definitions(assets=[orders], asset_checks=checks, sensors=[fresh_sensor, notify])
    with dg.instance_for_test() as instance:
        b = Bench(instance=instance, defs=defs, clock=clock, sensor=fresh_sensor)
        first = notify(dg.build_sensor_context(instance=instance, definitions=defs))
        for i in range(8):
            b.materialize("orders", utc(2026, 11, 1, 2) + i * D)
        b.tick(utc(2026, 11, 12))
        assert not b.latest("orders").passed
        assert isinstance(first, dg.SensorResult)
        ctx = dg.build_sensor_context(instance=instance, definitions=defs, cursor=first.cursor)
        notify(ctx)
        assert http.delivered(WEBHOOK_PATH) == []


def test_the_slack_message_of_each_episode() -> None:
    from faucet_core.config import OnDrift
    from faucet_core.errors import NotifyError
    from faucet_core.notify import CheckSeverity, DriftNotification, NotificationKind, slack_blocks

    def made(episode: str, summary: str | None = "text") -> DriftNotification:
        return DriftNotification(
            asset="orders", check="faucet_freshness", findings=(), first_index=0,
            total_findings=0, run_id="", evaluated_at=utc(2026, 11, 9, 10),
            on_drift=OnDrift.NOTIFY, severity=CheckSeverity.WARN,
            kind=NotificationKind.PROFILE_FRESHNESS, summary=summary, episode=episode,
        )  # fmt: skip

    overdue, recovered = made("overdue"), made("recovered")
    assert slack_blocks(overdue)[0]["text"]["text"] == ":warning: Overdue: orders"
    assert slack_blocks(recovered)[0]["text"]["text"] == ":white_check_mark: Fresh again: orders"
    context = slack_blocks(overdue)[-1]["elements"][0]["text"]
    assert context.startswith("faucet · check `faucet_freshness` · on_overdue `notify` · WARN")
    assert overdue.id == "orders/faucet_freshness#overdue@20261109T100000"
    with pytest.raises(NotifyError, match="has a summary, no findings"):
        made("overdue", summary=None)
