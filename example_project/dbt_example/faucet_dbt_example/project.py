"""The example's Dagster definitions for a dbt project folder (no work at import time: the
``definitions`` module calls :func:`build_defs` on this folder; tests call it on a copy).

No ``from __future__ import annotations``: Dagster reads the real class of ``context``."""

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dagster as dg
from dagster import AssetExecutionContext
from dagster_dbt import DbtCliResource, DbtProject, dbt_assets

from faucet_dagster import FaucetResource, build_lineage_sensor, build_profile_checks

__all__ = ["build_defs", "prepare", "warehouse_url"]


def warehouse_url(project_dir: Path) -> str:
    """The SQLAlchemy URL of the DuckDB file ``profiles.yml`` points dbt at.

    Not ``access_mode=read_only``: dagster-dbt's column metadata opens the same file through
    dbt's adapter in this process, and DuckDB refuses a second configuration of one file in
    one process. The checks only read."""
    path = Path(os.environ.get("FAUCET_DBT_DUCKDB_PATH", "target/warehouse.duckdb"))
    if not path.is_absolute():
        path = project_dir / path
    return f"duckdb:///{path}"


def prepare(project_dir: Path) -> DbtProject:
    """The dbt project, with its manifest: `dagster dev` re-parses on every load; elsewhere
    (`dagster asset materialize`, tests) `dbt parse` runs once, when the manifest is missing
    (a deployment makes it at build time: `dagster-dbt project prepare-and-package`)."""
    project = DbtProject(project_dir=project_dir)
    project.prepare_if_dev()
    if not project.manifest_path.exists():
        project.preparer.prepare(project)
    return project


def build_defs(project: DbtProject, *, store_url: str | None = None) -> dg.Definitions:
    """Every seed and model as an asset, each with a faucet profile check run in DuckDB."""

    @dbt_assets(manifest=project.manifest_path, project=project)
    def shop_dbt_assets(context: AssetExecutionContext, dbt: DbtCliResource) -> Iterator[Any]:
        # fetch_column_metadata: each model's column schema and the column lineage
        # dagster-dbt derives from its compiled SQL (sqlglot) ride on its materialization.
        yield from dbt.cli(["build"], context=context).stream().fetch_column_metadata()

    checks = build_profile_checks(
        [shop_dbt_assets],
        warehouse=warehouse_url(project.project_dir),
        config={"min_history": 2, "window": 10},
    )
    faucet = FaucetResource(store_url=store_url) if store_url else FaucetResource()
    return dg.Definitions(
        assets=[shop_dbt_assets],
        asset_checks=checks,
        # records every materialization (with dagster-dbt's column lineage) in the catalog
        sensors=[build_lineage_sensor()],
        resources={"dbt": DbtCliResource(project_dir=project), "faucet": faucet},
        # One process: dbt holds the DuckDB file's write lock while it builds, and each check
        # step would otherwise import dbt again in a process of its own.
        executor=dg.in_process_executor,
    )
