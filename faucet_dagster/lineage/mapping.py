"""How a Dagster asset maps to a catalog dataset, a job, a schema, column lineage and a
data contract.

The dataset of an asset, from its definition metadata, first match wins:

1. ``faucet/dataset``: a URI (``postgres://db:5432/shop.public.orders``) or
   ``{"namespace": ..., "name": ...}`` (OpenLineage naming), to join what other
   producers report about the same table;
2. ``dagster/uri``: a storage URI (``s3://bucket/key``, ``file:///data/a.csv``);
3. ``dagster/table_name`` (or the legacy ``dagster/relation_identifier``): namespace is
   the ``dagster/storage_kind`` (metadata, else tag; ``table`` when neither is set),
   name is the table name: ``snowflake://analytics.public.orders``;
4. otherwise ``dagster://<asset key>``: ``dagster://sales/orders``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import dagster as dg

import faucet_dagster.metadata as md
from faucet_core.catalog import Contract, DatasetRef, FieldRef, JobRef, SchemaField, split_uri
from faucet_core.errors import CatalogError, ConfigError
from faucet_dagster.dbt.manifest import dbt_node
from faucet_dagster.metadata import unwrap

__all__ = [
    "CONTRACT_KEY",
    "DAGSTER_NAMESPACE",
    "DATASET_KEY",
    "URI_KEY",
    "asset_dataset",
    "asset_job",
    "column_lineage_of",
    "contract_of",
    "owners_of",
    "schema_of",
]

DATASET_KEY = md.DATASET
URI_KEY = "dagster/uri"
CONTRACT_KEY = md.CONTRACT
OWNER_KEY = "owner"
"""Definition metadata naming an asset's owner (``metadata={"owner": "data-eng"}``, as
Dagster's own examples write it): a string or a list of strings."""
DAGSTER_NAMESPACE = "dagster"
_TABLE_KEYS = ("dagster/table_name", "dagster/relation_identifier")
_KIND_KEY = "dagster/storage_kind"


def asset_job(key: dg.AssetKey) -> JobRef:
    """The job that writes an asset's dataset in the catalog: ``dagster/<asset key>``."""
    return JobRef(DAGSTER_NAMESPACE, key.to_user_string())


def asset_dataset(
    key: dg.AssetKey,
    metadata: Mapping[str, Any] | None = None,
    tags: Mapping[str, str] | None = None,
) -> DatasetRef:
    """The dataset an asset writes (see the module docstring for the rules)."""
    md = metadata or {}
    explicit = unwrap(md.get(DATASET_KEY))
    where = f"asset {key.to_user_string()}: metadata {DATASET_KEY}"
    if explicit is not None:
        if isinstance(explicit, str) and explicit.strip():
            return DatasetRef(*split_uri(explicit))
        if isinstance(explicit, Mapping) and {"namespace", "name"} <= set(explicit):
            return DatasetRef(str(explicit["namespace"]), str(explicit["name"]))
        raise CatalogError(
            f"{where} is {explicit!r}: give a URI such as 'postgres://db:5432/shop.public.orders' "
            "or {'namespace': ..., 'name': ...}"
        )
    uri = unwrap(md.get(URI_KEY))
    if isinstance(uri, str) and uri.strip():
        return DatasetRef(*split_uri(uri))
    for table_key in _TABLE_KEYS:
        table = unwrap(md.get(table_key))
        if isinstance(table, str) and table.strip():
            kind = unwrap(md.get(_KIND_KEY)) or (tags or {}).get(_KIND_KEY) or "table"
            return DatasetRef(str(kind).strip().lower(), table.strip())
    return DatasetRef(DAGSTER_NAMESPACE, key.to_user_string())


def owners_of(key: dg.AssetKey, owners: Any, metadata: Mapping[str, Any] | None) -> tuple[str, ...]:
    """An asset's owners: its ``owners=`` and the ``owner`` of its definition metadata, in
    that order, each once."""
    raw = unwrap((metadata or {}).get(OWNER_KEY))
    if raw is None:
        extra: list[str] = []
    elif isinstance(raw, str) and raw.strip():
        extra = [raw.strip()]
    elif isinstance(raw, (list, tuple)) and all(isinstance(o, str) and o.strip() for o in raw):
        extra = [o.strip() for o in raw]
    else:
        raise ConfigError(
            f"asset {key.to_user_string()}: metadata {OWNER_KEY} is {raw!r}: give an owner "
            'name or a list of them, e.g. "data-eng" or ["alice@example.com", "team:data"]'
        )
    return tuple(dict.fromkeys([*(owners or ()), *extra]))


def schema_of(value: Any) -> tuple[SchemaField, ...] | None:
    """``dagster/column_schema`` (a ``TableSchema``, wrapped or not) as schema fields."""
    schema = unwrap(value)
    if not isinstance(schema, dg.TableSchema):
        return None
    return tuple(
        SchemaField(name=c.name, type=c.type or None, description=c.description or None)
        for c in schema.columns
    )


def column_lineage_of(value: Any, dataset_of: Any) -> dict[str, tuple[FieldRef, ...]] | None:
    """``dagster/column_lineage`` as ``{out: (input column, ...)}``; ``dataset_of`` maps a
    dependency's asset key to its dataset."""
    lineage = unwrap(value)
    if not isinstance(lineage, dg.TableColumnLineage):
        return None
    return {
        column: tuple(FieldRef(dataset_of(dep.asset_key), dep.column_name) for dep in deps)
        for column, deps in lineage.deps_by_column.items()
    }


def contract_of(key: dg.AssetKey, metadata: Mapping[str, Any] | None) -> Contract | None:
    """The data contract an asset declares in ``faucet/contract``:
    ``{"version": 3, "columns": ["id", "email"]}``; else, for a dbt model, its enforced dbt
    contract (``contract: {enforced: true}``) with the columns it declares."""
    raw = unwrap((metadata or {}).get(CONTRACT_KEY))
    if raw is None:
        node = dbt_node(metadata)
        return node.contract() if node is not None else None
    rule = (
        f'asset {key.to_user_string()}: metadata {CONTRACT_KEY} must be {{"version": ..., '
        f'"columns": [...]}} (a version and the column names it guarantees), found {raw!r}'
    )
    if not isinstance(raw, Mapping) or set(raw) - {"version", "columns"}:
        raise ConfigError(rule)
    version, columns = raw.get("version"), raw.get("columns")
    if version is None or isinstance(version, bool) or not str(version).strip():
        raise ConfigError(rule)
    if not isinstance(columns, (list, tuple)) or not all(isinstance(c, str) and c for c in columns):
        raise ConfigError(rule)
    return Contract(str(version), tuple(columns))
