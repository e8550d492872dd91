"""The type lattice: widening, narrowing, incompatible, nullable handling."""

from __future__ import annotations

import pytest

from faucet_core.impact import TypeChange, compare_types

W, N, X, S, U = (
    TypeChange.WIDENING,
    TypeChange.NARROWING,
    TypeChange.INCOMPATIBLE,
    TypeChange.SAME,
    TypeChange.UNKNOWN,
)


@pytest.mark.parametrize(
    ("current", "planned", "sample", "expected"),
    [
        ("integer", "number", False, W),
        ("number", "integer", False, N),
        ("int32", "int64", False, W),
        ("int64", "int32", False, N),
        ("uint8", "int16", False, W),
        ("float32", "float64", False, W),
        ("date", "timestamp", False, W),
        ("integer", "string", False, X),
        ("string", "integer", False, X),
        ("integer|null", "integer", False, S),
        ("integer", "integer|null", False, W),
        ("INT", "int32", False, S),
        ("varchar(10)", "string", False, S),
        ("number", "integer", True, S),
        ("integer|null", "number", False, W),
        (None, "integer", False, U),
    ],
    ids=lambda v: str(v),
)
def test_compare_types(
    current: str | None, planned: str, sample: bool, expected: TypeChange
) -> None:
    assert compare_types(current, planned, sample=sample) is expected
