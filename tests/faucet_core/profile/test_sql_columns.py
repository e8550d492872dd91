"""The SQL pushdown picks its columns as the in-memory profiler does (without running it):
the same names in the same order, the same labels by name, the same skipped count."""

from __future__ import annotations

import pyarrow as pa
import pytest

from faucet_core.config import PolicyConfig, PolicyRule, ProfilingConfig, ValueDetector
from faucet_core.profile import Profiler
from faucet_core.profile.columns import select_columns

NAMES = ["id", "email", "customer_email", "card_no", "amount", "note", "tmp_x", "tmp_y"]
_POLICY = PolicyConfig(
    rules=[
        PolicyRule(label="pii", columns=["*email*"]),
        PolicyRule(label="pci", columns=["card*", "CUSTOMER_*"]),
        PolicyRule(label="pii", detectors=[ValueDetector.EMAIL]),
    ]
)


@pytest.mark.parametrize(
    "config",
    [
        ProfilingConfig(),
        ProfilingConfig(columns=["note", "absent", "id"]),
        ProfilingConfig(exclude=["tmp_*", "amount"]),
        ProfilingConfig(max_columns=3),
        ProfilingConfig(max_columns=2, columns=["absent", "card_no", "id", "email"]),
        ProfilingConfig(policy=_POLICY),
        ProfilingConfig(policy=_POLICY, exclude=["email"], max_columns=4),
    ],
)
def test_the_columns_match_the_profilers(config: ProfilingConfig) -> None:
    profiler = Profiler(config)
    profiler.add_columns(0, [(n, pa.nulls(0)) for n in NAMES])
    seed = profiler.finish()
    chosen, skipped = select_columns(config, NAMES)
    assert list(chosen) == list(seed.columns)
    assert chosen == {n: c.classified for n, c in seed.columns.items()}
    assert skipped == seed.skipped_columns
