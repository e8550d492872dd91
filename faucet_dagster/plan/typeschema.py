"""The column schema an asset's Dagster type declares, for planning when the asset's
definition metadata declares none.

dagster-pandera's ``pandera_schema_to_dagster_type`` puts the frame's ``TableSchema`` on
the type's metadata under ``schema``; a type may also carry ``dagster/column_schema``.
dagster-pandas' ``create_dagster_pandas_dataframe_type`` keeps its ``PandasColumn`` list
only inside the type's check function: it is read from there (:func:`pandas_columns_of`),
each column's dtype from its dtype constraint (``integer_column`` -> ``int64``,
``datetime_column`` -> its dtype; ``numeric_column`` and ``exists`` name no single
dtype and are planned with an unknown type).
The column types are pandas dtypes (``int64``, ``float64``, ``str``, ``object``,
``datetime64[ns]``). Against a catalog schema a profile check recorded (JSON's names),
each is read as the profiler would record its values (``int64`` -> ``integer``); a dtype
whose values JSON cannot name (a datetime, a category) is planned with an unknown type,
which is never judged a retype. Against any other recorded type, the dtype is kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from faucet_core.catalog import SchemaField
from faucet_dagster.lineage.mapping import schema_of
from faucet_dagster.metadata import COLUMN_SCHEMA

__all__ = ["TYPE_SCHEMA_KEYS", "pandas_columns_of", "type_schema_of", "typed_like_profile"]

TYPE_SCHEMA_KEYS = (COLUMN_SCHEMA, "schema")
"""Dagster type metadata keys holding a ``TableSchema``, first match wins."""

_JSON_NAMES = {"integer", "number", "string", "boolean", "object", "array", "null"}


def type_schema_of(node: Any) -> tuple[SchemaField, ...] | None:
    """The schema the Dagster type of the output writing ``node``'s asset declares."""
    assets_def = getattr(node, "assets_def", None)
    if assets_def is None or not assets_def.is_executable:
        return None
    try:
        name = assets_def.get_output_name_for_asset_key(node.key)
        output, _ = assets_def.node_def.resolve_output_to_origin(name, None)
    except Exception:  # a graph Dagster itself cannot resolve: nothing declared here
        return None
    metadata = getattr(output.dagster_type, "metadata", None) or {}
    for key in TYPE_SCHEMA_KEYS:
        found = schema_of(metadata.get(key))
        if found is not None:
            return found
    return pandas_columns_of(output.dagster_type)


_DTYPE_FNS = {
    "is_integer_dtype": "int64",
    "is_float_dtype": "float64",
    "is_string_dtype": "str",
    "is_bool_dtype": "bool",
}
"""dagster-pandas' dtype validators that name one dtype (``is_numeric_dtype`` names two)."""


def pandas_columns_of(dagster_type: Any) -> tuple[SchemaField, ...] | None:
    """The columns a dagster-pandas dataframe type declares, or None for any other type
    (read without importing dagster-pandas: the ``columns`` its check function holds)."""
    fn = getattr(dagster_type, "_type_check_fn", None)
    code = getattr(fn, "__code__", None)
    cells = getattr(fn, "__closure__", None)
    if code is None or not cells or "columns" not in code.co_freevars:
        return None
    try:
        columns = cells[code.co_freevars.index("columns")].cell_contents
    except ValueError:  # an empty cell
        return None
    if not isinstance(columns, list) or not columns:
        return None
    fields = []
    for column in columns:
        name = getattr(column, "name", None)
        if not isinstance(name, str):
            return None  # not a PandasColumn list: some other closure named columns
        fields.append(SchemaField(name, _dtype_of(getattr(column, "constraints", ()))))
    return tuple(fields)


def _dtype_of(constraints: Any) -> str | None:
    for constraint in constraints or ():
        type_fn = getattr(constraint, "type_fn", None)
        if type_fn is not None:
            return _DTYPE_FNS.get(getattr(type_fn, "__name__", ""))
        dtypes = getattr(constraint, "expected_dtype_set", None)
        if dtypes is not None:
            names = sorted(str(d) for d in dtypes)
            return names[0] if len(names) == 1 else None
    return None


def _json_of(dtype: str) -> str | None:
    name = dtype.strip().lower()
    if name.startswith(("int", "uint")):
        return "integer"
    if name.startswith("float"):
        return "number"
    if name in ("bool", "boolean"):
        return "boolean"
    if name in ("str", "string", "object"):
        return "string"
    return None


def typed_like_profile(
    declared: Sequence[SchemaField], observed: Sequence[SchemaField] | None
) -> tuple[SchemaField, ...]:
    """``declared`` (pandas dtypes) with each type read in JSON's names where the catalog
    recorded the column in JSON's names (a profile check's schema)."""
    seen = {f.name: f.type for f in observed or ()}
    out = []
    for f in declared:
        recorded = seen.get(f.name)
        parts = set((recorded or "").split("|")) - {""}
        if f.type and parts and parts <= _JSON_NAMES:
            out.append(SchemaField(f.name, _json_of(f.type), f.description))
        else:
            out.append(f)
    return tuple(out)
