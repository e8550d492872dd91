"""Column kinds, value conversion and column choice of the SQL pushdown profiler.

How a SQL type is profiled (:class:`Kind`), how a value read back from the database is
written as the in-memory profiler writes it (JSON text of top values, ISO 8601 temporals,
decimals as Arrow converts them). Which columns a profile covers is
:func:`faucet_core.profile.columns.select_columns`.
Nothing here imports pyarrow or numpy unless a value needs them (a decimal or a
single-precision float column).
"""

from __future__ import annotations

import base64
import math
from enum import Enum
from typing import Any

import sqlalchemy as sa

from faucet_core.profile.jsontext import (
    boolean_text,
    integer_text,
    iso_text,
    number_text,
    string_text,
    text_value,
)
from faucet_core.profile.model import ColumnProfile, JsonType, TopValue
from faucet_core.profile.sql_reflect import Nested

__all__ = [
    "FLOATS",
    "NESTED",
    "NUMERIC",
    "TEMPORAL_BASE",
    "Kind",
    "all_null",
    "count_if",
    "decimal_float",
    "float_or_nan",
    "json_key",
    "json_type",
    "kind_of",
    "shortest",
    "top",
]


class Kind(Enum):
    INTEGER = "integer"
    FLOAT = "float"
    FLOAT32 = "float32"
    DECIMAL = "decimal"
    BOOLEAN = "boolean"
    TEXT = "text"
    DATE = "date"
    TIMESTAMP = "timestamp"
    TIMESTAMPTZ = "timestamptz"
    TIME = "time"
    BINARY = "binary"
    JSON = "json"
    ARRAY = "array"
    OBJECT = "object"
    OTHER = "other"  # profiled as its text


NUMERIC = (Kind.INTEGER, Kind.FLOAT, Kind.FLOAT32, Kind.DECIMAL)
FLOATS = (Kind.FLOAT, Kind.FLOAT32)
TEMPORAL_BASE = {Kind.DATE: 10, Kind.TIMESTAMP: 19, Kind.TIMESTAMPTZ: 20, Kind.TIME: 8}
NESTED = (Kind.JSON, Kind.ARRAY, Kind.OBJECT)


def kind_of(sql_type: Any) -> Kind:
    """How a column of SQLAlchemy type ``sql_type`` is profiled (its JSON type follows)."""
    t = sql_type
    if isinstance(t, Nested):
        return Kind.OBJECT
    if isinstance(t, sa.ARRAY):
        return Kind.ARRAY
    if isinstance(t, sa.JSON):
        return Kind.JSON
    if isinstance(t, sa.Boolean):
        return Kind.BOOLEAN
    if isinstance(t, sa.Integer):
        return Kind.INTEGER
    if isinstance(t, sa.Float):
        single = isinstance(t, sa.REAL) or (t.precision is not None and t.precision <= 24)
        return Kind.FLOAT32 if single else Kind.FLOAT
    if isinstance(t, sa.Numeric):
        return Kind.DECIMAL
    if isinstance(t, sa.DateTime):
        return Kind.TIMESTAMPTZ if t.timezone else Kind.TIMESTAMP
    if isinstance(t, sa.Date):
        return Kind.DATE
    if isinstance(t, sa.Time):
        return Kind.TIME
    if isinstance(t, sa.LargeBinary | sa.BINARY | sa.VARBINARY):
        return Kind.BINARY
    if isinstance(t, sa.String | sa.Enum):
        return Kind.TEXT
    return Kind.OTHER


def shortest(value: Any) -> Any:
    return sa.cast(sa.cast(value, sa.String), sa.Float(53))


def count_if(condition: Any) -> Any:
    return sa.func.coalesce(sa.func.sum(sa.case((condition, 1), else_=0)), 0)


def json_type(kind: Kind) -> JsonType:
    if kind is Kind.INTEGER:
        return JsonType.INTEGER
    if kind in NUMERIC:
        return JsonType.NUMBER
    if kind is Kind.BOOLEAN:
        return JsonType.BOOLEAN
    if kind is Kind.ARRAY:
        return JsonType.ARRAY
    if kind is Kind.OBJECT:
        return JsonType.OBJECT
    return JsonType.STRING


def float_or_nan(value: Any) -> float:
    return float(value) if value is not None else math.nan


def decimal_float(sql_type: Any, value: Any) -> float:
    """A decimal as the in-memory profiler reads it: Arrow's cast of the column's decimal
    type to double (which can differ from ``float()`` in the last bit: 0.043 becomes
    0.043000000000000003 at some precisions); ``float()`` for an unconstrained NUMERIC."""
    if value is None:
        return math.nan
    precision, scale = getattr(sql_type, "precision", None), getattr(sql_type, "scale", None)
    if precision is None or scale is None or not 0 < precision <= 76:
        return float(value)
    import pyarrow as pa  # here: only a decimal column needs it

    try:
        arrow_type = (
            pa.decimal128(precision, scale) if precision <= 38 else pa.decimal256(precision, scale)
        )
        return float(pa.array([value], arrow_type).cast(pa.float64())[0].as_py())
    except (pa.ArrowException, TypeError, ValueError):
        return float(value)


def all_null(name: str, rows: int, classified: tuple[str, ...], tracked: bool) -> ColumnProfile:
    return ColumnProfile(
        name=name,
        row_count=rows,
        null_count=rows,
        types={JsonType.NULL.value: rows} if rows else {},
        distinct=0,
        numeric=None,
        string=None,
        top_values=() if tracked else None,
        high_cardinality=False,
        classified=classified,
        sketches={},
    )


def top(keyed: list[tuple[str, int]], k: int, rows: int) -> tuple[TopValue, ...]:
    """The ``k`` most frequent, ties broken by JSON text (as the in-memory profiler does)."""
    keyed.sort(key=lambda item: (-item[1], item[0]))
    return tuple(
        TopValue(value=text_value(key), count=n, share=n / rows if rows else 0.0)
        for key, n in keyed[:k]
    )


def json_key(value: Any, kind: Kind, sql_type: Any = None) -> str:
    """The canonical JSON text of a value, as the in-memory profiler counts it."""
    if kind is Kind.BOOLEAN:
        return boolean_text(value)
    if kind is Kind.INTEGER:
        return integer_text(int(value))
    if kind is Kind.FLOAT32:  # its shortest decimal text, as a JSON writer prints it
        import numpy as np  # here: only a single-precision column needs it

        return number_text(float(str(np.float32(value))))
    if kind is Kind.DECIMAL:
        return number_text(decimal_float(sql_type, value))
    if kind in NUMERIC:
        return number_text(value)
    if kind is Kind.BINARY:
        return string_text(base64.b64encode(bytes(value)).decode("ascii"))
    if kind in TEMPORAL_BASE:
        return string_text(iso_text(value))
    return string_text(str(value))
