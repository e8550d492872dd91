"""Partitioned assets: one baseline per static partition, one shared across time windows."""

from __future__ import annotations

import dagster as dg
import pandas as pd
import pytest

from faucet_core.store import ProfileStore
from faucet_dagster import FaucetResource, build_profile_checks
from tests.faucet_dagster.helpers import evaluation, failures, materialize, meta, orders_frame

REGIONS = dg.StaticPartitionsDefinition(["eu", "us"])
DAYS = dg.DailyPartitionsDefinition(start_date="2024-01-01")


@dg.asset(partitions_def=REGIONS)
def regional(context) -> pd.DataFrame:
    return orders_frame(REGIONS.get_partition_keys().index(context.partition_key))


@dg.asset(partitions_def=DAYS)
def events(context) -> pd.DataFrame:
    return orders_frame(int(context.partition_key[-2:]))


CASES = [
    pytest.param(
        regional, "auto", ["eu", "us"], ["regional::eu", "regional::us"], id="static-auto"
    ),
    pytest.param(regional, "shared", ["eu", "us"], ["regional"], id="static-shared"),
    pytest.param(events, "auto", ["2024-01-01", "2024-01-02"], ["events"], id="daily-auto"),
    pytest.param(
        events,
        "per_partition",
        ["2024-01-01", "2024-01-02"],
        ["events::2024-01-01", "events::2024-01-02"],
        id="daily-per_partition",
    ),
]


@pytest.mark.parametrize(("asset", "mode", "partitions", "keys"), CASES)
def test_baseline_per_partition_or_shared(instance, sqlite_url, asset, mode, partitions, keys):
    checks = build_profile_checks([asset], config={"min_history": 3}, partitions=mode)
    name = asset.key.to_user_string()
    per_partition = len(keys) > 1
    for index, partition in enumerate(partitions):
        result = materialize([asset, *checks], instance, sqlite_url, partition_key=partition)
        assert result.success, failures(result)
        ev = evaluation(result)
        learned = 0 if per_partition else index
        assert ev.description == (
            f"warming up: {learned} of 3 run(s); drift detection starts at 3 baseline runs"
        )
        assert meta(ev, "faucet/partitions") == [partition]
        expected_key = f"{name}::{partition}" if per_partition else name
        assert meta(ev, "faucet/baseline_key") == expected_key
    with ProfileStore(sqlite_url) as store:
        assert [str(k) for k in store.keys()] == keys
        if per_partition:
            for partition in partitions:
                assert store.baseline_depth(name, partition=partition) == 1
        else:
            runs = store.history(name)
            assert [r.run_id.rsplit(":", 1)[1] for r in runs if r.run_id] == partitions


def test_a_check_only_run_of_a_partition_profiles_that_partition(instance, sqlite_url):
    checks = build_profile_checks([regional], config={"min_history": 3})
    for partition in ("eu", "us"):
        assert materialize(
            [regional, *checks], instance, sqlite_url, partition_key=partition
        ).success
    check_key = next(iter(checks[0].check_keys))
    job = dg.Definitions(
        assets=[regional],
        asset_checks=checks,
        resources={"faucet": FaucetResource(store_url=sqlite_url)},
    ).resolve_implicit_global_asset_job_def()
    result = job.get_subset(
        asset_selection=set(), asset_check_selection={check_key}
    ).execute_in_process(instance=instance, partition_key="eu", raise_on_error=False)
    assert result.success, failures(result)
    ev = evaluation(result)
    assert meta(ev, "faucet/baseline_key") == "regional::eu"
    assert meta(ev, "faucet/partitions") == ["eu"]
    with ProfileStore(sqlite_url) as store:
        assert store.baseline_depth("regional", partition="eu") == 1  # not recorded twice
