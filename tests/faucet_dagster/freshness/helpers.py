"""A real Dagster instance with materializations recorded at controlled times, and the
freshness sensor ticked at a controlled now (its evaluations recorded as the daemon does)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

import dagster as dg
from dagster._core.test_utils import freeze_time

from faucet_dagster import build_freshness_checks, build_freshness_sensor

UTC = dt.timezone.utc


@dataclass
class Clock:
    now: float = 0.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Bench:
    instance: dg.DagsterInstance
    defs: dg.Definitions
    clock: Clock
    sensor: dg.SensorDefinition
    recorded: list[dg.AssetCheckEvaluation] = field(default_factory=list)
    resources: dict[str, Any] | None = None

    def materialize(self, key: str, at: dt.datetime, partition: str | None = None) -> None:
        with freeze_time(at):
            self.instance.report_runless_asset_event(
                dg.AssetMaterialization(asset_key=key, partition=partition)
            )

    def tick(self, at: dt.datetime) -> dg.SensorResult:
        """One sensor tick at ``at``; its evaluations are stored, stamped at ``at``."""
        self.clock.now = at.timestamp()
        with dg.build_sensor_context(
            instance=self.instance, definitions=self.defs, resources=self.resources
        ) as context:
            result = self.sensor(context)
        assert isinstance(result, dg.SensorResult)
        with freeze_time(at):
            for event in result.asset_events:
                assert isinstance(event, dg.AssetCheckEvaluation)
                self.instance.report_runless_asset_event(event)
                self.recorded.append(event)
        return result

    def latest(self, key: str, check: str = "faucet_freshness") -> Any:
        ck = dg.AssetCheckKey(dg.AssetKey.from_user_string(key), check)
        record = self.instance.event_log_storage.get_latest_asset_check_execution_by_key([ck])[ck]
        return record.event.dagster_event.asset_check_evaluation_data


def bench(instance: dg.DagsterInstance, assets: list[Any], **config: Any) -> Bench:
    checks = build_freshness_checks(assets, config=config or None)
    clock = Clock()
    sensor = build_freshness_sensor(clock=clock)
    defs = dg.Definitions(assets=assets, asset_checks=checks, sensors=[sensor])
    return Bench(instance=instance, defs=defs, clock=clock, sensor=sensor)


def utc(*args: int) -> dt.datetime:
    return dt.datetime(*args, tzinfo=UTC)
