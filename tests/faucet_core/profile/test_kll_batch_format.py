"""The KLL sketch ``kll_batch`` writes in the library's serialized form reads back as the
installed datasketches understands it. Part of the compat subset (``make compat-oldest``,
``make compat-newest``), so both ends of the supported datasketches range run it."""

from __future__ import annotations

import datasketches as ds
import numpy as np

from faucet_core.profile.kll_batch import batch_sketch
from faucet_core.profile.sketches import KLL_K, new_kll


def test_a_written_sketch_reads_back_and_merges_within_the_rank_error() -> None:
    rng = np.random.default_rng(21)
    batches = [rng.lognormal(2.0, 1.0, 65_536), rng.integers(0, 50_000, 65_536) * 1.0]
    whole = new_kll()
    for values in batches:
        sketch = batch_sketch(values, float(values.min()), float(values.max()))
        assert sketch.n == values.size
        assert sketch.get_min_value() == values.min()
        assert sketch.get_max_value() == values.max()
        again = ds.kll_doubles_sketch.deserialize(sketch.serialize())
        assert again.serialize() == sketch.serialize()
        whole.merge(sketch)
    data = np.sort(np.concatenate(batches))
    bound = ds.kll_doubles_sketch.get_normalized_rank_error(KLL_K, False)
    assert whole.n == data.size
    for q in (0.05, 0.25, 0.5, 0.75, 0.95):
        rank = np.searchsorted(data, whole.get_quantile(q), side="right") / data.size
        assert abs(rank - q) <= bound
