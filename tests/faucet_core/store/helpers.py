"""Small deterministic tables for store tests."""

from __future__ import annotations

import random

import pyarrow as pa

from faucet_core import TableProfile, profile


def day(seed: int, *, rows: int = 2000, null_share: float = 0.01, region: str = "") -> TableProfile:
    """A stable-looking daily table; ``null_share`` and ``region`` inject faults."""
    rng = random.Random(seed)
    amounts = [
        None if rng.random() < null_share else round(rng.uniform(10, 100), 2) for _ in range(rows)
    ]
    regions = [region or rng.choice(["eu", "us", "apac"]) for _ in range(rows)]
    return profile(pa.table({"amount": amounts, "region": regions}))
