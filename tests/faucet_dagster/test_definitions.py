"""``build_profile_checks`` at definition time: per-asset overrides and argument errors."""

from __future__ import annotations

import re
from typing import Any

import dagster as dg
import pandas as pd
import pytest

from faucet_dagster import DEFAULT_CHECK_NAME, FaucetResource, build_profile_checks
from tests.faucet_dagster.helpers import evaluations_by_asset, materialize, orders, todays_frame


@dg.asset
def customers() -> pd.DataFrame:
    return todays_frame()[["region"]]


@dg.multi_asset(outs={"left": dg.AssetOut(), "right": dg.AssetOut()})
def pair() -> tuple[pd.DataFrame, pd.DataFrame]:
    return todays_frame(), todays_frame()


def _specs(checks: list[dg.AssetChecksDefinition]) -> dict[str, dg.AssetCheckSpec]:
    return {s.asset_key.to_user_string(): s for c in checks for s in c.check_specs}


def _config_of(spec: dg.AssetCheckSpec) -> dict[str, Any]:
    return dict(spec.metadata["faucet/config"].data)


@pytest.mark.parametrize(
    "key",
    [customers, "customers", dg.AssetKey("customers")],
    ids=["definition", "string", "asset_key"],
)
def test_asset_configs_replace_the_top_level_block(key):
    checks = build_profile_checks(
        [orders, customers],
        config={"min_history": 3, "window": 7, "on_drift": "fail"},
        asset_configs={key: {"min_history": 4}},
    )
    specs = _specs(checks)
    assert _config_of(specs["orders"])["min_history"] == 3
    assert _config_of(specs["orders"])["window"] == 7
    assert specs["orders"].blocking is True
    # The override replaces the block: window and on_drift are back to their defaults.
    override = _config_of(specs["customers"])
    assert (override["min_history"], override["window"], override["on_drift"]) == (4, 20, "warn")
    assert specs["customers"].blocking is False
    assert specs["customers"].description == (
        "faucet: profiles each materialization per column and compares it with a rolling "
        "baseline (min_history 4, window 20, on_drift warn)"
    )
    assert specs["customers"].metadata["faucet/on_drift"] == "warn"


def test_asset_configs_of_a_multi_asset_cover_each_of_its_assets():
    checks = build_profile_checks([pair], asset_configs={pair: {"min_history": 3}})
    specs = _specs(checks)
    assert sorted(specs) == ["left", "right"]
    assert {_config_of(s)["min_history"] for s in specs.values()} == {3}


def test_overrides_apply_at_run_time(instance, feed, sqlite_url):
    checks = build_profile_checks(
        [orders, customers],
        config={"min_history": 3},
        asset_configs={"customers": {"min_history": 6}},
    )
    result = materialize([orders, customers, *checks], instance, sqlite_url)
    assert result.success
    descriptions = {k: e.description for k, e in evaluations_by_asset(result).items()}
    assert descriptions == {
        "orders": "warming up: 0 of 3 run(s); drift detection starts at 3 baseline runs",
        "customers": "warming up: 0 of 6 run(s); drift detection starts at 6 baseline runs",
    }


def test_check_names_keys_and_resources():
    checks = build_profile_checks([orders, "customers"], name="profile", resource_key="store")
    assert [k.to_user_string() for c in checks for k in c.check_keys] == [
        "orders:profile",
        "customers:profile",
    ]
    assert checks[0].node_def.required_resource_keys == {"store", "io_manager"}
    assert DEFAULT_CHECK_NAME == "faucet_profile"
    default = build_profile_checks([orders])
    assert [k.name for k in default[0].check_keys] == ["faucet_profile"]


BAD_ARGUMENTS = [
    pytest.param(
        {"config": {"min_history": 1}},
        "config.min_history: 1 is invalid: Input should be greater than or equal to 2",
        id="min_history_too_small",
    ),
    pytest.param(
        {"config": {"min_histroy": 3}},
        "config.min_histroy: unknown field; remove it or check its spelling",
        id="misspelt_field",
    ),
    pytest.param(
        {"config": {"on_drift": "explode"}},
        "config.on_drift: \"explode\" is invalid: Input should be 'warn', 'notify' or 'fail'",
        id="bad_on_drift",
    ),
    pytest.param(
        {"config": 3},
        "config: expected a mapping of profiling fields, got int",
        id="config_not_a_mapping",
    ),
    pytest.param(
        {"asset_configs": {"orders": {"window": 3, "min_history": 5}}},
        "asset_configs['orders']: window (3) must be >= min_history (5): raise window or "
        "lower min_history",
        id="override_window_below_min_history",
    ),
    pytest.param(
        {"asset_configs": {"shipments": {}, "payments": {}}},
        "asset_configs names asset(s) not in assets: payments, shipments; add them to assets "
        "or remove their override",
        id="override_for_unknown_asset",
    ),
    pytest.param(
        {"asset_configs": {42: {}}},
        "per-asset config key 42 is not an asset key or definition",
        id="override_key_not_an_asset",
    ),
    pytest.param(
        {"partitions": "daily"},
        "partitions='daily' is not one of 'auto', 'per_partition', 'shared'",
        id="bad_partitions_mode",
    ),
    pytest.param(
        {"loader": "orders.parquet"},
        "loader='orders.parquet' is not callable: pass a function (ProfileLoadContext) -> data",
        id="loader_not_callable",
    ),
    pytest.param(
        {"name": "faucet-profile"},
        "name='faucet-profile' is not a valid name: use letters, digits and underscores, "
        "not starting with a digit (e.g. 'faucet_profile')",
        id="bad_name",
    ),
    pytest.param(
        {"resource_key": "class"},
        "resource_key='class' is not a valid name: use letters, digits and underscores, "
        "not starting with a digit (e.g. 'faucet')",
        id="bad_resource_key",
    ),
]


@pytest.mark.parametrize(("kwargs", "message"), BAD_ARGUMENTS)
def test_bad_arguments_fail_at_definition_time(kwargs, message):
    with pytest.raises(dg.DagsterInvalidDefinitionError, match=f"^{re.escape(message)}$"):
        build_profile_checks([orders], **kwargs)


BAD_ASSETS = [
    pytest.param(
        [], "assets is empty: pass at least one asset key or definition to profile", id="empty"
    ),
    pytest.param(
        None,
        "assets=None is not a list of assets: pass a list of asset keys, AssetSpecs or asset "
        "definitions, e.g. assets=[orders, 'customers']",
        id="none",
    ),
    pytest.param(
        [42],
        "42 (int) is not an asset: pass an AssetKey, a key string such as 'sales/orders', a "
        "list of key parts, an AssetSpec or an asset definition",
        id="not_an_asset",
    ),
    pytest.param(["  "], "an empty string is not an asset key", id="blank_key"),
    pytest.param(
        [dg.SourceAsset("raw_orders")],
        "raw_orders is a source asset, never materialized: profile checks run after a "
        "materialization; pass materializable assets",
        id="source_asset",
    ),
]


@pytest.mark.parametrize(("assets", "message"), BAD_ASSETS)
def test_bad_assets_fail_at_definition_time(assets, message):
    with pytest.raises(dg.DagsterInvalidDefinitionError, match=f"^{re.escape(message)}$"):
        build_profile_checks(assets)


def test_every_bad_field_is_named():
    with pytest.raises(dg.DagsterInvalidDefinitionError) as raised:
        build_profile_checks([orders], config={"min_history": 1, "window": 1})
    assert str(raised.value).splitlines() == [
        "config.window: 1 is invalid: Input should be greater than or equal to 2",
        "config.min_history: 1 is invalid: Input should be greater than or equal to 2",
    ]


def test_definitions_accept_the_checks():
    checks = build_profile_checks([orders, customers, pair])
    defs = dg.Definitions(
        assets=[orders, customers, pair],
        asset_checks=checks,
        resources={"faucet": FaucetResource(store_url="sqlite://")},
    )
    graph = defs.resolve_asset_graph()
    assert sorted(k.to_user_string() for k in graph.asset_check_keys) == [
        "customers:faucet_profile",
        "left:faucet_profile",
        "orders:faucet_profile",
        "right:faucet_profile",
    ]


def test_a_missing_faucet_resource_fails_when_definitions_load():
    checks = build_profile_checks([orders])
    defs = dg.Definitions(assets=[orders], asset_checks=checks)
    with pytest.raises(
        dg.DagsterInvalidDefinitionError,
        match="resource with key 'faucet' required by op 'orders_faucet_profile' was not provided",
    ):
        defs.resolve_asset_graph()
