"""The published profile: immutable value types with a JSON round trip."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from faucet_core.errors import SketchError

__all__ = [
    "PROFILE_FORMAT",
    "ColumnProfile",
    "JsonType",
    "NumericStats",
    "StringStats",
    "TopValue",
]

PROFILE_FORMAT = 1
"""Version of the ``to_dict`` layout; bumped on an incompatible change."""


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
            "null_rate": self.null_rate,
            "types": dict(self.types),
            "distinct": self.distinct,
            "numeric": None if self.numeric is None else _asdict(self.numeric),
            "string": None if self.string is None else _asdict(self.string),
            "top_values": None
            if self.top_values is None
            else [{"value": t.value, "count": t.count, "share": t.share} for t in self.top_values],
            "high_cardinality": self.high_cardinality,
            "classified": list(self.classified),
        }
        if sketches:
            data["sketches"] = dict(self.sketches)
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
                numeric=None if numeric is None else NumericStats(**numeric),
                string=None if string is None else StringStats(**string),
                top_values=None
                if top is None
                else tuple(
                    TopValue(value=t["value"], count=int(t["count"]), share=float(t["share"]))
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


def _asdict(stats: NumericStats | StringStats) -> dict[str, Any]:
    return dict(stats.__dict__)
