"""``sql_lineage_metadata``: the column lineage and output schema of the SQL an asset runs,
as materialization metadata.

An asset that runs SQL (DuckDB, Snowflake, BigQuery, PostgreSQL, ...) calls it with the SQL
and the tables the SQL reads, each mapped to the asset (or dataset URI) it is::

    @dg.asset(deps=["orders"])
    def revenue(context: dg.AssetExecutionContext, duckdb: DuckDBResource):
        sql = "select region, sum(amount) as revenue from orders group by region"
        with duckdb.get_connection() as conn:
            conn.execute(f"create or replace table revenue as {sql}")
        return dg.MaterializeResult(
            metadata=sql_lineage_metadata(sql, {"orders": "orders"}, dialect="duckdb",
                                          context=context)
        )

It returns ``dagster/column_lineage`` (Dagster's ``TableColumnLineage``: what the UI
shows), ``dagster/column_schema`` (when sqlglot can tell every output column's type) and
``faucet/column_lineage`` (the same lineage with OpenLineage's transformation types, the
columns that filter, join, group or sort the rows, and which tables' lineage is
incomplete), which the catalog records on the asset's edges. The derivation is
:func:`faucet_core.lineage.sql.sql_lineage`; SQL it cannot follow records no column
lineage (the edges stay opaque), never a guess.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import dagster as dg

import faucet_dagster.metadata as md
from faucet_core.catalog import Catalog, DatasetRef, FieldRef, split_uri
from faucet_core.errors import ConfigError, FaucetError
from faucet_core.lineage.sql import SourceColumn, SqlLineage, sql_lineage
from faucet_dagster.lineage.mapping import asset_dataset
from faucet_dagster.metadata import unwrap

__all__ = ["FAUCET_LINEAGE_KEY", "faucet_lineage_of", "sql_lineage_metadata"]

FAUCET_LINEAGE_KEY = md.COLUMN_LINEAGE
"""Materialization metadata: the SQL-derived column lineage with transformation types."""
_FORMAT = 1

Read = dg.AssetKey | str | Sequence[str]


def _read_target(table: str, target: Any) -> dict[str, str]:
    """``{"asset": key}`` or ``{"uri": uri}`` for one table the SQL reads."""
    if isinstance(target, dg.AssetKey):
        return {"asset": target.to_user_string()}
    if isinstance(target, (list, tuple)) and all(isinstance(p, str) for p in target) and target:
        return {"asset": dg.AssetKey(list(target)).to_user_string()}
    if isinstance(target, str) and target.strip():
        if "://" in target:
            split_uri(target)  # raises CatalogError naming the bad URI
            return {"uri": target.strip()}
        return {"asset": dg.AssetKey.from_user_string(target.strip()).to_user_string()}
    raise ConfigError(
        f"sql_lineage_metadata: table {table!r} maps to {target!r}; give the asset key it is "
        "(dg.AssetKey, 'a/b' or ['a', 'b']) or its dataset URI ('postgres://db:5432/shop.public.t')"
    )


def _reads(reads: Mapping[str, Read] | Sequence[Read]) -> dict[str, dict[str, str]]:
    if isinstance(reads, Mapping):
        items = list(reads.items())
    elif isinstance(reads, (list, tuple)):
        items = []
        for target in reads:
            if isinstance(target, dg.AssetKey):
                items.append((".".join(target.path), target))
            elif isinstance(target, str) and "://" in target:
                items.append((split_uri(target)[1], target))
            elif isinstance(target, str):
                key = dg.AssetKey.from_user_string(target)
                items.append((".".join(key.path), key))
            else:
                items.append((str(target), target))
    else:
        raise ConfigError(
            f"sql_lineage_metadata: reads is a {type(reads).__name__}; give a mapping "
            "{table name in the SQL: asset key or dataset URI} or a list of asset keys"
        )
    out = {}
    for table, target in items:
        if not isinstance(table, str) or not table.strip():
            raise ConfigError(
                f"sql_lineage_metadata: table name {table!r} is not a name; give the table "
                "as the SQL names it ('orders', 'main.orders')"
            )
        out[table.strip()] = _read_target(table, target)
    return out


def _graph(context: Any) -> Any:
    try:
        return context.op_execution_context.job_def.asset_layer.asset_graph
    except AttributeError:
        return None


def _dataset(target: Mapping[str, str], graph: Any) -> DatasetRef:
    if "uri" in target:
        return DatasetRef(*split_uri(target["uri"]))
    key = dg.AssetKey.from_user_string(target["asset"])
    if graph is not None and graph.has(key):
        node = graph.get(key)
        return asset_dataset(key, node.metadata, node.tags)
    return asset_dataset(key)


def _declared_schema(target: Mapping[str, str], graph: Any) -> dict[str, str | None] | None:
    if "asset" not in target or graph is None:
        return None
    key = dg.AssetKey.from_user_string(target["asset"])
    if not graph.has(key):
        return None
    schema = unwrap(graph.get(key).metadata.get(md.COLUMN_SCHEMA))
    if not isinstance(schema, dg.TableSchema):
        return None
    return {c.name: c.type or None for c in schema.columns}


def _catalog_of(context: Any, catalog: Catalog | str | None) -> tuple[Catalog | None, bool]:
    """The catalog to read recorded schemas from, and whether this call opened it."""
    if isinstance(catalog, Catalog):
        return catalog, False
    if isinstance(catalog, str):
        return Catalog(catalog), True
    resource = getattr(getattr(context, "resources", None), "faucet", None)
    if resource is None:
        return None, False
    config = resource.catalog_config() if hasattr(resource, "catalog_config") else None
    if config is not None and config.url:
        return Catalog(config.url), True
    if hasattr(resource, "get_store"):
        return Catalog(resource.get_store().engine), True
    return None, False


def _recorded_schemas(
    catalog: Catalog, datasets: Mapping[str, DatasetRef]
) -> dict[str, dict[str, str | None]]:
    out: dict[str, dict[str, str | None]] = {}
    by_id = {e.id: e for e in catalog.datasets() if e.schema is not None}
    for table, ref in datasets.items():
        entry = by_id.get(ref.id)
        if entry is not None and entry.schema is not None:
            out[table] = {f.name: f.type for f in entry.schema}
    return out


def _encode(items: Sequence[SourceColumn]) -> list[list[Any]]:
    return [[s.table, s.column, list(s.kinds)] for s in items]


def sql_lineage_metadata(
    sql: str,
    reads: Mapping[str, Read] | Sequence[Read],
    *,
    dialect: str | None = None,
    context: Any = None,
    schemas: Mapping[str, Mapping[str, str | None]] | None = None,
    catalog: Catalog | str | None = None,
) -> dict[str, Any]:
    """The column lineage of ``sql`` as materialization metadata (see the module docstring).

    ``reads`` maps each table as the SQL names it to the asset it is (an ``AssetKey``,
    ``"a/b"``, ``["a", "b"]``) or its dataset URI; a list of asset keys means each is the
    table named by its path (``["main", "orders"]`` is ``main.orders``). The columns of
    each table (to expand ``SELECT *`` and type the output) come from ``schemas`` (``{table:
    {column: type}}``), else the upstream asset's ``dagster/column_schema``, else the schema
    the faucet catalog recorded for its dataset (the FaucetResource's store from
    ``context``, or ``catalog``: a Catalog or store URL). ``dialect`` is sqlglot's
    (``duckdb``, ``postgres``, ``snowflake``, ``bigquery``...).
    """
    targets = _reads(reads)
    graph = _graph(context)
    known: dict[str, Mapping[str, str | None] | None] = dict.fromkeys(targets)
    for table in targets:
        declared = _declared_schema(targets[table], graph)
        if declared is not None:
            known[table] = declared
    missing = {t: _dataset(targets[t], graph) for t in targets if known[t] is None}
    if missing and (context is not None or catalog is not None):
        try:
            opened, owned = _catalog_of(context, catalog)
        except FaucetError:
            opened, owned = None, False
        if opened is not None:
            try:
                known.update(_recorded_schemas(opened, missing))
            except FaucetError:
                pass  # no recorded schema: SELECT * over the table stays opaque
            finally:
                if owned:
                    opened.close()
    for table, columns in (schemas or {}).items():
        if table not in targets:
            raise ConfigError(
                f"sql_lineage_metadata: schemas names {table!r}, which reads does not; "
                f"give it in reads too (the tables it names: {', '.join(sorted(targets))})"
            )
        known[table] = dict(columns)
    lineage = sql_lineage(sql, dialect=dialect, schemas=known)
    return _metadata(lineage, targets)


def _metadata(lineage: SqlLineage, targets: Mapping[str, Mapping[str, str]]) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "format": _FORMAT,
        "dialect": lineage.dialect,
        "sources": {t: dict(v) for t, v in sorted(targets.items())},
        "columns": [c.name for c in lineage.columns],
        "fields": {k: _encode(v) for k, v in lineage.fields.items()},
        "dataset": _encode(lineage.dataset),
        "complete": sorted(t for t in targets if lineage.complete_for(t)),
        "opaque": dict(lineage.opaque),
        "unresolved": list(lineage.unresolved),
        "error": lineage.error,
    }
    out: dict[str, Any] = {FAUCET_LINEAGE_KEY: dg.MetadataValue.json(payload)}
    if not lineage.known:
        return out
    deps: dict[str, list[dg.TableColumnDep]] = {}
    for column, sources in lineage.fields.items():
        seen: dict[tuple[str, str], None] = {}
        for source in sources:
            target = targets.get(source.table)
            if target is None or "asset" not in target:
                continue
            seen[(target["asset"], source.column)] = None
        deps[column] = [
            dg.TableColumnDep(asset_key=dg.AssetKey.from_user_string(a), column_name=c)
            for a, c in seen
        ]
    out[md.DAGSTER_COLUMN_LINEAGE] = dg.TableColumnLineage(deps_by_column=deps)
    if lineage.columns and all(c.type for c in lineage.columns):
        out[md.COLUMN_SCHEMA] = dg.TableSchema(
            columns=[dg.TableColumn(c.name, str(c.type)) for c in lineage.columns]
        )
    return out


def faucet_lineage_of(
    value: Any, dataset_of_key: Any
) -> tuple[dict[str, tuple[FieldRef, ...]], tuple[FieldRef, ...]] | None:
    """``faucet/column_lineage`` as the catalog's ``(column lineage, dataset lineage)``,
    over the tables whose lineage is complete (the others' edges stay opaque); None when
    the SQL could not be followed or no table's lineage is complete."""
    data = unwrap(value)
    if not isinstance(data, Mapping) or data.get("format") != _FORMAT or data.get("error"):
        return None
    sources = data.get("sources") or {}
    complete = set(data.get("complete") or ())
    refs: dict[str, DatasetRef] = {}
    for table, target in sources.items():
        if table not in complete or not isinstance(target, Mapping):
            continue
        try:
            if "uri" in target:
                refs[table] = DatasetRef(*split_uri(str(target["uri"])))
            else:
                refs[table] = dataset_of_key(dg.AssetKey.from_user_string(str(target["asset"])))
        except FaucetError:
            continue
    if not refs:
        return None

    def dec(items: Any) -> tuple[FieldRef, ...]:
        out = []
        for table, column, kinds in items or ():
            if table in refs:
                out.append(FieldRef(refs[table], str(column), tuple(str(k) for k in kinds)))
        return tuple(out)

    fields = {str(k): dec(v) for k, v in (data.get("fields") or {}).items()}
    return fields, dec(data.get("dataset"))
