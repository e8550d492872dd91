"""Timestamp text lengths follow from the instants' digits: they equal the lengths of the
ISO texts the profile counts the values as."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from faucet_core import profile
from faucet_core.profile.arrow_path import _iso_texts, fraction_digits_summary


def _fractions(rng: np.random.Generator, n: int) -> np.ndarray:
    """Fractions of a second in ns with every count of trailing zeros, and zero."""
    digits = rng.integers(1, 10, n)
    values = rng.integers(1, 10**9, n) // 10 ** (9 - digits) * 10 ** (9 - digits)
    values[rng.random(n) < 0.1] = 0
    return values


def test_summary_matches_the_digits_of_each_fraction() -> None:
    rng = np.random.default_rng(3)
    micro, milli = (_fractions(rng, 5_000) // unit * unit for unit in (10**3, 10**6))
    cases = (_fractions(rng, 5_000), micro, milli, np.zeros(4, np.int64), np.array([10**8, 1]))
    for fractions in cases:  # micro and milli: whole micro- or milliseconds, the shortcut
        texts = [f"{v:09d}".rstrip("0") for v in fractions.tolist()]
        lengths = [len(t) + 1 if t else 0 for t in texts]
        assert fraction_digits_summary(fractions) == (min(lengths), max(lengths), sum(lengths))


@pytest.mark.parametrize("unit", ["s", "ms", "us", "ns"])
@pytest.mark.parametrize("tz", [None, "Europe/Paris"])
def test_timestamp_lengths_equal_the_iso_texts(unit: str, tz: str | None) -> None:
    rng = np.random.default_rng(4)
    per_second = {"s": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}[unit]
    seconds = rng.integers(0, 2 * 10**9, 20_000)
    fraction = _fractions(rng, 20_000) * per_second // 10**9
    array = pa.array(seconds * per_second + fraction, pa.timestamp(unit, tz=tz))
    lengths = [len(t) for t in _iso_texts(array).to_pylist()]
    stats = profile(pa.table({"at": array}))["at"].string
    assert stats is not None
    assert (stats.len_min, stats.len_max) == (min(lengths), max(lengths))
    assert stats.len_mean == pytest.approx(sum(lengths) / len(lengths), rel=1e-12)
