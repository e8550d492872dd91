"""Learned freshness on a real Dagster instance: materializations at controlled times,
the sensor ticked with build_sensor_context, evaluations stored as the daemon stores them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import dagster as dg
import pytest
from dagster._core.test_utils import freeze_time

from faucet_core.catalog import Catalog
from faucet_core.store import ProfileStore
from faucet_core.store.metrics import ASSET_DEADLINE as DEADLINE
from faucet_core.store.metrics import exposition
from faucet_dagster import FaucetResource, build_freshness_checks, build_freshness_sensor
from tests.faucet_dagster.freshness.helpers import UTC, Bench, Clock, bench, utc

H = dt.timedelta(hours=1)
D = dt.timedelta(days=1)


@dg.asset
def orders() -> None: ...


@dg.asset
def clicks() -> None: ...


@dg.asset
def payroll() -> None: ...


@dg.asset(partitions_def=dg.DailyPartitionsDefinition(start_date="2026-10-01"))
def events() -> None: ...


@dg.asset_check(asset=orders)
def _other_check() -> dg.AssetCheckResult:
    return dg.AssetCheckResult(passed=True)


@pytest.fixture
def instance() -> Iterator[dg.DagsterInstance]:
    with dg.instance_for_test() as inst:
        yield inst


def daily(b: Bench, key: str, first: dt.datetime, days: int, skip: tuple[int, ...] = ()) -> None:
    for i in range(days):
        if i not in skip:
            b.materialize(key, first + i * D)


def test_daily_asset_overdue_once_per_episode_and_recovered(instance: dg.DagsterInstance) -> None:
    b = bench(instance, [orders], on_overdue="notify")
    daily(b, "orders", utc(2026, 11, 1, 2), 10)  # last 11-10 02:00
    first = b.tick(utc(2026, 11, 10, 12))
    assert len(first.asset_events) == 1
    data = b.latest("orders")
    assert data.passed
    assert data.metadata["faucet/status"].value == "fresh"
    assert "learned cadence: daily at 02:00 UTC" in data.description
    assert b.tick(utc(2026, 11, 10, 13)).asset_events == []  # nothing new: nothing recorded
    # The 11-11 run never happens: overdue after the learned deadline, reported once.
    late = b.tick(utc(2026, 11, 11, 9))
    assert len(late.asset_events) == 1
    data = b.latest("orders")
    assert not data.passed
    assert data.severity is dg.AssetCheckSeverity.WARN
    assert data.metadata["faucet/episode"].value == "overdue"
    assert data.description.startswith("overdue by ")
    assert b.tick(utc(2026, 11, 12, 9)).asset_events == []  # still overdue: not again
    b.materialize("orders", utc(2026, 11, 12, 10))
    back = b.tick(utc(2026, 11, 12, 11))
    assert len(back.asset_events) == 1
    data = b.latest("orders")
    assert data.passed
    assert data.metadata["faucet/episode"].value == "recovered"
    episodes = [e.metadata.get("faucet/episode") for e in b.recorded]
    assert [getattr(e, "value", e) for e in episodes if e] == ["overdue", "recovered"]


def test_a_skipped_day_in_the_history_and_a_late_day_inside_the_range(
    instance: dg.DagsterInstance,
) -> None:
    b = bench(instance, [orders])
    start = utc(2026, 11, 1, 2)
    for i, minutes in enumerate([0, 40, 90, 0, 20, 150, 0, 60, 110, 0]):
        if i != 4:  # 11-05 skipped
            b.materialize("orders", start + i * D + dt.timedelta(minutes=minutes))
    # 11-11 at 04:29: as late as the latest day seen (04:30): fresh, not overdue.
    b.tick(utc(2026, 11, 11, 4, 29))
    assert b.latest("orders").passed
    b.tick(utc(2026, 11, 11, 9))
    assert not b.latest("orders").passed


def test_hourly_asset(instance: dg.DagsterInstance) -> None:
    b = bench(instance, [clicks])
    for i in range(24):
        b.materialize("clicks", utc(2026, 11, 1) + i * H + dt.timedelta(minutes=5))
    b.tick(utc(2026, 11, 1, 23, 50))
    assert b.latest("clicks").passed
    b.tick(utc(2026, 11, 2, 1, 30))
    data = b.latest("clicks")
    assert not data.passed
    assert "every 1 h" in data.description


def test_weekday_only_asset_is_not_overdue_on_the_weekend(instance: dg.DagsterInstance) -> None:
    b = bench(instance, [payroll])
    day = dt.date(2026, 11, 2)  # a Monday
    for i in range(19):  # to Friday 11-20
        date = day + dt.timedelta(days=i)
        if date.weekday() < 5:
            b.materialize("payroll", dt.datetime.combine(date, dt.time(6), UTC))
    b.tick(utc(2026, 11, 22, 12))  # Sunday noon
    data = b.latest("payroll")
    assert data.passed
    assert "Mon-Fri" in data.description
    b.tick(utc(2026, 11, 23, 12))  # Monday noon, no run
    assert not b.latest("payroll").passed


def test_partitioned_asset_expects_the_next_partition(instance: dg.DagsterInstance) -> None:
    b = bench(instance, [events])
    for i in range(8):  # partition 10-31 lands 11-01 01:00, ... 11-07 lands 11-08 01:00
        day = dt.date(2026, 10, 31) + dt.timedelta(days=i)
        b.materialize("events", utc(2026, 11, 1, 1) + i * D, partition=day.isoformat())
    b.materialize("events", utc(2026, 11, 8, 15), partition="2026-10-05")  # an old one again
    b.tick(utc(2026, 11, 9, 12))
    data = b.latest("events")
    assert not data.passed
    assert data.metadata["faucet/next_partition"].value == "2026-11-08"
    assert "last update 2026-11-08 01:00 UTC" in data.description
    assert data.description.endswith("next partition expected: 2026-11-08")


def test_dst_change_daily_local_schedule(instance: dg.DagsterInstance) -> None:
    b = bench(instance, [orders], timezone="Europe/Berlin")
    berlin = dt.timezone(dt.timedelta(hours=2))  # CEST until 10-25 03:00
    cet = dt.timezone(dt.timedelta(hours=1))
    for day in range(15, 25):  # 06:00 CEST = 04:00 UTC
        b.materialize("orders", dt.datetime(2026, 10, day, 6, tzinfo=berlin))
    # After the change 06:00 CET is 05:00 UTC: not overdue at 05:30 UTC on 10-25.
    b.tick(dt.datetime(2026, 10, 25, 6, 30, tzinfo=cet))
    data = b.latest("orders")
    assert data.passed
    assert data.metadata["faucet/freshness"].value["expected"] == "2026-10-25T05:00:00+00:00"


def test_warming_up_and_max_lag(instance: dg.DagsterInstance) -> None:
    b = bench(instance, [orders, clicks])
    daily(b, "orders", utc(2026, 11, 1, 2), 3)
    b.tick(utc(2026, 12, 30))
    data = b.latest("orders")
    assert data.passed
    assert data.metadata["faucet/status"].value == "warming"
    lagged = bench(instance, [clicks], max_lag=3600, on_overdue="fail")
    b.materialize("clicks", utc(2026, 11, 1))
    lagged.tick(utc(2026, 11, 1, 1, 1))
    data = lagged.latest("clicks")
    assert not data.passed
    assert data.severity is dg.AssetCheckSeverity.ERROR
    assert "(max_lag 1 h)" in data.description


def test_the_check_in_a_run_reports_fresh_after_its_materialization(
    instance: dg.DagsterInstance,
) -> None:
    @dg.asset
    def table() -> int:
        return 1

    checks = build_freshness_checks([table])
    result = dg.materialize([table, *checks], instance=instance)
    assert result.success
    [evaluation] = result.get_asset_check_evaluations()
    assert evaluation.passed
    assert evaluation.metadata["faucet/status"].value == "warming"


def test_bad_arguments_are_definition_errors() -> None:
    with pytest.raises(dg.DagsterInvalidDefinitionError, match=r"freshness|config.timezone"):
        build_freshness_checks([orders], config={"timezone": "Nowhere/Land"})
    with pytest.raises(dg.DagsterInvalidDefinitionError, match=r"asset_configs names asset"):
        build_freshness_checks([orders], asset_configs={"clicks": {}})
    with pytest.raises(dg.DagsterInvalidDefinitionError, match=r"not a faucet freshness check"):
        build_freshness_sensor([_other_check])


def test_the_sensor_records_the_overdue_gauge_for_prometheus(
    instance: dg.DagsterInstance, sqlite_url: str
) -> None:
    checks = build_freshness_checks([orders, clicks])
    clock = Clock()
    sensor = build_freshness_sensor(resource_key="faucet", clock=clock)
    resources = {"faucet": FaucetResource(store_url=sqlite_url)}
    defs = dg.Definitions(
        assets=[orders, clicks], asset_checks=checks, sensors=[sensor], resources=resources
    )
    b = Bench(instance=instance, defs=defs, clock=clock, sensor=sensor, resources=resources)
    daily(b, "orders", utc(2026, 11, 1, 2), 8)
    b.tick(utc(2026, 11, 12))
    with ProfileStore(sqlite_url) as store:
        text = exposition(store).decode()
    assert 'faucet_asset_overdue{asset="orders"} 1.0' in text
    assert 'faucet_asset_overdue{asset="clicks"} 0.0' in text  # never materialized: warming
    with Catalog(sqlite_url) as catalog:  # what the console's datasets list reads
        assert catalog.overdue_assets() == {"orders": True, "clicks": False}
    deadline = utc(2026, 11, 9, 2) + dt.timedelta(hours=2.4)
    [line] = [x for x in text.splitlines() if x.startswith(DEADLINE + '{asset="orders"}')]
    assert float(line.split()[-1]) == deadline.timestamp()


def test_an_external_asset_learns_from_the_update_times_its_observations_state(
    instance: dg.DagsterInstance,
) -> None:
    partner = dg.AssetSpec("partner_rates")
    b = bench(instance, [partner])
    for day in range(1, 9):  # delivered daily at 06:00, observed at noon
        stated = utc(2026, 11, day, 6).timestamp()
        with freeze_time(utc(2026, 11, day, 12)):
            instance.report_runless_asset_event(
                dg.AssetObservation(
                    asset_key="partner_rates",
                    metadata={"dagster/last_updated_timestamp": dg.MetadataValue.timestamp(stated)},
                )
            )
            instance.report_runless_asset_event(dg.AssetObservation(asset_key="partner_rates"))
    b.tick(utc(2026, 11, 9, 7))
    data = b.latest("partner_rates")
    assert data.passed
    assert "daily at 06:00 UTC" in data.description
    b.tick(utc(2026, 11, 9, 12))
    assert not b.latest("partner_rates").passed


def test_a_failed_run_that_never_evaluated_the_check_does_not_hold_the_sensor(
    instance: dg.DagsterInstance,
) -> None:
    @dg.asset(name="orders")
    def broken_orders() -> None:
        raise RuntimeError("upstream is down")

    b = bench(instance, [orders])
    daily(b, "orders", utc(2026, 11, 1, 2), 8)
    checks = build_freshness_checks([broken_orders])
    failed = dg.materialize([broken_orders, *checks], instance=instance, raise_on_error=False)
    assert not failed.success
    [record] = instance.event_log_storage.get_asset_check_execution_history(
        dg.AssetCheckKey(dg.AssetKey("orders"), "faucet_freshness"), limit=1
    )
    assert record.status.value == "PLANNED"  # the check never ran
    b.tick(utc(2026, 11, 12))
    assert not b.latest("orders").passed


def test_public_api_and_sensor_argument_errors() -> None:
    import faucet_dagster

    for name in (
        "build_freshness_checks",
        "build_freshness_sensor",
        "DEFAULT_FRESHNESS_CHECK_NAME",
    ):
        assert name in faucet_dagster.__all__
    with pytest.raises(dg.DagsterInvalidDefinitionError, match=r"minimum_interval_seconds=0"):
        build_freshness_sensor(minimum_interval_seconds=0)
    with pytest.raises(dg.DagsterInvalidDefinitionError, match=r"name='bad name' is not a valid"):
        build_freshness_sensor(name="bad name")
    with pytest.raises(dg.DagsterInvalidDefinitionError, match=r"clock=5 is not callable"):
        build_freshness_sensor(clock=5)  # type: ignore[arg-type]
