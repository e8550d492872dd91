"""A KLL batch sketch by sorting against by counting, per column of the mixed table.

``faucet_core.profile.kll_batch.batch_sketch`` builds the sketch of a 65,536-value batch
from its sorted values. A batch of whole numbers or short decimals of a narrow range can
instead be counted (``bincount``, then running sums); ``kll_batch.SORTS_WITH_SIMD`` picks
sorting wherever numpy sorts with SIMD. This times both ways on one batch of each numeric
column (ms, best of 30), so the choice can be checked on a host: run it again with
``NPY_DISABLE_CPU_FEATURES`` naming numpy's AVX-512 and AVX2 levels to see a host without
them. Diagnostics, not a pass/fail benchmark.

    .venv/bin/python benchmarks/kll_sort_count.py
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from _common import markdown_table, mixed_table, print_machine

from faucet_core.profile import kll_batch

BATCH = 65_536
ROUNDS = 30


def best_ms(run: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def main() -> None:
    table = mixed_table(BATCH)
    rows = []
    for name in ("customer_id", "quantity", "amount", "discount"):
        values = table.column(name).to_numpy().astype(np.float64)
        values = values[np.isfinite(values)]
        lo, hi = float(values.min()), float(values.max())
        countable = kll_batch._decimal_counts(values, lo, hi) is not None

        def counted(v: np.ndarray = values, a: float = lo, b: float = hi) -> object:
            saved = kll_batch.SORTS_WITH_SIMD
            kll_batch.SORTS_WITH_SIMD = False
            try:
                return kll_batch.batch_sketch(v, a, b)
            finally:
                kll_batch.SORTS_WITH_SIMD = saved

        def sorted_(v: np.ndarray = values) -> object:
            return kll_batch.compacted_sketch(np.sort(v))

        rows.append(
            [
                name,
                "yes" if countable else "no",
                f"{best_ms(counted):.2f}" if countable else "-",
                f"{best_ms(sorted_):.2f}",
            ]
        )
    print(f"ms per {BATCH:,}-value batch (best of {ROUNDS}):\n")
    print(markdown_table(["column", "countable", "counted", "sorted"], rows))
    print(f"\nkll_batch.SORTS_WITH_SIMD here: {kll_batch.SORTS_WITH_SIMD}\n")
    print_machine()


if __name__ == "__main__":
    main()
