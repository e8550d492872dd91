"""Sketch parameters and (de)serialization helpers around datasketches.

Accuracy of the sketches used here (documented in docs/profiling.md):

* distinct: HyperLogLog, lg_k = 12 -> relative standard error 1.04 / sqrt(4096) ~ 1.6 %.
* p50 / p95: KLL doubles sketch, k = 200 -> normalized rank error ~ 1.33 % (99 % confidence,
  single query): the reported p95 is the value at a rank within 0.95 +- 0.0133.
* top values: frequent-items sketch sized so that up to ``categorical_max_distinct`` values are
  counted exactly; above that the column is high-cardinality and publishes no values.
"""

from __future__ import annotations

import base64
import math
from dataclasses import dataclass

import datasketches as ds

from faucet_core.errors import SketchError
from faucet_core.profile.jsontext import MAX_TRACKED_VALUE_CHARS

__all__ = [
    "HLL_LG_K",
    "KLL_K",
    "MAX_TRACKED_VALUE_CHARS",
    "SketchParams",
    "b64",
    "load_freq",
    "load_hll",
    "load_kll",
    "new_freq",
    "new_hll",
    "new_kll",
    "unb64",
]

HLL_LG_K = 12
KLL_K = 200

_FREQ_MIN_LG = 8
_FREQ_MAX_LG = 17


@dataclass(frozen=True)
class SketchParams:
    """What a profile's sketches were sized for; two profiles merge only if these match."""

    top_values: int = 10
    categorical_max_distinct: int = 100

    @property
    def freq_lg_max_k(self) -> int:
        # The sketch holds 0.75 * 2**lg items; keep every categorical value exactly, with room
        # for the HLL estimate's overshoot.
        want = max(self.categorical_max_distinct * 1.1, self.top_values) / 0.75
        return min(_FREQ_MAX_LG, max(_FREQ_MIN_LG, math.ceil(math.log2(want))))

    def to_dict(self) -> dict[str, int]:
        return {
            "top_values": self.top_values,
            "categorical_max_distinct": self.categorical_max_distinct,
        }


def new_hll() -> ds.hll_sketch:
    return ds.hll_sketch(HLL_LG_K, ds.tgt_hll_type.HLL_8)


def new_kll() -> ds.kll_doubles_sketch:
    return ds.kll_doubles_sketch(KLL_K)


def new_freq(params: SketchParams) -> ds.frequent_strings_sketch:
    return ds.frequent_strings_sketch(params.freq_lg_max_k)


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def unb64(text: str, what: str) -> bytes:
    if not isinstance(text, str):
        raise SketchError(f"{what}: sketch is a {type(text).__name__}, not base64 text")
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError) as exc:
        raise SketchError(f"{what}: sketch is not valid base64 ({exc})") from None


def _load(kind: str, loader, text: str, what: str):  # type: ignore[no-untyped-def]
    raw = unb64(text, what)
    try:
        return loader(raw)
    except Exception as exc:  # the sketch library raises plain RuntimeError/ValueError
        raise SketchError(f"{what}: the serialized {kind} sketch is unreadable ({exc})") from None


def load_hll(text: str, what: str) -> ds.hll_sketch:
    return _load("HyperLogLog", ds.hll_sketch.deserialize, text, what)


def load_kll(text: str, what: str) -> ds.kll_doubles_sketch:
    return _load("KLL", ds.kll_doubles_sketch.deserialize, text, what)


def load_freq(text: str, what: str) -> ds.frequent_strings_sketch:
    return _load("frequent-items", ds.frequent_strings_sketch.deserialize, text, what)
