"""``profiled_asset``: the asset's own step profiles the value it returns and reports the
faucet check, with the severities, blocking and store records of the separate check."""

from __future__ import annotations

from typing import Any

import dagster as dg
import pandas as pd
import pytest

from faucet_core.store import ProfileStore
from faucet_dagster import FaucetResource, build_profile_checks, profiled_asset
from tests.faucet_dagster.helpers import (
    ROWS,
    evaluation,
    failures,
    finding_keys,
    materialized,
    meta,
    orders,
    todays_frame,
)

WARMUP = 3


def _orders(on_drift: str = "warn", **kwargs: Any) -> dg.AssetsDefinition:
    @profiled_asset(config={"min_history": WARMUP, "on_drift": on_drift}, name="orders", **kwargs)
    def orders_in_step() -> pd.DataFrame:
        return todays_frame()

    return orders_in_step


@dg.asset
def report(orders: pd.DataFrame) -> int:
    return len(orders)


def _run(defs: list[Any], instance: dg.DagsterInstance, url: str, **kw: Any):  # type: ignore[no-untyped-def]
    return dg.materialize(
        defs,
        instance=instance,
        resources={"faucet": FaucetResource(store_url=url)},
        raise_on_error=False,
        **kw,
    )


def _steps(result: dg.ExecuteInProcessResult) -> list[str]:
    return [e.step_key for e in result.all_events if e.is_step_start and e.step_key]


def _warm_up(defs: list[Any], instance, feed, url: str) -> None:  # type: ignore[no-untyped-def]
    for day in range(WARMUP):
        feed.day = day
        assert _run(defs, instance, url).success


def test_the_check_runs_in_the_assets_step_and_warms_up(instance, feed, sqlite_url):
    asset = _orders()
    assert [str(k) for k in asset.check_keys] == [
        "AssetCheckKey(asset_key=AssetKey(['orders']), name='faucet_profile')"
    ]
    spec = next(iter(asset.check_specs))
    assert spec.blocking is False
    # The output keeps the type of the function's annotation (IO managers read it).
    assert asset.op.output_def_named("result").dagster_type.typing_type is pd.DataFrame
    assert spec.metadata["faucet/on_drift"] == "warn"
    result = _run([asset], instance, sqlite_url)
    assert result.success, failures(result)
    assert _steps(result) == ["orders"]  # no step of its own
    ev = evaluation(result)
    assert ev.check_name == "faucet_profile"
    assert ev.passed
    assert meta(ev, "faucet/status") == "warming"
    assert meta(ev, "faucet/warming") == f"warming up: 0 of {WARMUP} run(s)"
    assert meta(ev, "faucet/row_count") == ROWS
    assert ev.target_materialization_data is not None  # the materialization of this step
    assert ev.target_materialization_data.run_id == result.run_id


def test_drift_under_warn_is_a_warn_and_the_run_goes_on(instance, feed, sqlite_url):
    defs = [_orders("warn"), report]
    _warm_up(defs, instance, feed, sqlite_url)
    feed.day, feed.null_share = WARMUP, 0.5
    result = _run(defs, instance, sqlite_url)
    assert result.success, failures(result)
    ev = evaluation(result)
    assert not ev.passed
    assert ev.severity is dg.AssetCheckSeverity.WARN
    assert "amount.null_rate" in finding_keys(ev)
    assert materialized(result) == ["orders", "report"]


def test_drift_under_fail_fails_the_step_after_writing_and_stops_downstream(
    instance, feed, sqlite_url
):
    defs = [_orders("fail"), report]
    assert next(iter(defs[0].check_specs)).blocking is True  # type: ignore[union-attr]
    _warm_up(defs, instance, feed, sqlite_url)
    feed.day, feed.null_share = WARMUP, 0.5
    result = _run(defs, instance, sqlite_url)
    assert not result.success
    ev = evaluation(result)
    assert not ev.passed
    assert ev.severity is dg.AssetCheckSeverity.ERROR
    assert ev.blocking
    assert materialized(result) == ["orders"]  # written, but report did not run
    assert _steps(result) == ["orders"]
    assert "1 blocking asset check failed with ERROR severity" in failures(result)[0]
    runs = ProfileStore(sqlite_url).history("orders")
    assert [r.in_baseline for r in runs] == [True] * WARMUP + [False]  # kept out of the baseline


def test_a_value_that_cannot_be_profiled_is_a_check_error_not_a_failed_asset(
    instance, feed, sqlite_url
):
    @profiled_asset(config={"on_drift": "warn"})
    def nothing() -> None:
        return None

    result = _run([nothing], instance, sqlite_url)
    assert result.success, failures(result)
    ev = evaluation(result)
    assert meta(ev, "faucet/status") == "error"
    assert meta(ev, "faucet/error") == (
        "nothing returned no value to profile (it writes its data itself): return the value "
        "for the IO manager to store, or profile it with build_profile_checks(loader=...)"
    )
    assert ProfileStore(sqlite_url).keys() == []


QUANTILES = ("p50", "p95")


def _exact(profile: dict[str, Any]) -> dict[str, Any]:
    """A stored profile without what a KLL sketch estimates (randomly, in either form)."""
    columns = [
        {
            **{k: v for k, v in c.items() if k != "sketches"},
            "numeric": c["numeric"]
            and {k: v for k, v in c["numeric"].items() if k not in QUANTILES},
        }
        for c in profile["columns"]
    ]
    return {**profile, "columns": columns}


def _numbers(ev: dg.AssetCheckEvaluation) -> dict[str, Any]:
    return {k: meta(ev, k) for k in ev.metadata if k != "summary" and not k.endswith(QUANTILES)}


def test_the_same_value_gives_the_same_profile_both_ways(instance, feed, tmp_path):
    """The KLL quantiles (p50, p95) are estimates that differ between two profiles of the
    same data in either form: they are compared within the sketch's error, the rest exactly."""
    separate_url = f"sqlite:///{tmp_path / 'separate.db'}"
    in_step_url = f"sqlite:///{tmp_path / 'in_step.db'}"
    checks = build_profile_checks([orders], config={"min_history": WARMUP})
    for day in range(2):
        feed.day = day
        separate = _run([orders, *checks], instance, separate_url)
        in_step = _run([_orders()], instance, in_step_url)
        assert separate.success
        assert in_step.success
        a, b = evaluation(separate), evaluation(in_step)
        assert (a.asset_key, a.check_name, a.severity) == (b.asset_key, b.check_name, b.severity)
        assert _numbers(a) == _numbers(b)
    first = ProfileStore(separate_url).history("orders")
    second = ProfileStore(in_step_url).history("orders")
    assert [_exact(r.profile.to_dict()) for r in first] == [
        _exact(r.profile.to_dict()) for r in second
    ]
    assert [r.status for r in first] == [r.status for r in second]
    for x, y in zip(first, second, strict=True):
        p, q = x.profile.columns["amount"].numeric, y.profile.columns["amount"].numeric
        assert p is not None
        assert q is not None
        for name in QUANTILES:
            assert abs(getattr(p, name) - getattr(q, name)) <= 0.02 * (p.max - p.min)


def test_a_static_partition_keeps_its_own_baseline(instance, feed, sqlite_url):
    @profiled_asset(partitions_def=dg.StaticPartitionsDefinition(["eu", "us"]))
    def regional(context) -> pd.DataFrame:  # type: ignore[no-untyped-def]
        return todays_frame().assign(region=context.partition_key)

    result = _run([regional], instance, sqlite_url, partition_key="us")
    assert result.success, failures(result)
    ev = evaluation(result)
    assert meta(ev, "faucet/baseline_key") == "regional::us"
    assert meta(ev, "faucet/partitions") == ["us"]


class Warehouse(dg.ConfigurableResource):
    rows: int


def test_inputs_resources_and_an_output_pass_through(instance, feed, sqlite_url):
    @dg.asset
    def raw() -> pd.DataFrame:
        return todays_frame()

    @profiled_asset(group_name="sales", metadata={"owner": "data@example.com"})
    def head(context, raw: pd.DataFrame, warehouse: Warehouse) -> dg.Output[pd.DataFrame]:  # type: ignore[no-untyped-def]
        context.log.info("taking the head")
        return dg.Output(raw.head(warehouse.rows), metadata={"kept": warehouse.rows})

    result = dg.materialize(
        [raw, head],
        instance=instance,
        resources={"faucet": FaucetResource(store_url=sqlite_url), "warehouse": Warehouse(rows=50)},
        raise_on_error=False,
    )
    assert result.success, failures(result)
    assert meta(evaluation(result), "faucet/row_count") == 50
    assert head.group_names_by_key[dg.AssetKey("head")] == "sales"
    [mat] = list(result.asset_materializations_for_node("head"))
    assert mat.metadata["kept"].value == 50


def test_a_function_that_yields_is_refused_when_defined():
    with pytest.raises(dg.DagsterInvalidDefinitionError) as info:

        @profiled_asset
        def streamed():  # type: ignore[no-untyped-def]
            yield dg.Output(1)

    assert str(info.value) == (
        "@profiled_asset on 'streamed': the function yields or is async; in-step profiling "
        "needs the value it returns. Return the value (or a dg.Output), or keep @dg.asset and "
        "profile it with build_profile_checks"
    )


def test_check_specs_of_its_own_are_refused_when_defined():
    spec = dg.AssetCheckSpec("mine", asset="orders")
    with pytest.raises(dg.DagsterInvalidDefinitionError, match="check_specs is not supported"):

        @profiled_asset(check_specs=[spec])
        def orders_() -> int:
            return 1


def test_a_backfill_policy_of_several_partitions_per_run_is_refused_when_defined():
    daily = dg.DailyPartitionsDefinition(start_date="2026-01-01")
    policy = dg.BackfillPolicy.single_run()
    with pytest.raises(dg.DagsterInvalidDefinitionError) as info:

        @profiled_asset(partitions_def=daily, backfill_policy=policy)
        def days() -> pd.DataFrame:
            return todays_frame()

    assert str(info.value) == (
        f"@profiled_asset on 'days': backfill_policy={policy!r} runs several partitions in one "
        "step, and the in-step profile covers one partition per run: use "
        "dg.BackfillPolicy.multi_run(1), or @dg.asset with build_profile_checks"
    )
