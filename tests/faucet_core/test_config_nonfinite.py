"""Non-finite numbers in a ``profiling:`` block are refused with the field and the rule."""

from __future__ import annotations

import math

import pytest

from faucet_core.config import load_profiling_config
from faucet_core.errors import ConfigError


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ({"sensitivity": math.inf}, "profiling.sensitivity: Infinity is invalid"),
        ({"sensitivity": math.nan}, "profiling.sensitivity: NaN is invalid"),
        ({"sensitivity": "1e999"}, 'profiling.sensitivity: "1e999" is invalid'),
        ({"psi_threshold": -math.inf}, "profiling.psi_threshold: -Infinity is invalid"),
        ({"new_value_min_share": math.nan}, "profiling.new_value_min_share: NaN is invalid"),
        (
            {"policy": {"rules": [{"label": "x", "columns": ["a"], "min_share": math.nan}]}},
            "profiling.policy.rules.0.min_share: NaN is invalid",
        ),
    ],
)
def test_non_finite_numbers_are_refused(block: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ConfigError) as err:
        load_profiling_config(block)
    assert str(err.value) == f"{message}: Input should be a finite number"
