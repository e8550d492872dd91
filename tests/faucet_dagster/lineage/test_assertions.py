"""Asset-check evaluations as OpenLineage data-quality assertions."""

from __future__ import annotations

import dagster as dg

from faucet_core.lineage import AssertionResult
from faucet_dagster.lineage import check_assertions


def test_any_check_is_one_dataset_level_assertion() -> None:
    evaluation = dg.AssetCheckEvaluation(
        asset_key=dg.AssetKey("orders"),
        check_name="row_count",
        passed=False,
        severity=dg.AssetCheckSeverity.ERROR,
        description="0 rows",
    )
    assert check_assertions(evaluation) == [
        AssertionResult(
            "row_count", False, severity="error", name="row_count", description="0 rows"
        )
    ]


def test_a_faucet_check_gives_one_assertion_per_column_with_its_findings() -> None:
    evaluation = dg.AssetCheckEvaluation(
        asset_key=dg.AssetKey("orders"),
        check_name="faucet_profile",
        passed=False,
        severity=dg.AssetCheckSeverity.WARN,
        description="drift: 1 finding(s)",
        metadata={
            "faucet/status": "drifted",
            "faucet/findings": dg.MetadataValue.json(
                [{"column": "amount", "metric": "null_rate", "message": "amount.null_rate: 40%"}]
            ),
            "amount.null_rate": 0.4,
            "region.null_rate": 0.0,
        },
    )
    common = {"assertion": "faucet_profile_drift", "severity": "warn"}
    assert check_assertions(evaluation) == [
        AssertionResult(
            success=False,
            name="faucet_profile",
            description="drift: 1 finding(s)",
            actual="drifted",
            **common,  # type: ignore[arg-type]
        ),
        AssertionResult(
            success=False,
            column="amount",
            name="faucet_profile.amount",
            description="amount.null_rate: 40%",
            **common,  # type: ignore[arg-type]
        ),
        AssertionResult(success=True, column="region", name="faucet_profile.region", **common),  # type: ignore[arg-type]
    ]
