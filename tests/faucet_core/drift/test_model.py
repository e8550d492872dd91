"""The public result types: names, enum values and the JSON round trip."""

from __future__ import annotations

import json

import pytest

import faucet_core.drift as drift
from faucet_core.drift import (
    DriftFinding,
    DriftFindingError,
    DriftMetric,
    DriftScale,
    DriftTest,
)

SERIES_FINDING = DriftFinding(
    column="amount",
    metric=DriftMetric.NULL_RATE,
    message="amount.null_rate: ...",
    value=0.4,
    baseline_center=0.0012,
    baseline_spread=0.0002,
    score=41.3,
    threshold=7.2,
    test=DriftTest.ZSCORE,
    baseline_runs=6,
    statistic="null_rate",
    sensitivity=3.0,
    floor=0.01,
    scale=DriftScale.LINEAR,
    expected_low=0.0,
    expected_high=0.0112,
)
VALUE_FINDING = DriftFinding(
    column="region",
    metric=DriftMetric.NEW_VALUE,
    message='region.new_value: value "latam" ...',
    value=0.125,
    baseline_center=0.0,
    baseline_spread=0.0,
    score=0.125,
    threshold=0.05,
    test=DriftTest.SHARE,
    baseline_runs=6,
    statistic="share",
    value_key={"nested": ["latam", 1]},
    share=0.125,
    baseline_share=0.0,
)


def test_public_names() -> None:
    assert drift.__all__ == sorted(drift.__all__)
    assert all(isinstance(name, str) and hasattr(drift, name) for name in drift.__all__)
    assert {"detect_drift", "DriftFinding", "DriftMetric"} <= set(drift.__all__)


def test_metric_values_are_the_specs() -> None:
    assert [m.value for m in DriftMetric] == [
        "null_rate",
        "distinct",
        "mean",
        "min",
        "max",
        "string_length",
        "type_mix",
        "new_value",
        "vanished_value",
        "psi",
        "row_count",
    ]
    assert DriftMetric("psi") is DriftMetric.PSI
    assert isinstance(DriftMetric.MEAN, str)
    assert [m.value for m in DriftMetric if m.is_series] == [
        "null_rate",
        "distinct",
        "mean",
        "min",
        "max",
        "string_length",
        "row_count",
    ]


@pytest.mark.parametrize("finding", [SERIES_FINDING, VALUE_FINDING], ids=["series", "value"])
def test_round_trip_through_json(finding: DriftFinding) -> None:
    data = json.loads(json.dumps(finding.to_dict(), allow_nan=False))
    assert data["metric"] == finding.metric.value
    assert DriftFinding.from_dict(data) == finding


def test_to_dict_is_plain_json() -> None:
    data = SERIES_FINDING.to_dict()
    assert data["metric"] == "null_rate"
    assert data["test"] == "zscore"
    assert data["scale"] == "linear"
    assert data["value_key"] is None
    assert SERIES_FINDING.key == "amount.null_rate"


def test_findings_are_immutable() -> None:
    with pytest.raises(AttributeError):
        SERIES_FINDING.score = 1.0  # type: ignore[misc]


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"metric": "latency"}, "latency"),
        ({"bogus": 1}, "unknown fields"),
        ({"score": "high"}, "high"),
    ],
    ids=["unknown-metric", "unknown-field", "non-numeric-score"],
)
def test_from_dict_rejects_damaged_findings(change: dict[str, object], match: str) -> None:
    data = {**SERIES_FINDING.to_dict(), **change}
    with pytest.raises(DriftFindingError, match=match):
        DriftFinding.from_dict(data)


def test_from_dict_names_a_missing_field() -> None:
    data = SERIES_FINDING.to_dict()
    del data["column"]
    with pytest.raises(DriftFindingError, match="column"):
        DriftFinding.from_dict(data)
