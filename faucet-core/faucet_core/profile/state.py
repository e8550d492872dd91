"""The mutable per-column accumulator: bounded memory whatever the row count.

A :class:`ColumnState` holds a HyperLogLog, a KLL quantile sketch, a
frequent-items sketch (dropped once the column turns out high-cardinality or
classified), running moments and counters. It is fed typed batches by
:mod:`faucet_core.profile.arrow_path`, merged with another state, serialized
into a :class:`ColumnProfile` and rebuilt from one.

A classified column publishes none of its values: no top values, and no
numeric statistics either (min, max and the quantiles are values, and so is
the mean of one row: a card number column classified by name must not show
its smallest card number); its serialized state keeps no frequent-items or
quantile sketch and no moments.

A column is high-cardinality when its published (rounded) distinct estimate
exceeds ``categorical_max_distinct``.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import datasketches as ds
import numpy as np

from faucet_core.errors import SketchError
from faucet_core.profile.hll_hash import Coupons, feed_changing
from faucet_core.profile.jsontext import is_tracked, text_value
from faucet_core.profile.kll_batch import COMPACT_FROM, batch_sketch
from faucet_core.profile.model import (
    ColumnProfile,
    JsonType,
    NumericStats,
    StringStats,
    TopValue,
)
from faucet_core.profile.sketches import (
    SketchParams,
    b64,
    load_freq,
    load_hll,
    load_kll,
    new_freq,
    new_hll,
    new_kll,
)

__all__ = ["ColumnState"]

_NO_FALSE_POSITIVES = ds.frequent_items_error_type.NO_FALSE_POSITIVES


class ColumnState:
    """Accumulates one column's statistics across batches."""

    __slots__ = (
        "_freq",
        "_hll",
        "_kll",
        "classified",
        "name",
        "nonfinite",
        "nulls",
        "num_max",
        "num_mean",
        "num_min",
        "num_n",
        "num_sd",
        "params",
        "rows",
        "str_len_max",
        "str_len_min",
        "str_len_sum",
        "str_n",
        "types",
        "unique_ratio",
    )

    def __init__(self, name: str, params: SketchParams, *, tracks_values: bool = True) -> None:
        self.name = name
        self.params = params
        self.rows = 0
        self.nulls = 0
        self.types: Counter[str] = Counter()
        self._hll = new_hll()
        self._kll: ds.kll_doubles_sketch | None = None
        self._freq: ds.frequent_strings_sketch | None = (
            new_freq(params) if tracks_values and params.top_values > 0 else None
        )
        self.num_n = 0
        self.num_mean = 0.0
        self.num_sd = 0.0
        """Population standard deviation (not the sum of squares, which overflows long before
        the data does: two values of 1e155 already square past the float range)."""
        self.num_min = math.inf
        self.num_max = -math.inf
        self.nonfinite = 0
        self.str_n = 0
        self.str_len_sum = 0
        self.str_len_min = 0
        self.str_len_max = 0
        self.classified: set[str] = set()
        self.unique_ratio = 0.0
        """Distinct values / values in the last deduplicated batch (a speed hint only)."""

    # -- feeding --------------------------------------------------------------------------
    def add_rows(self, rows: int, nulls: int) -> None:
        """Count ``rows`` records, ``nulls`` of which are absent or null."""
        self.rows += rows
        if nulls:
            self.nulls += nulls
            self.types[JsonType.NULL.value] += nulls

    def add_type(self, json_type: JsonType, count: int) -> None:
        if count:
            self.types[json_type.value] += count

    def add_numbers(self, values: np.ndarray) -> None:
        """Fold finite float64 values into the moments and the quantile sketch."""
        n = int(values.size)
        if n == 0:
            return
        lo, hi = float(values.min()), float(values.max())
        mean, sd = batch_moments(values, max(-lo, hi))
        self.num_mean, self.num_sd = combine_moments(
            self.num_n, self.num_mean, self.num_sd, n, mean, sd
        )
        self.num_n += n
        self.num_min = min(self.num_min, lo)
        self.num_max = max(self.num_max, hi)
        if self._kll is None:
            self._kll = new_kll()
        # A large batch reaches the sketch compacted (see kll_batch). A small one reaches
        # it in ascending order: the sketch sees the same values (its error bound holds
        # whatever their order), its compactions then sort runs already in order, and
        # numpy sorts without holding the GIL (columns profiled in threads overlap more).
        # A batch already in order (an id, a time) is not sorted again.
        if n >= COMPACT_FROM:
            self._kll.merge(batch_sketch(values, lo, hi))
            return
        if not (values.size > 1 and (values[1:] >= values[:-1]).all()):
            values = np.sort(values)
        elif not (values.flags.writeable and values.flags.c_contiguous):
            values = np.array(values)  # the sketch takes writable arrays only
        self._kll.update(values)

    def add_nonfinite(self, count: int) -> None:
        self.nonfinite += count

    def add_lengths(self, lengths: np.ndarray) -> None:
        if lengths.size:
            self.add_length_summary(
                int(lengths.min()), int(lengths.max()), int(lengths.sum()), int(lengths.size)
            )

    def add_length_summary(self, lo: int, hi: int, total: int, n: int) -> None:
        """Fold ``n`` string lengths given by their minimum, maximum and sum."""
        if n == 0:
            return
        self.str_len_min = lo if self.str_n == 0 else min(self.str_len_min, lo)
        self.str_len_max = hi if self.str_n == 0 else max(self.str_len_max, hi)
        self.str_len_sum += total
        self.str_n += n

    def add_distinct(self, values: Iterable[Any]) -> None:
        """Feed the HyperLogLog with distinct values (ints, floats or strings)."""
        deque(map(self._hll.update, values), maxlen=0)
        if self._freq is not None and self.high_cardinality():
            self._freq = None  # high-cardinality: never keep its values

    def add_distinct_coupons(
        self, coupons: Coupons, pick: Callable[[np.ndarray], list[Any]]
    ) -> None:
        """Feed the HyperLogLog with values given by their coupons (see
        :mod:`faucet_core.profile.hll_hash`): only those that change the sketch are taken, by
        position, from ``pick``; the sketch ends as :meth:`add_distinct` of them all leaves it."""
        feed_changing(self._hll, coupons, pick)
        if self._freq is not None and self.high_cardinality():
            self._freq = None  # high-cardinality: never keep its values

    @property
    def tracks_values(self) -> bool:
        return self._freq is not None

    def add_counts(self, keys: Sequence[str], counts: Sequence[int]) -> None:
        """Count JSON-encoded values (their canonical JSON text) in the frequent-items sketch."""
        freq = self._freq
        if freq is None:
            return
        for key, count in zip(keys, counts, strict=True):
            if is_tracked(key):
                freq.update(key, int(count))

    def classify(self, label: str) -> None:
        self.classified.add(label)
        self._freq = None

    # -- merging --------------------------------------------------------------------------
    def merge(self, other: ColumnState) -> None:
        if other.params != self.params:
            raise SketchError(
                f"column {self.name!r}: cannot merge profiles made with different sketch "
                f"settings ({self.params.to_dict()} vs {other.params.to_dict()}); profile both "
                "parts with the same top_values and categorical_max_distinct"
            )
        self.rows += other.rows
        self.nulls += other.nulls
        self.types.update(other.types)
        union = ds.hll_union(self._hll.lg_config_k)
        union.update(self._hll)
        union.update(other._hll)
        self._hll = union.get_result(ds.tgt_hll_type.HLL_8)
        if other._kll is not None:
            if self._kll is None:
                self._kll = new_kll()
            self._kll.merge(other._kll)
        if other.num_n:
            self.num_mean, self.num_sd = combine_moments(
                self.num_n, self.num_mean, self.num_sd, other.num_n, other.num_mean, other.num_sd
            )
            self.num_n += other.num_n
            self.num_min = min(self.num_min, other.num_min)
            self.num_max = max(self.num_max, other.num_max)
        self.nonfinite += other.nonfinite
        if other.str_n:
            lo = other.str_len_min if self.str_n == 0 else min(self.str_len_min, other.str_len_min)
            hi = other.str_len_max if self.str_n == 0 else max(self.str_len_max, other.str_len_max)
            self.str_len_min, self.str_len_max = lo, hi
            self.str_len_sum += other.str_len_sum
            self.str_n += other.str_n
        self.classified |= other.classified
        if self._freq is None or other._freq is None or self.classified:
            self._freq = None
        else:
            self._freq.merge(other._freq)
            if self.high_cardinality():
                self._freq = None

    # -- publishing -----------------------------------------------------------------------
    def distinct(self) -> int:
        return round(float(self._hll.get_estimate()))

    def high_cardinality(self) -> bool:
        # on the published (rounded) estimate, so distinct == categorical_max_distinct is not
        return self.distinct() > self.params.categorical_max_distinct

    def to_profile(self) -> ColumnProfile:
        high_card = self.high_cardinality()
        if high_card or self.classified:
            self._freq = None
        numeric = None
        if self.num_n and not self.classified:  # min, max and quantiles are values
            assert self._kll is not None
            p50, p95 = self._kll.get_quantiles([0.5, 0.95])
            numeric = NumericStats(
                min=self.num_min,
                max=self.num_max,
                mean=self.num_mean,
                stddev=self.num_sd if self.num_n > 1 else 0.0,
                p50=float(p50),
                p95=float(p95),
                count=self.num_n,
                nonfinite=self.nonfinite,
            )
        string = None
        if self.str_n:
            string = StringStats(
                len_min=self.str_len_min,
                len_max=self.str_len_max,
                len_mean=self.str_len_sum / self.str_n,
                count=self.str_n,
            )
        top: tuple[TopValue, ...] | None = None
        if self._freq is not None:
            items = self._freq.get_frequent_items(_NO_FALSE_POSITIVES)
            items.sort(key=lambda item: (-item[1], item[0]))
            top = tuple(
                TopValue(
                    value=text_value(key),
                    count=int(estimate),
                    share=int(estimate) / self.rows if self.rows else 0.0,
                )
                for key, estimate, _lower, _upper in items[: self.params.top_values]
            )
        return ColumnProfile(
            name=self.name,
            row_count=self.rows,
            null_count=self.nulls,
            types=dict(sorted(self.types.items())),
            distinct=self.distinct(),
            numeric=numeric,
            string=string,
            top_values=top,
            high_cardinality=high_card,
            classified=tuple(sorted(self.classified)),
            sketches=self._sketch_state(),
        )

    def _sketch_state(self) -> dict[str, Any]:
        hide = bool(self.classified)  # a classified column's values never leave the state
        return {
            "hll": b64(self._hll.serialize_compact()),
            "kll": None if self._kll is None or hide else b64(self._kll.serialize()),
            "freq": None if self._freq is None else b64(self._freq.serialize()),
            # a mean or a min of one value is that value: a classified column keeps none
            "num": [0, 0.0, 0.0, None, None, self.nonfinite] if hide else _moments_state(self),
            "str": [self.str_n, self.str_len_sum, self.str_len_min, self.str_len_max],
        }

    @classmethod
    def from_profile(cls, column: ColumnProfile, params: SketchParams) -> ColumnState:
        """Rebuild the accumulator from a serialized profile, for merging."""
        what = f"column {column.name!r}"
        s = column.sketches
        if not s or "hll" not in s:
            raise SketchError(
                f"{what}: the profile carries no sketches (it was serialized with "
                "sketches=False, or computed in the database by profile_sql); merge needs "
                "profiles serialized with their sketches (profile a whole SQL table at once)"
            )
        state = cls(column.name, params, tracks_values=False)
        state.rows = column.row_count
        state.nulls = column.null_count
        state.types = Counter(column.types)
        state.classified = set(column.classified)
        state._hll = load_hll(s["hll"], what)
        state._kll = None if s.get("kll") is None else load_kll(s["kll"], what)
        state._freq = None if s.get("freq") is None else load_freq(s["freq"], what)
        try:
            num = list(s["num"])
            n, mean, m2, lo, hi, nonfinite = num[:6]
            state.num_n, state.num_mean = int(n), float(mean)
            if len(num) == 7:  # the sum of squares overflowed: the deviation itself
                state.num_sd = float(num[6])
            elif len(num) == 6:
                state.num_sd = math.sqrt(float(m2) / state.num_n) if state.num_n else 0.0
            else:
                raise ValueError(f"{len(num)} moments, expected 6 or 7")
            state.num_min = math.inf if lo is None else float(lo)
            state.num_max = -math.inf if hi is None else float(hi)
            state.nonfinite = int(nonfinite)
            sn, ssum, smin, smax = s["str"]
            state.str_n, state.str_len_sum = int(sn), int(ssum)
            state.str_len_min, state.str_len_max = int(smin), int(smax)
        except (KeyError, TypeError, ValueError) as exc:
            raise SketchError(
                f"{what}: damaged moments in the serialized profile ({exc!r})"
            ) from None
        return state


def _moments_state(state: ColumnState) -> list[Any]:
    """[n, mean, sum of squared deviations, min, max, nonfinite]; when the sum of squares
    overflows (data near the float limit), it is written as infinity and the standard
    deviation follows as a seventh element."""
    m2 = state.num_sd * state.num_sd * state.num_n
    out: list[Any] = [
        state.num_n,
        state.num_mean,
        m2,
        _finite_or_none(state.num_min),
        _finite_or_none(state.num_max),
        state.nonfinite,
    ]
    if not math.isfinite(m2) or (m2 == 0.0 and state.num_sd > 0.0):
        out.append(state.num_sd)
    return out


_PLAIN_RANGE = (1e-100, 1e100)
"""Magnitudes whose sums of squares neither overflow nor lose digits to underflow."""


def batch_moments(values: np.ndarray, magnitude: float) -> tuple[float, float]:
    """(mean, population standard deviation) of finite ``values`` whose largest absolute
    value is ``magnitude``: finite and accurate whatever the magnitude, because values
    outside :data:`_PLAIN_RANGE` are first scaled by a power of two (exact), then the
    results scaled back."""
    if _PLAIN_RANGE[0] < magnitude < _PLAIN_RANGE[1]:
        mean = float(values.mean())
        return mean, math.sqrt(float(((values - mean) ** 2).mean()))
    if magnitude == 0.0:
        return 0.0, 0.0
    exponent = math.frexp(magnitude)[1]
    scaled = np.ldexp(values, -exponent)
    mean_s = float(scaled.mean())
    sd_s = math.sqrt(float(((scaled - mean_s) ** 2).mean()))
    return math.ldexp(mean_s, exponent), math.ldexp(sd_s, exponent)


def combine_moments(
    n_a: int, mean_a: float, sd_a: float, n_b: int, mean_b: float, sd_b: float
) -> tuple[float, float]:
    """(mean, population standard deviation) of two parts together (Chan et al.), on
    values scaled by a power of two when they lie outside :data:`_PLAIN_RANGE`."""
    if n_a == 0:
        return mean_b, sd_b
    if n_b == 0:
        return mean_a, sd_a
    total = n_a + n_b
    w_a, w_b = n_a / total, n_b / total
    magnitude = max(abs(mean_a), abs(mean_b), sd_a, sd_b)
    if magnitude == 0.0:
        return 0.0, 0.0
    exponent = 0
    if not _PLAIN_RANGE[0] < magnitude < _PLAIN_RANGE[1]:
        exponent = math.frexp(magnitude)[1]
        mean_a, mean_b = math.ldexp(mean_a, -exponent), math.ldexp(mean_b, -exponent)
        sd_a, sd_b = math.ldexp(sd_a, -exponent), math.ldexp(sd_b, -exponent)
    delta = mean_b - mean_a
    var = w_a * sd_a * sd_a + w_b * sd_b * sd_b + delta * delta * w_a * w_b
    return math.ldexp(mean_a + delta * w_b, exponent), math.ldexp(math.sqrt(var), exponent)


def _finite_or_none(value: float) -> float | None:
    return value if math.isfinite(value) else None
