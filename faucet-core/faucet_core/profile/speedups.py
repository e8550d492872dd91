"""Which of the profiler's fast paths this installation has, and what to do when one is
missing: the compiled HyperLogLog hash (``_coupons.c``, built at install where a C compiler
is found) and numpy's SIMD sort for the KLL batches. Either missing only slows profiling;
the profiles are the same. ``faucet doctor`` prints :func:`speedups` and :func:`advice`."""

from __future__ import annotations

from faucet_core.profile import hll_hash, kll_batch

__all__ = ["advice", "speedups"]


def speedups() -> dict[str, bool]:
    """``{"compiled_hash": ..., "simd_sort": ...}`` for this process."""
    return {
        "compiled_hash": hll_hash.compiled(),
        "simd_sort": kll_batch.SORTS_WITH_SIMD,
    }


def advice(found: dict[str, bool]) -> list[str]:
    """One sentence per missing fast path: what it costs and how to get it."""
    lines = []
    if not found["compiled_hash"]:
        lines.append(
            "faucet-core was installed without its compiled hash: distinct counts are hashed "
            "in numpy, 3-6 times slower. Reinstall faucet-core where a C compiler and "
            "Python's headers are found (e.g. Debian's gcc and python3-dev)"
        )
    if not found["simd_sort"]:
        lines.append(
            "numpy has no SIMD sort here (numpy 1.x, or a CPU without AVX2): quantile "
            "sketches count small-range batches instead; numpy 2 sorts faster where the CPU "
            "allows"
        )
    return lines
