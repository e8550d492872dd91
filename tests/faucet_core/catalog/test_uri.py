"""Canonical URIs and ids of datasets."""

from __future__ import annotations

import hashlib

import pytest

from faucet_core.catalog import DatasetRef, dataset_id, dataset_uri, split_uri
from faucet_core.errors import CatalogError

CASES = [
    ("file", "/data/a.csv", "file:///data/a.csv"),
    ("s3://bucket", "raw/orders.parquet", "s3://bucket/raw/orders.parquet"),
    ("s3://bucket/", "/raw/orders.parquet", "s3://bucket/raw/orders.parquet"),
    ("postgres://db:5432", "shop.public.orders", "postgres://db:5432/shop.public.orders"),
    ("dagster", "sales/orders", "dagster://sales/orders"),
    ("bigquery", "proj.ds.table", "bigquery://proj.ds.table"),
    ("snowflake", "analytics.public.orders", "snowflake://analytics.public.orders"),
    ("file://.", "out/records.jsonl", "file://./out/records.jsonl"),
    ("HDFS://nn:8020", "/warehouse/t", "hdfs://nn:8020/warehouse/t"),
]


@pytest.mark.parametrize(("namespace", "name", "uri"), CASES, ids=[c[2] for c in CASES])
def test_uri_of_namespace_and_name(namespace: str, name: str, uri: str) -> None:
    assert dataset_uri(namespace, name) == uri


@pytest.mark.parametrize(("namespace", "name", "uri"), CASES, ids=[c[2] for c in CASES])
def test_split_uri_round_trips(namespace: str, name: str, uri: str) -> None:
    assert dataset_uri(*split_uri(uri)) == uri


def test_split_uri_gives_openlineage_naming() -> None:
    assert split_uri("file:///data/a.csv") == ("file", "/data/a.csv")
    assert split_uri("s3://bucket/raw/x.parquet") == ("s3://bucket", "raw/x.parquet")
    assert split_uri("postgres://db:5432/shop.public.c") == ("postgres://db:5432", "shop.public.c")
    assert split_uri("dagster://sales/orders") == ("dagster", "sales/orders")


def test_id_is_a_short_stable_hash_prefix_of_the_uri() -> None:
    uri = "file:///data/a.csv"
    assert dataset_id(uri) == hashlib.sha256(uri.encode()).hexdigest()[:12]
    assert DatasetRef("file", "/data/a.csv").id == dataset_id(uri) == "1ed995f3d48d"


@pytest.mark.parametrize(
    ("uri", "message"),
    [
        (
            "orders.csv",
            "dataset URI 'orders.csv' has no scheme: write it as scheme://..., e.g. "
            "file:///data/orders.csv, postgres://db:5432/shop.public.orders or dagster://orders",
        ),
        ("s3://", "dataset URI 's3://' names nothing after s3://"),
    ],
    ids=["no-scheme", "empty"],
)
def test_bad_uris(uri: str, message: str) -> None:
    with pytest.raises(CatalogError) as err:
        split_uri(uri)
    assert str(err.value) == message


def test_empty_name_is_refused() -> None:
    with pytest.raises(CatalogError, match="must both be non-empty"):
        dataset_uri("file", " ")
