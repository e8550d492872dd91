"""How an asset maps to a dataset URI, and the contract metadata key."""

from __future__ import annotations

from typing import Any

import dagster as dg
import pytest

from faucet_core.catalog import Contract
from faucet_core.errors import CatalogError, ConfigError
from faucet_dagster.lineage import asset_dataset, contract_of

KEY = dg.AssetKey(["sales", "orders"])

MAPPINGS: list[tuple[str, dict[str, Any], dict[str, str], str]] = [
    ("default", {}, {}, "dagster://sales/orders"),
    (
        "faucet-dataset-uri",
        {"faucet/dataset": "postgres://db:5432/shop.public.orders", "dagster/table_name": "x"},
        {},
        "postgres://db:5432/shop.public.orders",
    ),
    (
        "faucet-dataset-naming",
        {"faucet/dataset": {"namespace": "s3://lake", "name": "mart/orders"}},
        {},
        "s3://lake/mart/orders",
    ),
    (
        "faucet-dataset-wrapped",
        {"faucet/dataset": dg.MetadataValue.text("file:///data/orders.csv")},
        {},
        "file:///data/orders.csv",
    ),
    (
        "dagster-uri",
        {"dagster/uri": "s3://lake/raw/orders.parquet"},
        {},
        "s3://lake/raw/orders.parquet",
    ),
    (
        "table-and-kind",
        {"dagster/table_name": "analytics.public.orders", "dagster/storage_kind": "Snowflake"},
        {},
        "snowflake://analytics.public.orders",
    ),
    (
        "table-kind-tag",
        {"dagster/table_name": "main.orders"},
        {"dagster/storage_kind": "duckdb"},
        "duckdb://main.orders",
    ),
    ("table-only", {"dagster/table_name": "main.orders"}, {}, "table://main.orders"),
    ("legacy-relation", {"dagster/relation_identifier": "db.t"}, {}, "table://db.t"),
]


@pytest.mark.parametrize(
    ("metadata", "tags", "uri"), [m[1:] for m in MAPPINGS], ids=[m[0] for m in MAPPINGS]
)
def test_asset_to_dataset_uri(metadata: dict[str, Any], tags: dict[str, str], uri: str) -> None:
    assert asset_dataset(KEY, metadata, tags).uri == uri


def test_a_bad_explicit_dataset_is_refused() -> None:
    with pytest.raises(CatalogError) as err:
        asset_dataset(KEY, {"faucet/dataset": 42})
    assert str(err.value) == (
        "asset sales/orders: metadata faucet/dataset is 42: give a URI such as "
        "'postgres://db:5432/shop.public.orders' or {'namespace': ..., 'name': ...}"
    )


def test_contracts() -> None:
    assert contract_of(KEY, {}) is None
    assert contract_of(
        KEY, {"faucet/contract": {"version": 7, "columns": ["contact"]}}
    ) == Contract("7", ("contact",))
    wrapped = dg.MetadataValue.json({"version": "v2", "columns": []})
    assert contract_of(KEY, {"faucet/contract": wrapped}) == Contract("v2", ())


@pytest.mark.parametrize(
    "raw",
    [
        {"columns": ["a"]},
        {"version": 1, "columns": "a"},
        {"version": 1, "columns": [], "x": 1},
        [1],
    ],
    ids=["no-version", "columns-string", "extra-key", "list"],
)
def test_bad_contracts(raw: Any) -> None:
    with pytest.raises(ConfigError) as err:
        contract_of(KEY, {"faucet/contract": raw})
    assert str(err.value) == (
        'asset sales/orders: metadata faucet/contract must be {"version": ..., "columns": [...]} '
        f"(a version and the column names it guarantees), found {raw!r}"
    )
