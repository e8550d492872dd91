"""The Spark example: a Spark-written asset and its check, materialized in process."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import dagster as dg

from faucet_dagster import FaucetResource

EXAMPLE = Path(__file__).resolve().parents[2] / "example_project" / "spark_example"


def _meta(evaluation: dg.AssetCheckEvaluation, key: str) -> Any:
    value = evaluation.metadata[key]
    return getattr(value, "value", value)


def test_the_spark_example_profiles_its_asset_on_the_executors(spark: Any, tmp_path: Path) -> None:
    sys.path.insert(0, str(EXAMPLE))
    try:
        from faucet_spark_example import SparkSessionResource, daily_events, defs
    finally:
        sys.path.remove(str(EXAMPLE))
    checks = list(defs.asset_checks or [])
    store = f"sqlite:///{tmp_path / 'faucet.db'}"
    resources = {
        "spark": SparkSessionResource(warehouse_dir=str(tmp_path / "warehouse")),
        "faucet": FaucetResource(store_url=store),
    }
    with dg.instance_for_test() as instance:
        result = dg.materialize([daily_events, *checks], instance=instance, resources=resources)
        assert result.success
        evaluations = result.get_asset_check_evaluations()
    assert len(evaluations) == 1
    evaluation = evaluations[0]
    assert evaluation.passed
    assert _meta(evaluation, "faucet/row_count") == 100_000
    assert _meta(evaluation, "amount.null_rate") == 0.66667  # 66,667 of 100,000 rows
    assert "example.com" not in repr(evaluation.metadata)  # classified: no top values
    assert _meta(evaluation, "faucet/classified") == ["email"]
