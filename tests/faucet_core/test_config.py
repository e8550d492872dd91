"""ProfilingConfig: the seed's defaults and rules, strictness, and readable errors."""

from __future__ import annotations

from typing import Any

import pydantic
import pytest

from faucet_core import (
    ConfigError,
    DriftMethod,
    OnDrift,
    PolicyConfig,
    PolicyRule,
    ProfilingConfig,
    ValueDetector,
    load_profiling_config,
    profiling_json_schema,
)


def test_defaults_follow_the_fields_table() -> None:
    config = ProfilingConfig()
    assert config.columns is None  # all
    assert config.exclude == ["_faucet_*"]
    assert config.max_columns == 200
    assert config.top_values == 10
    assert config.categorical_max_distinct == 100
    assert config.window == 20
    assert config.min_history == 5
    assert config.method is DriftMethod.ZSCORE
    assert config.sensitivity is None
    assert config.effective_sensitivity == 3.0
    assert config.new_value_min_share == 0.05
    assert config.psi_threshold == 0.2
    assert config.on_drift is OnDrift.WARN
    assert config.policy is None


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({}, 3.0),
        ({"method": "iqr"}, 1.5),
        ({"method": "zscore", "sensitivity": 4.5}, 4.5),
        ({"method": "iqr", "sensitivity": 3.0}, 3.0),
    ],
    ids=["zscore-default", "iqr-default", "zscore-set", "iqr-set"],
)
def test_effective_sensitivity(fields: dict[str, Any], expected: float) -> None:
    assert load_profiling_config(fields).effective_sensitivity == expected


def test_yaml_values_load() -> None:
    config = load_profiling_config(
        {
            "columns": ["a", "b"],
            "exclude": ["tmp_*"],
            "window": 10,
            "min_history": 10,
            "method": "iqr",
            "on_drift": "fail",
            "policy": {"rules": [{"label": "pii", "detectors": ["email"], "fields": ["email"]}]},
        }
    )
    assert config.columns == ["a", "b"]
    assert config.window == config.min_history == 10
    assert config.method is DriftMethod.IQR
    assert config.on_drift is OnDrift.FAIL
    assert config.policy == PolicyConfig(
        rules=(PolicyRule(label="pii", detectors=(ValueDetector.EMAIL,), fields=("email",)),)
    )


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"bogus": 1},
            "profiling.bogus: unknown field; remove it or check its spelling",
        ),
        (
            {"window": 3},
            "profiling: window (3) must be >= min_history (5): raise window or lower min_history",
        ),
        (
            {"window": 4, "min_history": 6},
            "profiling: window (4) must be >= min_history (6): raise window or lower min_history",
        ),
        (
            {"min_history": 1},
            "profiling.min_history: 1 is invalid: Input should be greater than or equal to 2",
        ),
        (
            {"method": "mad"},
            "profiling.method: \"mad\" is invalid: Input should be 'zscore' or 'iqr'",
        ),
        (
            {"on_drift": "explode"},
            "profiling.on_drift: \"explode\" is invalid: Input should be 'warn', 'notify' or "
            "'fail'",
        ),
        (
            {"top_values": -1},
            "profiling.top_values: -1 is invalid: Input should be greater than or equal to 0",
        ),
        (
            {"max_columns": 0},
            "profiling.max_columns: 0 is invalid: Input should be greater than or equal to 1",
        ),
        (
            {"sensitivity": 0},
            "profiling.sensitivity: 0 is invalid: Input should be greater than 0",
        ),
        (
            {"new_value_min_share": 1.5},
            "profiling.new_value_min_share: 1.5 is invalid: Input should be less than or equal "
            "to 1",
        ),
        (
            {"window": "twenty"},
            'profiling.window: "twenty" is invalid: Input should be a valid integer, unable to '
            "parse string as an integer",
        ),
        (
            {"exclude": "tmp_*"},
            'profiling.exclude: "tmp_*" is invalid: Input should be a valid list',
        ),
        (
            {"columns": []},
            "profiling: columns is empty: leave it out to profile every column",
        ),
        (
            {"policy": {"rules": [{"label": "x"}]}},
            "profiling.policy.rules.0: policy rule 'x' matches nothing: give columns, fields or "
            "detectors",
        ),
        (
            {"policy": {"rules": [{"label": "x", "detectors": ["dna"]}]}},
            "profiling.policy.rules.0.detectors.0: \"dna\" is invalid: Input should be 'email', "
            "'phone', 'payment_card', 'iban', 'ip_address' or 'us_ssn'",
        ),
        (
            {"policy": {"rules": [{"columns": ["a"]}]}},
            "profiling.policy.rules.0.label: required field is missing",
        ),
        (
            {"policy": {"rules": [{"label": "x", "columns": ["a"], "typo": 1}]}},
            "profiling.policy.rules.0.typo: unknown field; remove it or check its spelling",
        ),
    ],
    ids=[
        "extra-key",
        "window-below-default-min-history",
        "window-below-min-history",
        "min-history-below-2",
        "method",
        "on-drift",
        "negative-top-values",
        "max-columns-zero",
        "sensitivity-zero",
        "share-above-one",
        "window-not-int",
        "exclude-not-list",
        "columns-empty",
        "rule-without-matcher",
        "unknown-detector",
        "rule-without-label",
        "rule-extra-key",
    ],
)
def test_load_rejects_with_field_value_and_rule(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_profiling_config(fields)
    assert str(info.value) == message


def test_every_problem_is_one_line() -> None:
    with pytest.raises(ConfigError) as info:
        load_profiling_config({"top_values": -1, "nope": True})
    assert str(info.value).splitlines() == [
        "profiling.top_values: -1 is invalid: Input should be greater than or equal to 0",
        "profiling.nope: unknown field; remove it or check its spelling",
    ]


def test_where_prefixes_the_path() -> None:
    with pytest.raises(ConfigError) as info:
        load_profiling_config({"window": 0}, where="rows.eu.profiling")
    assert str(info.value) == (
        "rows.eu.profiling.window: 0 is invalid: Input should be greater than or equal to 2"
    )


def test_load_rejects_a_non_mapping() -> None:
    with pytest.raises(ConfigError) as info:
        load_profiling_config(["window", 5])  # type: ignore[arg-type]
    assert str(info.value) == "profiling: expected a mapping of profiling fields, got list"


def test_load_passes_through_none_and_a_model() -> None:
    config = ProfilingConfig(window=9)
    assert load_profiling_config(config) is config
    assert load_profiling_config(None) == ProfilingConfig()


def test_constructor_rejects_extra_keys_and_bad_windows() -> None:
    with pytest.raises(pydantic.ValidationError, match="extra_forbidden"):
        ProfilingConfig(windw=5)  # type: ignore[call-arg]
    with pytest.raises(pydantic.ValidationError, match="must be >= min_history"):
        ProfilingConfig(window=4)
    with pytest.raises(pydantic.ValidationError, match="greater_than_equal"):
        ProfilingConfig(min_history=1, window=5)
    assert ProfilingConfig(window=2, min_history=2).window == 2


def test_config_is_frozen() -> None:
    config = ProfilingConfig()
    with pytest.raises(pydantic.ValidationError, match="frozen"):
        config.window = 50  # type: ignore[misc]


def test_config_errors_are_value_errors() -> None:
    assert issubclass(ConfigError, ValueError)


def test_pii_policy_uses_every_detector() -> None:
    (rule,) = PolicyConfig.pii().rules
    assert set(rule.detectors) == set(ValueDetector)
    assert "*email*" in rule.columns
    assert "*email*" in rule.fields


def test_json_schema_lists_every_field_with_its_default() -> None:
    schema = profiling_json_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["additionalProperties"] is False
    props = schema["properties"]
    assert set(props) == set(ProfilingConfig.model_fields)
    defaults = {name: props[name].get("default") for name in props}
    assert defaults["exclude"] == ["_faucet_*"]
    assert defaults["window"] == 20
    assert defaults["min_history"] == 5
    assert defaults["method"] == "zscore"
    assert defaults["on_drift"] == "warn"
    assert defaults["max_columns"] == 200
    assert defaults["top_values"] == 10
    assert defaults["categorical_max_distinct"] == 100
    assert defaults["new_value_min_share"] == 0.05
    assert defaults["psi_threshold"] == 0.2
