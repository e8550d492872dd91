"""dbt-postgres: the profile checks of ``@dbt_assets`` profile each model inside a real
PostgreSQL server (SQL pushdown), and a changed seed drifts the models built on it.

No ``from __future__ import annotations``: Dagster reads the real class of ``context``.
"""

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dagster as dg
import pytest
from dagster import AssetExecutionContext
from sqlalchemy.engine import make_url

from faucet_dagster import FaucetResource, build_profile_checks
from tests.faucet_dagster.dbt.project import BIN, EXAMPLE, blank_countries

PROJECT = Path(__file__).parent / "pg_project"
SEED = EXAMPLE / "seeds" / "raw_customers.csv"


def _profiles(url: str) -> str:
    """profiles.yml for the server and the fresh schema of ``url`` (its search_path)."""
    u = make_url(url)
    schema = dict(u.query)["options"].removeprefix("-csearch_path=")
    return (
        "faucet_dbt_pg:\n  target: pg\n  outputs:\n    pg:\n      type: postgres\n"
        f"      host: {u.host or '127.0.0.1'}\n      port: {u.port or 5432}\n"
        f'      user: {u.username}\n      password: "{u.password or ""}"\n'
        f"      dbname: {u.database}\n      schema: {schema}\n      threads: 1\n"
    )


@pytest.fixture
def project(tmp_path: Path, postgres_url: str) -> Iterator[Path]:
    folder = tmp_path / "pg_project"
    shutil.copytree(PROJECT, folder)
    (folder / "seeds").mkdir()
    shutil.copy(SEED, folder / "seeds" / "raw_customers.csv")
    (folder / "profiles.yml").write_text(_profiles(postgres_url))
    old = os.environ.get("PATH", "")
    os.environ["PATH"] = f"{BIN}{os.pathsep}{old}"
    try:
        yield folder
    finally:
        os.environ["PATH"] = old


def _defs(folder: Path, warehouse: str, store_url: str) -> dg.Definitions:
    from dagster_dbt import DbtCliResource, DbtProject, dbt_assets

    project = DbtProject(project_dir=folder)
    project.preparer.prepare(project)

    @dbt_assets(manifest=project.manifest_path, project=project)
    def pg_dbt_assets(context: AssetExecutionContext, dbt: DbtCliResource) -> Iterator[Any]:
        yield from dbt.cli(["build"], context=context).stream()

    checks = build_profile_checks(
        [pg_dbt_assets], warehouse=warehouse, config={"min_history": 2, "window": 10}
    )
    return dg.Definitions(
        assets=[pg_dbt_assets],
        asset_checks=checks,
        resources={
            "dbt": DbtCliResource(project_dir=project),
            "faucet": FaucetResource(store_url=store_url),
        },
        executor=dg.in_process_executor,
    )


def _run(defs: dg.Definitions, instance: dg.DagsterInstance) -> dict[str, dg.AssetCheckEvaluation]:
    job = defs.resolve_implicit_global_asset_job_def()
    result = job.execute_in_process(instance=instance, raise_on_error=False)
    assert result.success
    return {e.asset_key.to_user_string(): e for e in result.get_asset_check_evaluations()}


def _meta(evaluation: dg.AssetCheckEvaluation, key: str) -> Any:
    value = evaluation.metadata[key]
    return getattr(value, "value", value)


def test_models_are_profiled_in_postgres_and_a_changed_seed_drifts(
    project: Path, postgres_url: str, sqlite_url: str
) -> None:
    defs = _defs(project, postgres_url, sqlite_url)
    with dg.instance_for_test() as instance:
        first = _run(defs, instance)
        assert sorted(first) == ["customers_by_country", "raw_customers", "stg_customers"]
        for asset, evaluation in first.items():
            assert evaluation.passed, asset
            assert _meta(evaluation, "faucet/status") == "warming", asset
        assert _meta(first["raw_customers"], "faucet/row_count") == 120
        assert _meta(first["stg_customers"], "faucet/row_count") == 120  # a view, profiled too
        countries = _meta(first["customers_by_country"], "faucet/row_count")
        assert 1 < countries < 120
        assert _meta(first["stg_customers"], "country.null_rate") == 0.0

        second = _run(defs, instance)  # the same data: the baseline's second run
        assert all(e.passed for e in second.values())

        blank_countries(project / "seeds" / "raw_customers.csv")
        third = _run(defs, instance)
        stg = third["stg_customers"]
        assert not stg.passed
        assert stg.severity is dg.AssetCheckSeverity.WARN
        keys = {f["column"] + "." + f["metric"] for f in _meta(stg, "faucet/findings")}
        assert "country.null_rate" in keys
        assert _meta(stg, "country.null_rate") == pytest.approx(0.5)
        assert not third["raw_customers"].passed  # the seed itself (empty cells load as NULL)
