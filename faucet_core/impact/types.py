"""A small lattice of column types: is a type change a widening or a narrowing?

A column type is a union of atoms written ``a|b`` (``integer|null``). Each atom is
normalised to a family (``integer``, ``number``, ``string``, ``boolean``, ``date``,
``timestamp``, ``object``, ``array``, ``null``; anything else keeps its lower-cased name)
and, for numbers, a range: ``int8 < int16 < int32 < int64 < integer`` (JSON's unbounded
integer), ``uint8`` fits ``int16``, ``float32 < float64 = number``.

Widening (every old value still fits): ``integer -> number``, ``int32 -> int64``,
``float32 -> float64``, ``date -> timestamp``, and adding ``null``. Narrowing is the
reverse. Anything else is incompatible. Two decisions:

* **Nothing widens to string.** A reader that does arithmetic or parses dates on a column
  breaks when it turns into text, so ``integer -> string`` is incompatible (breaking).
* **Dropping null is not a retype.** ``integer|null -> integer`` is a type the current
  schema already allows (a sample without nulls looks exactly like that).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import Enum

__all__ = ["TypeChange", "compare_types", "parse_type"]


class TypeChange(str, Enum):
    """How a column's planned type relates to its current one."""

    SAME = "same"
    """The current type already allows every planned value: not a retype."""
    WIDENING = "widening"
    """Every current value still fits (non-breaking)."""
    NARROWING = "narrowing"
    """The planned type is a strict subset of the current one (breaking)."""
    INCOMPATIBLE = "incompatible"
    """Neither contains the other (breaking)."""
    UNKNOWN = "unknown"
    """One side has no type: the change cannot be judged."""

    @property
    def breaking(self) -> bool:
        return self in (TypeChange.NARROWING, TypeChange.INCOMPATIBLE)


@dataclass(frozen=True, order=True)
class _Atom:
    family: str
    low: float = 0.0
    high: float = 0.0

    def within(self, other: _Atom) -> bool:
        """Every value of ``self`` is a value of ``other``."""
        if self == other:
            return True
        if self.family == "integer" and other.family == "number":
            return True  # integer -> number widens (large int64 lose precision: documented)
        if self.family == "integer" and other.family == "integer":
            return other.low <= self.low and self.high <= other.high
        if self.family == "number" and other.family == "number":
            return self.high <= other.high
        return self.family == "date" and other.family == "timestamp"


_INF = float("inf")
_ALIASES = {
    "null": "null",
    "none": "null",
    "bool": "boolean",
    "boolean": "boolean",
    "str": "string",
    "string": "string",
    "text": "string",
    "varchar": "string",
    "char": "string",
    "utf8": "string",
    "large_string": "string",
    "date": "date",
    "date32": "date",
    "timestamp": "timestamp",
    "datetime": "timestamp",
    "timestamptz": "timestamp",
    "object": "object",
    "struct": "object",
    "map": "object",
    "record": "object",
    "array": "array",
    "list": "array",
}
_INTS = {"tinyint": 8, "smallint": 16, "int": 32, "bigint": 64, "long": 64}
_FLOATS = {"float": 32, "float32": 32, "real": 32, "float16": 16, "half": 16}
_NUMBERS = {"number", "double", "float64", "numeric", "decimal", "double precision"}
_SIZED = re.compile(r"^(u?)int(8|16|32|64)$")


def _atom(raw: str) -> _Atom:
    name = re.sub(r"\(.*\)$", "", raw.strip().lower()).strip()
    if name == "integer":
        return _Atom("integer", -_INF, _INF)
    sized = _SIZED.match(name)
    bits = int(sized.group(2)) if sized else _INTS.get(name)
    if bits is not None:
        if sized and sized.group(1):
            return _Atom("integer", 0, 2.0**bits - 1)
        return _Atom("integer", -(2.0 ** (bits - 1)), 2.0 ** (bits - 1) - 1)
    if name in _FLOATS:
        return _Atom("number", 0, _FLOATS[name])
    if name in _NUMBERS:
        return _Atom("number", 0, 64)
    return _Atom(_ALIASES.get(name, name))


def parse_type(text: str) -> frozenset[_Atom]:
    """The atoms of a type ``a|b`` (empty for an empty text)."""
    return frozenset(_atom(p) for p in text.split("|") if p.strip())


def _observed(
    new: frozenset[_Atom], old: frozenset[_Atom], values: tuple[float, float]
) -> frozenset[_Atom]:
    """Sample atoms narrowed to what the values show: JSON's unbounded ``integer`` to the
    observed range, and a JSON ``number`` (whose width values cannot show) to the narrowest
    current number type that holds the range."""
    low, high = values
    span = max(abs(low), abs(high))
    out = set()
    for atom in new:
        if atom == _Atom("integer", -_INF, _INF) and math.isfinite(span):
            atom = _Atom("integer", math.floor(low), math.ceil(high))
        elif atom == _Atom("number", 0, 64):
            holds = [o for o in old if o.family == "number" and span <= _FLOAT_MAX[int(o.high)]]
            if holds:
                atom = min(holds)
        out.add(atom)
    return frozenset(out)


_FLOAT_MAX = {16: 65504.0, 32: 3.4028234663852886e38, 64: _INF}


def compare_types(
    current: str | None,
    planned: str | None,
    *,
    sample: bool = False,
    values: tuple[float, float] | None = None,
) -> TypeChange:
    """How ``planned`` relates to ``current``.

    ``sample``: ``planned`` was observed in sample values, which show what values are, not
    what the column admits; a planned type whose values all fit the current one (ints in a
    number column) is then not a retype. ``values`` (the sample's numeric range) lets JSON
    ``integer``/``number`` values fit a sized current type (``int32``, ``float32``) they
    fit in.
    """
    if not current or not planned:
        return TypeChange.UNKNOWN
    old, new = parse_type(current), parse_type(planned)
    if not old or not new:
        return TypeChange.UNKNOWN
    null = _Atom("null")
    if null not in new:
        old = old - {null} or old
    if new <= old:
        return TypeChange.SAME
    if sample and values is not None:
        seen = _observed(new, old, values)
        if all(any(n.within(o) for o in old) for n in seen):
            return TypeChange.SAME
    new_fits = all(any(n.within(o) for o in old) for n in new)
    if sample and new_fits:
        return TypeChange.SAME
    if sample and null in new and all(any(n.within(o) for o in old) for n in new - {null}):
        return TypeChange.WIDENING  # values that fit, and nulls the current type lacks
    if all(any(o.within(n) for n in new) for o in old):
        return TypeChange.WIDENING
    if new_fits:
        return TypeChange.NARROWING
    return TypeChange.INCOMPATIBLE
