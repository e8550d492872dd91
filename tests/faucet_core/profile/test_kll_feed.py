"""Each batch reaches the quantile sketch in ascending order: the reported quantiles keep
the KLL sketch's rank error on streams whose order is anything but random."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from faucet_core import profile

from .helpers import KLL_RANK_ERROR, rank_error

ROWS = 600_000  # ten batches


def _orders() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(11)
    values = rng.lognormal(2.0, 1.5, ROWS)
    ascending = np.sort(values)
    sawtooth = np.concatenate([np.sort(part) for part in np.array_split(values, 37)])
    return {
        "random": values,
        "descending": ascending[::-1].copy(),
        "ascending": ascending,
        "sawtooth": sawtooth,
        "ties": rng.integers(0, 7, ROWS).astype(np.float64),
    }


@pytest.mark.parametrize("order", list(_orders()))
def test_quantiles_keep_the_rank_error_whatever_the_order(order: str) -> None:
    data = _orders()[order]
    numeric = profile(pa.table({"x": data}))["x"].numeric
    assert numeric is not None
    ordered = np.sort(data)
    assert rank_error(ordered, numeric.p50, 0.5) <= KLL_RANK_ERROR
    assert rank_error(ordered, numeric.p95, 0.95) <= KLL_RANK_ERROR
    assert (numeric.min, numeric.max) == (float(ordered[0]), float(ordered[-1]))
    assert numeric.mean == pytest.approx(float(data.mean()), rel=1e-12)
