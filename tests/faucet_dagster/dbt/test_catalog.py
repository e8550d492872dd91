"""dbt contracts and exposures in the catalog: from ``faucet catalog sync`` (the manifest
alone, before any run) and shown by ``faucet catalog show``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from faucet_core.catalog import Catalog
from faucet_dagster.cli import main
from faucet_dagster.lineage.record import sync_definitions
from tests.faucet_dagster.dbt.project import BuiltProject

DIM = "duckdb://warehouse.marts.dim_customers"
REVENUE = "duckdb://warehouse.marts.country_revenue"
FCT = "duckdb://warehouse.marts.fct_orders"
CONTRACT_COLUMNS = (
    "customer_id",
    "full_name",
    "email",
    "country",
    "signed_up_at",
    "order_count",
    "first_order_at",
    "last_order_at",
    "lifetime_value",
)


@pytest.fixture
def synced(built: BuiltProject, tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'synced.db'}"
    with Catalog(url) as catalog:
        summary = sync_definitions(catalog, built.defs)
    assert summary.assets == 12
    return url


def test_sync_records_the_enforced_contract_with_its_declared_columns(synced: str) -> None:
    with Catalog(synced) as catalog:
        (snapshot,) = catalog.detail(DIM).contracts
        assert snapshot.contract is not None
        assert snapshot.contract.columns == CONTRACT_COLUMNS
        assert len(snapshot.contract.version) == 12  # dbt's contract checksum, shortened
        # a model without contract: {enforced: true} declares none
        assert catalog.detail(FCT).contracts == ()


def test_sync_records_each_exposure_as_a_consumer_of_the_models_it_reads(synced: str) -> None:
    with Catalog(synced) as catalog:
        for uri in (DIM, REVENUE):
            (consumer,) = catalog.detail(uri).consumers
            assert (consumer.name, consumer.kind, consumer.contact) == (
                "crm_dashboard",
                "dashboard",
                "CRM analytics <crm-analytics@example.com>",
            )
        assert catalog.detail(FCT).consumers == ()


def test_sync_keeps_the_manifest_columns_as_the_schema_until_a_run_observes_one(
    synced: str,
) -> None:
    with Catalog(synced) as catalog:
        schema = catalog.detail(DIM).dataset.schema
        assert schema is not None
        assert [(f.name, f.type) for f in schema][:3] == [
            ("customer_id", "integer"),
            ("full_name", "varchar"),
            ("email", "varchar"),
        ]


def test_catalog_show_prints_the_contract_and_the_exposure(
    synced: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["catalog", "show", DIM, "--store", synced]) == 0
    out = capsys.readouterr().out
    assert (
        "    crm_dashboard (dashboard) contact CRM analytics <crm-analytics@example.com> "
        "reads every column"
    ) in out
    assert re.search(
        r"contract v[0-9a-f]{12} of dagster/marts/dim_customers declares: "
        + ", ".join(CONTRACT_COLUMNS),
        out,
    )
