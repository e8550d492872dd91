"""The project's Dagster definitions for a copy of this dbt project folder: every seed and
model an asset (dagster-dbt, with the column lineage it derives from each model's compiled
SQL), each with a faucet profile check run inside DuckDB (SQL pushdown).

No ``from __future__ import annotations``: Dagster reads the real class of ``context``."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dagster as dg
from dagster import AssetExecutionContext
from dagster_dbt import DbtCliResource, DbtProject, dbt_assets

from faucet_dagster import FaucetResource, build_profile_checks

__all__ = ["build_defs", "prepare"]

ASSETS_NAME = "jaffle_ecom_dbt_assets"


def prepare(project_dir: Path) -> DbtProject:
    """The dbt project with its manifest (``dbt parse`` once, when it is missing)."""
    project = DbtProject(project_dir=project_dir)
    if not project.manifest_path.exists():
        project.preparer.prepare(project)
    return project


def build_defs(project: DbtProject, *, warehouse: Path, store_url: str) -> dg.Definitions:
    """Every seed and model as an asset, each with a faucet profile check."""

    @dbt_assets(manifest=project.manifest_path, project=project, name=ASSETS_NAME)
    def jaffle_ecom_dbt_assets(
        context: AssetExecutionContext, dbt: DbtCliResource
    ) -> Iterator[Any]:
        yield from dbt.cli(["build"], context=context).stream().fetch_column_metadata()

    checks = build_profile_checks(
        [jaffle_ecom_dbt_assets],
        warehouse=f"duckdb:///{warehouse}",
        config={"min_history": 2, "window": 10},
    )
    return dg.Definitions(
        assets=[jaffle_ecom_dbt_assets],
        asset_checks=checks,
        resources={
            "dbt": DbtCliResource(project_dir=project),
            "faucet": FaucetResource(store_url=store_url),
        },
        executor=dg.in_process_executor,
    )
