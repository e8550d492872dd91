"""Planning a dbt model's change: its declared columns, typed where dbt's yml does not say.

dagster-dbt puts a model's yml columns on its spec as ``dagster/column_schema``, with ``?``
for a column declared without ``data_type``. Planned as is, every such column would read as
"type unknown"; the model's SQL did not say its type changed, so such a column keeps the
type the catalog last observed (a contract's ``data_type`` is always declared and wins).
"""

from __future__ import annotations

from collections.abc import Sequence

from faucet_core.catalog import SchemaField

__all__ = ["UNDECLARED_TYPE", "typed_like_observed"]

UNDECLARED_TYPE = "?"
"""The type dagster-dbt gives a column whose yml entry has no ``data_type``."""


def typed_like_observed(
    declared: Sequence[SchemaField], observed: Sequence[SchemaField] | None
) -> tuple[SchemaField, ...]:
    """``declared`` with each ``?`` type replaced by the observed type of the same column
    (None when the catalog has not observed it: a new column of unknown type)."""
    seen = {f.name.lower(): f.type for f in observed or ()}
    return tuple(
        SchemaField(f.name, seen.get(f.name.lower()), f.description)
        if f.type in (None, "", UNDECLARED_TYPE)
        else f
        for f in declared
    )
