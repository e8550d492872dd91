"""The HyperLogLog hash (``faucet_core.profile.hll_hash``) per value, by block size.

The hash runs ~35 numpy passes over its input, each writing a temporary as long as the
input. This times the coupons of one 65,536-value batch (the profiler's Arrow batch) hashed
in blocks of 65,536 down to 4,096 values (int64, float64, 16-character strings), best of 30,
to show where ``hll_hash.HASH_BLOCK`` sits, and the compiled hash (``_coupons.c``, one call
for the whole batch) beside them. Diagnostics, not a pass/fail benchmark.

    .venv/bin/python benchmarks/hll_hash_blocks.py
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyarrow as pa
from _common import markdown_table, print_machine

from faucet_core.profile import hll_hash

BATCH = 65_536
BLOCKS = (65_536, 32_768, 16_384, 8_192, 4_096)
ROUNDS = 30


def per_value_ns(hash_block: Callable[[Any], Any], data: Any, block: int) -> float:
    """Best of ROUNDS: ns per value to hash ``data`` ``block`` values at a time."""
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for at in range(0, BATCH, block):
            hash_block(data[at : at + block])
        best = min(best, time.perf_counter() - start)
    return best * 1e9 / BATCH


def main() -> None:
    rng = np.random.default_rng(0)
    ints = rng.integers(0, 10**12, BATCH)
    floats = rng.random(BATCH)
    texts = pa.array([f"user-{x:011d}" for x in rng.integers(0, 10**11, BATCH)])
    inputs: list[tuple[str, Callable[[Any], Any], Any]] = [
        ("int64", hll_hash.int_coupons, ints),
        ("float64", hll_hash.float_coupons, floats),
        ("16-char string", lambda a: hll_hash.string_coupons(a, ""), texts),
    ]
    saved, compiled = hll_hash.HASH_BLOCK, hll_hash._compiled
    compiled_ns = [
        f"{per_value_ns(fn, data, BATCH):.1f}" if compiled is not None else "not built"
        for _, fn, data in inputs
    ]
    hll_hash.HASH_BLOCK = BATCH  # time each block size as the caller's, not re-blocked
    hll_hash._compiled = None
    try:
        rows = [
            [name, *(f"{per_value_ns(fn, data, block):.1f}" for block in BLOCKS), done]
            for (name, fn, data), done in zip(inputs, compiled_ns, strict=True)
        ]
    finally:
        hll_hash.HASH_BLOCK, hll_hash._compiled = saved, compiled
    print(f"ns per value, one {BATCH:,}-value batch hashed in blocks of (best of {ROUNDS}):\n")
    headers = ["values", *(f"numpy, {b:,}" for b in BLOCKS), "compiled, whole batch"]
    print(markdown_table(headers, rows))
    print(f"\nhll_hash.HASH_BLOCK = {saved:,}\n")
    print_machine()


if __name__ == "__main__":
    main()
