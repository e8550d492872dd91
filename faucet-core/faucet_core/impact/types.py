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

Two vocabularies meet here. faucet's own names (JSON's ``integer``, ``number``,
``string``...; Arrow's ``int32``, ``float64``, ``large_string``) are read with the table
below. A comparison in which either side uses another spelling (``VARCHAR``, ``int4``,
``character varying(256)``, ``numeric(12, 2)``: what a warehouse or a dbt contract writes)
is read as SQL: each spelling by sqlglot's type parser in the warehouse's ``dialect``
(:mod:`faucet_core.impact.sqltypes`), so ``varchar`` = ``VARCHAR`` = ``text`` and
``int4`` = ``integer`` (SQL's 32-bit one, not JSON's unbounded one). A length or a
decimal's precision counts only when both sides state it: ``varchar`` against
``character varying(256)`` is the same type, ``varchar(100) -> varchar(256)`` a widening,
``numeric(12, 2) -> numeric(10, 2)`` a narrowing.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import Enum

__all__ = ["TypeChange", "compare_types", "is_sql", "parse_type"]


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
    size: tuple[int, ...] = ()
    """A string's length or a decimal's (precision, scale); empty when not stated."""

    def within(self, other: _Atom) -> bool:
        """Every value of ``self`` is a value of ``other``."""
        if self == other:
            return True
        if self.family == "integer" and other.family in ("number", "decimal"):
            # integer -> number widens (large int64 lose precision: documented)
            return other.family == "number" or _digits(self) <= _int_digits(other)
        if self.family == "integer" and other.family == "integer":
            return other.low <= self.low and self.high <= other.high
        if self.family == "number" and other.family == "number":
            return self.high <= other.high
        if self.family == "decimal" and other.family == "number":
            return True  # like integer -> number: exact decimals become floats
        if self.family == other.family and self.family in ("string", "decimal"):
            if not self.size or not other.size:
                return True
            if self.family == "string":
                return self.size[0] <= other.size[0]
            return _int_digits(self) <= _int_digits(other) and self.size[1] <= other.size[1]
        return self.family == "date" and other.family == "timestamp"


def _digits(atom: _Atom) -> float:
    """How many decimal digits an integer atom's values need."""
    span = max(abs(atom.low), abs(atom.high))
    return float(len(str(int(span)))) if math.isfinite(span) else _INF


def _int_digits(atom: _Atom) -> float:
    """A decimal's integer digits (precision - scale); unbounded when not stated."""
    return float(atom.size[0] - atom.size[1]) if len(atom.size) == 2 else _INF


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


# faucet's own names: JSON's types as a profile records them and Arrow's as a sample states
# them; any other spelling makes the comparison SQL
_OWN = {
    *("null", "none", "integer", "number", "string", "boolean", "object", "array"),
    *("bool", "str", "utf8", "large_string", "date", "date32", "timestamp", "datetime"),
    *("decimal", "float16", "float32", "float64", "half", "list", "struct", "map", "record"),
}
_JSON_WORDS = {"null", "none", "number", "string", "boolean", "object", "array"}
"""Kept in JSON's meaning in a SQL comparison too (``number`` is a float, not a decimal)."""


def _own(part: str) -> bool:
    name = part.strip()
    return name in _OWN or bool(_SIZED.match(name))


def _sql_atom(raw: str, dialect: str | None) -> _Atom:
    from faucet_core.impact.sqltypes import parse_sql_type

    name = raw.strip()
    if name.lower() in _JSON_WORDS:
        return _atom(name)
    found = parse_sql_type(name, dialect)
    if found is None:
        return _atom(name)
    if found.family == "integer":
        if not found.signed:
            return _Atom("integer", 0, 2.0**found.bits - 1)
        return _Atom("integer", -(2.0 ** (found.bits - 1)), 2.0 ** (found.bits - 1) - 1)
    if found.family == "number":
        return _Atom("number", 0, found.bits)
    return _Atom(found.family, size=found.size)


def _parts(text: str) -> list[str]:
    return [p for p in text.split("|") if p.strip()]


def parse_type(text: str, *, sql: bool = False, dialect: str | None = None) -> frozenset[_Atom]:
    """The atoms of a type ``a|b`` (empty for an empty text); ``sql``: read each spelling
    as SQL in ``dialect`` (see the module docstring)."""
    if sql:
        return frozenset(_sql_atom(p, dialect) for p in _parts(text))
    return frozenset(_atom(p) for p in _parts(text))


def is_sql(*types: str | None) -> bool:
    """Whether a comparison of ``types`` is read as SQL: one of them uses a spelling that is
    not faucet's own (JSON's or Arrow's names)."""
    return any(not _own(p) for t in types if t for p in _parts(t))


def _unsized(old: frozenset[_Atom], new: frozenset[_Atom]) -> tuple[frozenset[_Atom], ...]:
    """A length or precision counts only when both sides state it: drop it from a family
    that one side spells without one."""
    bare = {a.family for a in old | new if a.family in ("string", "decimal") and not a.size}
    if not bare:
        return old, new
    return tuple(
        frozenset(_Atom(a.family, a.low, a.high) if a.family in bare else a for a in side)
        for side in (old, new)
    )


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
    dialect: str | None = None,
) -> TypeChange:
    """How ``planned`` relates to ``current``.

    ``sample``: ``planned`` was observed in sample values, which show what values are, not
    what the column admits; a planned type whose values all fit the current one (ints in a
    number column) is then not a retype. ``values`` (the sample's numeric range) lets JSON
    ``integer``/``number`` values fit a sized current type (``int32``, ``float32``) they
    fit in. ``dialect``: the sqlglot dialect that reads SQL spellings (the warehouse's).
    """
    if not current or not planned:
        return TypeChange.UNKNOWN
    sql = is_sql(current, planned)
    old = parse_type(current, sql=sql, dialect=dialect)
    new = parse_type(planned, sql=sql, dialect=dialect)
    old, new = _unsized(old, new)
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
