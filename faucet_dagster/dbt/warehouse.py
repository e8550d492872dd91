"""The warehouse a dbt project builds into, and the loader that profiles a model there.

``build_profile_checks(dbt_assets, warehouse=...)`` takes the connection once: a SQLAlchemy
URL, a ``dg.EnvVar`` naming one (read when the check runs, so no secret sits in code), or
a SQLAlchemy ``Engine``. Each dbt model's check then profiles the model's relation (its
schema and alias from the manifest) with SQL in the warehouse: no rows leave it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import dagster as dg

from faucet_dagster.dbt.duckdb_release import release_dbt_duckdb
from faucet_dagster.dbt.manifest import DbtNode, dbt_node

if TYPE_CHECKING:  # the checks call the loader; dbt does not depend on them
    from faucet_dagster.checks.loading import ProfileLoadContext

__all__ = ["Warehouse", "check_warehouse", "relation_loader", "warehouse_engine"]

Warehouse = Any
"""A SQLAlchemy URL (``str``), a ``dg.EnvVar`` holding one, or a SQLAlchemy ``Engine``."""

_HINT = (
    "pass warehouse= to build_profile_checks: a SQLAlchemy URL such as "
    "'duckdb:///warehouse.duckdb' or 'postgresql+psycopg://user@host/db', "
    "dg.EnvVar('WAREHOUSE_URL'), or a SQLAlchemy Engine"
)


def check_warehouse(value: Warehouse) -> Warehouse:
    """``warehouse=`` checked when the definitions load (an EnvVar is read at run time)."""
    from sqlalchemy.engine import URL, Engine, make_url

    if value is None or isinstance(value, (dg.EnvVar, Engine)):
        return value
    if isinstance(value, URL):
        return value
    if not isinstance(value, str) or not value.strip():
        raise dg.DagsterInvalidDefinitionError(
            f"warehouse of type {type(value).__name__} is not a warehouse: {_HINT}"
        )
    try:
        make_url(value)
    except Exception:
        raise dg.DagsterInvalidDefinitionError(
            f"warehouse={_redacted(value)!r} is not a SQLAlchemy URL: {_HINT}"
        ) from None
    return value


def _redacted(url: str) -> str:
    from faucet_core.redact import redact

    return redact(url)


_ENGINES: dict[str, Any] = {}


def warehouse_engine(value: Warehouse) -> Any:
    """The SQLAlchemy engine of ``warehouse`` (built once per URL and process).

    Connections are not pooled: a check opens one, profiles, and closes it, so an embedded
    database file (DuckDB) is free again for the next ``dbt build``."""
    from sqlalchemy import create_engine
    from sqlalchemy.engine import Engine
    from sqlalchemy.pool import NullPool

    if value is None:
        raise dg.Failure(description=f"no warehouse to profile the dbt model in: {_HINT}")
    if isinstance(value, Engine):
        return value
    if isinstance(value, dg.EnvVar):
        url = value.get_value()
        if not url:
            raise dg.Failure(
                description=(
                    f"the warehouse's environment variable {value.env_var_name} is not set: "
                    "set it to a SQLAlchemy URL of the warehouse dbt builds into"
                )
            )
    elif isinstance(value, str):
        url = value
    else:  # a sqlalchemy URL: str() would mask its password
        url = value.render_as_string(hide_password=False)
    if url not in _ENGINES:
        try:
            _ENGINES[url] = create_engine(url, poolclass=NullPool)
        except Exception as exc:
            raise dg.Failure(
                description=(
                    f"cannot open the warehouse {_redacted(url)}: {type(exc).__name__}: "
                    f"{_redacted(str(exc))}. {_HINT}"
                )
            ) from None
    return _ENGINES[url]


def _node_of(context: ProfileLoadContext) -> DbtNode:
    graph = context.check_context.op_execution_context.job_def.asset_layer.asset_graph
    node = dbt_node(graph.get(context.asset_key).metadata)
    if node is None:
        raise dg.Failure(
            description=(
                f"{context.asset_key.to_user_string()} is not a dbt asset (no dagster-dbt "
                "manifest on its definition): warehouse= profiles dbt models only; give this "
                "asset a loader= instead"
            )
        )
    return node


def _exists(engine: Any, schema: str | None, name: str) -> bool:
    from sqlalchemy import inspect

    inspector = inspect(engine)
    return bool(inspector.has_table(name, schema=schema)) or name in set(
        inspector.get_view_names(schema=schema)
    )


def relation_loader(warehouse: Warehouse) -> Callable[[ProfileLoadContext], Any]:
    """A check loader that profiles a dbt model's relation in ``warehouse`` (SQL pushdown)."""

    def load(context: ProfileLoadContext) -> Any:
        from faucet_core.profile.sql import SqlTable

        node = _node_of(context)
        relation = node.relation
        engine = warehouse_engine(warehouse)
        if engine.dialect.name == "duckdb":
            release_dbt_duckdb(engine.url.database, node.project_dir)
        try:
            found = _exists(engine, relation.schema, relation.name)
        except Exception as exc:
            raise dg.Failure(
                description=(
                    f"cannot reach the warehouse {_redacted(str(engine.url))} to profile "
                    f"{relation}: {type(exc).__name__}: {_redacted(str(exc)).splitlines()[0]}. "
                    "Check warehouse= and that the database is up"
                )
            ) from None
        if not found:
            raise dg.Failure(
                description=(
                    f"dbt {node.resource_type} {node.name}: relation {relation} is not in the "
                    f"warehouse {_redacted(str(engine.url))}; build it (dbt build) or point "
                    "warehouse= at the database dbt writes to (the profiles.yml target)"
                )
            )
        return SqlTable(engine, relation.name, schema=relation.schema)

    return load
