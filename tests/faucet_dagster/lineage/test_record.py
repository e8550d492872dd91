"""A real Dagster instance (SQLite storage): the profile check records the materialization,
its lineage and its profile in the catalog; the sensor records every other asset."""

from __future__ import annotations

from typing import Any

import dagster as dg
import pandas as pd
import pytest

from faucet_core.catalog import Catalog, Consumer, Contract, DatasetRef, JobRef
from faucet_dagster import FaucetResource, build_profile_checks
from faucet_dagster.lineage import build_lineage_sensor
from tests.faucet_dagster.lineage.assets import RAW_URI, checks, orders, raw_orders, report

ORDERS = DatasetRef("dagster", "orders")
REPORT = DatasetRef("dagster", "report")


def _run(
    instance: dg.DagsterInstance, store_url: str, **resource: Any
) -> dg.ExecuteInProcessResult:
    return dg.materialize(
        [raw_orders, orders, report, *checks],
        instance=instance,
        resources={"faucet": FaucetResource(store_url=store_url, **resource)},
    )


def test_the_profile_check_records_lineage_schema_owners_contract_and_profile(
    instance: dg.DagsterInstance, sqlite_url: str
) -> None:
    result = _run(instance, sqlite_url)
    run_id = result.run_id
    with Catalog(sqlite_url) as catalog:
        detail = catalog.detail(ORDERS.uri)
        (edge,) = detail.upstream
        assert (edge.source_uri, edge.job, edge.run_id) == (
            RAW_URI,
            JobRef("dagster", "orders"),
            run_id,
        )
        assert edge.column_lineage is not None
        assert edge.column_lineage.as_map() == {"id": ["order_id"], "total": ["amount", "discount"]}
        assert [(f.name, f.type) for f in detail.dataset.schema or ()] == [
            ("id", "integer"),
            ("total", "float"),
        ]
        assert detail.dataset.owners == ("team:sales",)
        (snap,) = detail.contracts
        assert snap.contract == Contract("3", ("id", "total"))
        assert [(r.run_id, r.role) for r in detail.runs] == [(run_id, "output")]
        latest = detail.latest_profile
        assert latest is not None
        assert (latest.run_id, latest.row_count, latest.status) == (run_id, 50, "warming")
        # report has no profile check: the sensor records it, not the check
        assert catalog.detail(ORDERS.id).downstream == ()


def test_the_catalog_block_of_the_resource_is_merged_after_the_run(
    instance: dg.DagsterInstance, sqlite_url: str
) -> None:
    block = {
        "datasets": [
            {
                "dataset": "dagster://orders",
                "owners": ["team:data"],
                "consumers": [{"name": "sales-dash", "kind": "dashboard", "columns": ["total"]}],
            },
            {"dataset": RAW_URI, "consumers": [{"name": "audit", "kind": "export"}]},
        ]
    }
    _run(instance, sqlite_url, catalog=block)
    with Catalog(sqlite_url) as catalog:
        detail = catalog.detail(ORDERS.id)
        # The block's owners join the asset's own, each labelled with its source.
        assert detail.dataset.owners == ("team:sales", "team:data")
        assert [str(o) for o in detail.dataset.owner_sources] == [
            "team:sales (code)",
            "team:data (config)",
        ]
        assert detail.consumers == (Consumer("sales-dash", "dashboard", "", ("total",)),)
        assert [c.name for c in catalog.detail(RAW_URI).consumers] == ["audit"]


def test_a_catalog_error_never_fails_the_check(
    instance: dg.DagsterInstance, sqlite_url: str
) -> None:
    @dg.asset(name="orders", metadata={"faucet/contract": {"version": 1}})
    def bad_contract() -> list[dict[str, int]]:
        return [{"id": 1}]

    from faucet_dagster import build_profile_checks

    result = dg.materialize(
        [bad_contract, *build_profile_checks([bad_contract])],
        instance=instance,
        resources={"faucet": FaucetResource(store_url=sqlite_url)},
    )
    assert result.success
    (evaluation,) = result.get_asset_check_evaluations()
    assert evaluation.passed
    warnings = [
        e.message
        for e in instance.all_logs(result.run_id)
        if e.level >= 30 and "could not record the lineage" in e.message
    ]
    assert warnings == [
        "faucet: could not record the lineage of orders in the catalog: asset orders: metadata "
        'faucet/contract must be {"version": ..., "columns": [...]} (a version and the column '
        "names it guarantees), found {'version': 1}"
    ]


def _tick(
    sensor: dg.SensorDefinition, instance: dg.DagsterInstance, store_url: str, cursor: str | None
) -> tuple[str, str | None]:
    resources = {"faucet": FaucetResource(store_url=store_url)}
    defs = dg.Definitions(
        assets=[raw_orders, orders, report],
        asset_checks=checks,
        sensors=[sensor],
        resources=resources,
    )
    with dg.build_sensor_context(
        instance=instance, cursor=cursor, definitions=defs, resources=resources
    ) as context:
        data = sensor.evaluate_tick(context)
        assert data.run_requests == []
        return str(data.skip_message), data.cursor


def test_the_sensor_records_every_materialization_once(
    instance: dg.DagsterInstance, sqlite_url: str
) -> None:
    sensor = build_lineage_sensor()
    assert sensor.default_status is dg.DefaultSensorStatus.STOPPED
    first = _run(instance, sqlite_url)
    message, cursor = _tick(sensor, instance, sqlite_url, None)
    assert message == "recorded 2 materialization(s); emitted 0 OpenLineage event(s)"
    with Catalog(sqlite_url) as catalog:
        (edge,) = catalog.detail(REPORT.uri).upstream
        assert (edge.source_uri, edge.run_id, edge.column_lineage) == (
            ORDERS.uri,
            first.run_id,
            None,
        )
    message, cursor = _tick(sensor, instance, sqlite_url, cursor)
    assert message == "recorded 0 materialization(s); emitted 0 OpenLineage event(s)"
    second = _run(instance, sqlite_url)
    message, _ = _tick(sensor, instance, sqlite_url, cursor)
    assert message == "recorded 2 materialization(s); emitted 0 OpenLineage event(s)"
    with Catalog(sqlite_url) as catalog:
        (edge,) = catalog.detail(REPORT.uri).upstream
        assert edge.run_id == second.run_id


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": "bad name"}, "name='bad name' is not a valid sensor name"),
        ({"batch_size": 0}, "batch_size=0 must be an integer >= 1"),
        ({"openlineage": "yes"}, "openlineage='yes' is not a client"),
        ({"namespace": " "}, "namespace must be a non-empty string"),
    ],
    ids=["name", "batch", "client", "namespace"],
)
def test_sensor_arguments_are_checked_at_definition_time(
    kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(dg.DagsterInvalidDefinitionError, match=message):
        build_lineage_sensor(**kwargs)


@dg.asset
def untyped() -> pd.DataFrame:
    return pd.DataFrame({"id": [1, 2, 3], "note": ["a", None, "c"], "gone": [None] * 3})


def test_an_asset_without_a_declared_schema_gets_the_profiled_one(
    instance: dg.DagsterInstance, sqlite_url: str
) -> None:
    dg.materialize(
        [untyped, *build_profile_checks([untyped])],
        instance=instance,
        resources={"faucet": FaucetResource(store_url=sqlite_url)},
    )
    with Catalog(sqlite_url) as catalog:
        schema = catalog.detail("dagster://untyped").dataset.schema
    assert [(f.name, f.type) for f in schema or ()] == [
        ("id", "integer"),
        ("note", "string|null"),
        ("gone", "null"),
    ]
