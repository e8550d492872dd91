"""The published profile: immutable value types with a JSON round trip.

JSON has no NaN or infinity. Every float statistic of :meth:`ColumnProfile.to_dict`
(and the moments in its sketches) that is not finite is written as one of the
strings ``"NaN"``, ``"Infinity"``, ``"-Infinity"`` (the spellings JavaScript and
Python print) and read back as that float, so a profile round-trips through strict
JSON without loss. A finite float is written as a JSON number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from faucet_core.errors import SketchError

__all__ = [
    "NONFINITE_TEXTS",
    "PROFILE_FORMAT",
    "ColumnProfile",
    "JsonType",
    "NumericStats",
    "StringStats",
    "TopValue",
    "decode_float",
    "encode_float",
]

PROFILE_FORMAT = 1
"""Version of the ``to_dict`` layout; bumped on an incompatible change."""


NONFINITE_TEXTS = ("NaN", "Infinity", "-Infinity")
"""How ``to_dict`` writes a float that is not finite."""


def encode_float(value: float) -> float | str:
    """``value`` itself if finite, else ``"NaN"``, ``"Infinity"`` or ``"-Infinity"``."""
    if math.isfinite(value):
        return value
    if math.isnan(value):
        return "NaN"
    return "Infinity" if value > 0 else "-Infinity"


def decode_float(value: Any, what: str) -> float:
    """The float :func:`encode_float` wrote; anything but a number or one of
    :data:`NONFINITE_TEXTS` raises ``ValueError`` naming ``what``."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str) and value in NONFINITE_TEXTS:
        return float(value)
    raise ValueError(f"{what} is {value!r}, not a number (nor one of {', '.join(NONFINITE_TEXTS)})")


class JsonType(str, Enum):
    """The JSON type of a value, as a JSON writer would emit it."""

    INTEGER = "integer"
    NUMBER = "number"
    STRING = "string"
    BOOLEAN = "boolean"
    OBJECT = "object"
    ARRAY = "array"
    NULL = "null"


@dataclass(frozen=True)
class NumericStats:
    """Statistics over the finite integer and number values of a column."""

    min: float
    max: float
    mean: float
    stddev: float
    p50: float
    p95: float
    count: int
    nonfinite: int = 0


@dataclass(frozen=True)
class StringStats:
    """Length statistics, in characters, over the string values of a column."""

    len_min: int
    len_max: int
    len_mean: float
    count: int


@dataclass(frozen=True)
class TopValue:
    """One frequent value: the JSON value, its count and its share of the records."""

    value: Any
    count: int
    share: float


@dataclass(frozen=True)
class ColumnProfile:
    """The profile of one top-level column.

    ``sketches`` carries the serialized state that :meth:`TableProfile.merge`
    needs; it never holds values of a high-cardinality or classified column.
    """

    name: str
    row_count: int
    null_count: int
    types: Mapping[str, int]
    distinct: int
    numeric: NumericStats | None
    string: StringStats | None
    top_values: tuple[TopValue, ...] | None
    high_cardinality: bool
    classified: tuple[str, ...] = ()
    sketches: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def null_rate(self) -> float:
        """Absent-or-null records divided by records (0.0 for an empty table)."""
        return self.null_count / self.row_count if self.row_count else 0.0

    @property
    def top_values_coverage(self) -> float:
        """Share of the records that the listed top values account for."""
        if not self.top_values:
            return 0.0
        return sum(t.share for t in self.top_values)

    def to_dict(self, *, sketches: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "row_count": self.row_count,
            "null_count": self.null_count,
            "null_rate": encode_float(self.null_rate),
            "types": dict(self.types),
            "distinct": self.distinct,
            "numeric": None if self.numeric is None else _asdict(self.numeric),
            "string": None if self.string is None else _asdict(self.string),
            "top_values": None
            if self.top_values is None
            else [
                {"value": t.value, "count": t.count, "share": encode_float(t.share)}
                for t in self.top_values
            ],
            "high_cardinality": self.high_cardinality,
            "classified": list(self.classified),
        }
        if sketches:
            data["sketches"] = _encode_sketches(self.sketches)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ColumnProfile:
        try:
            numeric = data.get("numeric")
            string = data.get("string")
            top = data.get("top_values")
            return cls(
                name=str(data["name"]),
                row_count=int(data["row_count"]),
                null_count=int(data["null_count"]),
                types={str(k): int(v) for k, v in data["types"].items()},
                distinct=int(data["distinct"]),
                numeric=None if numeric is None else _numeric(numeric),
                string=None if string is None else _string(string),
                top_values=None
                if top is None
                else tuple(
                    TopValue(
                        value=t["value"],
                        count=int(t["count"]),
                        share=decode_float(t["share"], "top value share"),
                    )
                    for t in top
                ),
                high_cardinality=bool(data["high_cardinality"]),
                classified=tuple(data.get("classified", ())),
                sketches=dict(data.get("sketches") or {}),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            name = data.get("name", "?") if isinstance(data, Mapping) else "?"
            raise SketchError(
                f"column profile {name!r} is not a valid serialized profile ({exc!r}); "
                "it was written by an incompatible faucet or damaged"
            ) from None


_NUMERIC_FLOATS = ("min", "max", "mean", "stddev", "p50", "p95")


def _asdict(stats: NumericStats | StringStats) -> dict[str, Any]:
    return {k: encode_float(v) if isinstance(v, float) else v for k, v in stats.__dict__.items()}


def _numeric(data: Mapping[str, Any]) -> NumericStats:
    fields = dict(data)
    for name in _NUMERIC_FLOATS:
        fields[name] = decode_float(fields[name], f"numeric.{name}")
    fields["count"] = _integer(fields["count"], "numeric.count")
    fields["nonfinite"] = _integer(fields.get("nonfinite", 0), "numeric.nonfinite")
    return NumericStats(**fields)


def _string(data: Mapping[str, Any]) -> StringStats:
    fields = dict(data)
    for name in ("len_min", "len_max", "count"):
        fields[name] = _integer(fields[name], f"string.{name}")
    fields["len_mean"] = decode_float(fields["len_mean"], "string.len_mean")
    return StringStats(**fields)


def _integer(value: Any, what: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise ValueError(f"{what} is {value!r}, not an integer")


def _encode_sketches(sketches: Mapping[str, Any]) -> dict[str, Any]:
    """The sketch state with its non-finite moments (a list of numbers) encoded."""
    out = dict(sketches)
    num = out.get("num")
    if isinstance(num, (list, tuple)):
        out["num"] = [encode_float(v) if isinstance(v, float) else v for v in num]
    return out
