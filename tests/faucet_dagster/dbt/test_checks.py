"""Profile checks on ``@dbt_assets``: each model profiled in DuckDB (SQL pushdown), drift
after a seed changes, and the degrade-to-WARN path for a missing relation or warehouse."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import dagster as dg
import pytest
from sqlalchemy import create_engine

from faucet_dagster import FaucetResource, build_profile_checks
from tests.faucet_dagster.dbt.project import BuiltProject, blank_countries

MODELS = [
    "intermediate/int_customer_orders",
    "intermediate/int_order_payments",
    "marts/country_revenue",
    "marts/customer_segments",
    "marts/dim_customers",
    "marts/fct_orders",
    "raw/raw_customers",
    "raw/raw_orders",
    "raw/raw_payments",
    "staging/stg_customers",
    "staging/stg_orders",
    "staging/stg_payments",
]
ROWS = {"raw/raw_customers": 120, "staging/stg_customers": 120, "marts/dim_customers": 120}


def _meta(evaluation: dg.AssetCheckEvaluation, key: str) -> Any:
    value = evaluation.metadata[key]
    return getattr(value, "value", value)


def _by_asset(result: dg.ExecuteInProcessResult) -> dict[str, dg.AssetCheckEvaluation]:
    return {e.asset_key.to_user_string(): e for e in result.get_asset_check_evaluations()}


def test_every_model_and_seed_has_one_check_that_profiles_it_in_the_warehouse(
    built: BuiltProject,
) -> None:
    assert built.first is not None
    evaluations = _by_asset(built.first)
    assert sorted(evaluations) == MODELS
    for asset, evaluation in evaluations.items():
        assert _meta(evaluation, "faucet/status") == "warming", asset
        assert evaluation.passed
    for asset, rows in ROWS.items():
        assert _meta(evaluations[asset], "faucet/row_count") == rows
    dim = evaluations["marts/dim_customers"]
    assert "email" in _meta(dim, "summary")


def test_a_changed_seed_drifts_the_seed_and_the_models_built_on_it(built: BuiltProject) -> None:
    subset = ["raw/raw_customers", "staging/stg_customers"]
    again = built.run(subset)  # the same data: a second baseline run
    assert again.success
    assert {k: _meta(e, "faucet/status") for k, e in _by_asset(again).items()} == {
        "raw/raw_customers": "warming",
        "staging/stg_customers": "warming",
    }
    blank_countries(built.folder / "seeds" / "raw_customers.csv")
    drifted = built.run(subset)
    assert drifted.success  # on_drift warn: the run succeeds, the checks fail with WARN
    for asset, evaluation in _by_asset(drifted).items():
        assert not evaluation.passed, asset
        assert evaluation.severity is dg.AssetCheckSeverity.WARN
        assert _meta(evaluation, "faucet/status") == "drifted"
        findings = _meta(evaluation, "faucet/findings")
        assert ("country", "null_rate") in {(f["column"], f["metric"]) for f in findings}, asset


def _check_only(built: BuiltProject, asset: str, **kwargs: Any) -> dg.AssetCheckEvaluation:
    """Run only a new profile check (built with ``kwargs``) on ``asset``'s latest
    materialization in the shared instance."""
    checks = build_profile_checks([built.assets], name="other_profile", **kwargs)
    defs = dg.Definitions(
        assets=[built.assets],
        asset_checks=checks,
        resources={
            **(built.defs.resources or {}),
            "faucet": FaucetResource(store_url=built.store_url),
        },
    )
    job = defs.resolve_implicit_global_asset_job_def()
    key = dg.AssetCheckKey(dg.AssetKey.from_user_string(asset), "other_profile")
    subset = job.get_subset(asset_selection=set(), asset_check_selection={key})
    result = subset.execute_in_process(instance=built.instance, raise_on_error=False)
    assert result.success
    (evaluation,) = result.get_asset_check_evaluations()
    return evaluation


def test_a_relation_missing_from_the_warehouse_is_a_warn_not_a_crash(
    built: BuiltProject, tmp_path: Path
) -> None:
    empty = tmp_path / "empty.duckdb"
    create_engine(f"duckdb:///{empty}").dispose()
    evaluation = _check_only(built, "marts/fct_orders", warehouse=f"duckdb:///{empty}")
    assert not evaluation.passed
    assert evaluation.severity is dg.AssetCheckSeverity.WARN
    assert _meta(evaluation, "faucet/error") == (
        "dbt model fct_orders: relation warehouse.marts.fct_orders is not in the warehouse "
        f"duckdb:///{empty}; build it (dbt build) or point warehouse= at the database dbt "
        "writes to (the profiles.yml target)"
    )


def test_no_warehouse_is_a_warn_naming_the_fix(built: BuiltProject) -> None:
    evaluation = _check_only(built, "marts/fct_orders")
    assert evaluation.severity is dg.AssetCheckSeverity.WARN
    assert _meta(evaluation, "faucet/error").startswith(
        "no warehouse to profile the dbt model in: pass warehouse= to build_profile_checks"
    )


def test_an_unset_warehouse_variable_is_a_warn_naming_it(
    built: BuiltProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FAUCET_TEST_WAREHOUSE", raising=False)
    evaluation = _check_only(
        built, "marts/fct_orders", warehouse=dg.EnvVar("FAUCET_TEST_WAREHOUSE")
    )
    assert evaluation.severity is dg.AssetCheckSeverity.WARN
    assert _meta(evaluation, "faucet/error") == (
        "the warehouse's environment variable FAUCET_TEST_WAREHOUSE is not set: set it to a "
        "SQLAlchemy URL of the warehouse dbt builds into"
    )


@pytest.mark.postgres
def test_a_postgresql_warehouse_without_the_relation_is_a_warn_without_the_password(
    built: BuiltProject, postgres_url: str
) -> None:
    from sqlalchemy.engine import make_url

    # trust authentication ignores the password, so the check reaches the server for real
    url = make_url(postgres_url).set(password="s3cret-pw")
    warehouse = url.render_as_string(hide_password=False)
    evaluation = _check_only(built, "marts/dim_customers", warehouse=warehouse)
    assert evaluation.severity is dg.AssetCheckSeverity.WARN
    error = _meta(evaluation, "faucet/error")
    assert error.startswith(
        "dbt model dim_customers: relation warehouse.marts.dim_customers is not in the "
        "warehouse postgresql+psycopg://postgres:***@127.0.0.1:5432/test"
    )
    assert "s3cret-pw" not in error
    assert "s3cret-pw" not in (evaluation.description or "")
