"""What faucet reads from a dbt manifest, and ``warehouse=`` checked when definitions load."""

from __future__ import annotations

from typing import Any

import dagster as dg
import pytest

import faucet_dagster.dbt as dbt_api
from faucet_core.catalog import Consumer, Contract
from faucet_dagster import build_profile_checks
from faucet_dagster.dbt import dbt_node
from tests.faucet_dagster.dbt.project import BuiltProject

MODEL = "model.shop.customers"


def _manifest(**props: Any) -> dict[str, Any]:
    node = {
        "unique_id": MODEL,
        "resource_type": "model",
        "name": "customers",
        "alias": "customers_v2",
        "database": "analytics",
        "schema": "marts",
        "columns": {"id": {"name": "id"}, "email": {"name": "email"}},
        "config": {"materialized": "table"},
        **props,
    }
    exposures = {
        "exposure.shop.a": {
            "name": "crm",
            "type": "application",
            "owner": {"email": "crm@example.com"},
            "depends_on": {"nodes": [MODEL]},
        },
        "exposure.shop.b": {
            "name": "other",
            "type": "ml",
            "owner": {"name": "ML team"},
            "depends_on": {"nodes": ["model.shop.orders"]},
        },
    }
    return {"nodes": {MODEL: node}, "sources": {}, "exposures": exposures}


def _node(**props: Any) -> Any:
    node = dbt_node({"dagster_dbt/manifest": _manifest(**props), "dagster_dbt/unique_id": MODEL})
    assert node is not None
    return node


def test_the_relation_is_database_schema_and_alias() -> None:
    assert str(_node().relation) == "analytics.marts.customers_v2"


@pytest.mark.parametrize(
    ("props", "contract"),
    [
        ({}, None),
        ({"contract": {"enforced": False}}, None),
        (
            {"contract": {"enforced": True, "checksum": "0123456789abcdef"}},
            Contract("0123456789ab", ("id", "email")),
        ),
        (
            {"contract": {"enforced": True, "checksum": "0123456789abcdef"}, "version": 2},
            Contract("2", ("id", "email")),
        ),
    ],
    ids=["none", "not-enforced", "checksum", "versioned-model"],
)
def test_an_enforced_contract_becomes_a_faucet_contract(
    props: dict[str, Any], contract: Contract | None
) -> None:
    assert _node(**props).contract() == contract


def test_only_the_exposures_that_depend_on_the_model_are_its_consumers() -> None:
    assert _node().exposures() == (Consumer("crm", "application", "crm@example.com"),)


def test_other_assets_are_not_dbt_nodes() -> None:
    assert dbt_node({"dagster/table_name": "a.b.c"}) is None
    assert dbt_node(None) is None


def test_the_public_api_is_explicit() -> None:
    assert sorted(dbt_api.__all__) == [
        "DbtNode",
        "Relation",
        "dbt_node",
        "relation_loader",
        "warehouse_engine",
    ]
    for name in dbt_api.__all__:
        assert getattr(dbt_api, name) is not None


@pytest.mark.parametrize(
    ("warehouse", "message"),
    [
        (
            123,
            "warehouse of type int is not a warehouse: pass warehouse= to build_profile_checks: a "
            "SQLAlchemy URL such as 'duckdb:///warehouse.duckdb' or "
            "'postgresql+psycopg://user@host/db', dg.EnvVar('WAREHOUSE_URL'), or a SQLAlchemy "
            "Engine",
        ),
        (
            "not a url",
            "warehouse='not a url' is not a SQLAlchemy URL: pass warehouse= to "
            "build_profile_checks",
        ),
    ],
    ids=["type", "url"],
)
def test_a_bad_warehouse_is_refused_when_definitions_load(
    built: BuiltProject, warehouse: Any, message: str
) -> None:
    with pytest.raises(dg.DagsterInvalidDefinitionError) as info:
        build_profile_checks([built.assets], warehouse=warehouse)
    assert str(info.value).startswith(message)


def test_a_password_in_a_bad_warehouse_url_is_not_shown(built: BuiltProject) -> None:
    with pytest.raises(dg.DagsterInvalidDefinitionError) as info:
        build_profile_checks([built.assets], warehouse="postgresql://u:s3cret@h:notaport/db")
    assert "s3cret" not in str(info.value)


def test_a_warehouse_for_assets_that_are_not_dbt_is_refused() -> None:
    @dg.asset
    def plain() -> int:
        return 1

    with pytest.raises(dg.DagsterInvalidDefinitionError) as info:
        build_profile_checks([plain], warehouse="duckdb:///w.duckdb")
    assert str(info.value) == (
        "warehouse= profiles dbt models in their warehouse, but no asset in assets comes "
        "from @dbt_assets: pass the dbt assets definition, or a loader= for other assets"
    )


def test_one_check_per_model_and_seed_of_the_multi_asset(built: BuiltProject) -> None:
    checks = build_profile_checks([built.assets], warehouse="duckdb:///w.duckdb")
    keys = sorted(k.asset_key.to_user_string() for c in checks for k in c.check_keys)
    assert keys == sorted(k.to_user_string() for k in built.assets.keys)
    assert len(keys) == 12


def test_a_warehouse_is_a_url_string_a_url_or_an_engine() -> None:
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url

    from faucet_dagster.dbt import warehouse_engine

    url = make_url("postgresql+psycopg://u:pw@127.0.0.1:5432/test")
    assert warehouse_engine(url).url.password == "pw"  # not the masked text of str(url)
    engine = create_engine("duckdb:///:memory:")
    assert warehouse_engine(engine) is engine
    assert warehouse_engine("duckdb:///:memory:") is warehouse_engine("duckdb:///:memory:")
