"""What names a SQL table to profile, and the bounds its queries work to: no heavy imports.

:mod:`faucet_core.profile.sql` is the public front (it re-exports :class:`SqlTable` and
holds the bounds' values); the queries (:mod:`faucet_core.profile.sql_run`,
:mod:`faucet_core.profile.sql_distinct`) import this module, never the front.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["SqlBounds", "SqlTable", "is_sql_table"]


@dataclass(frozen=True)
class SqlTable:
    """A table or view in a SQL database, profiled where it lives.

    ``bind`` is a SQLAlchemy Engine or Connection, or a database URL (an engine is made
    for the call and disposed after). ``name`` and ``schema`` are identifiers, quoted by
    the dialect (never pasted into SQL); ``schema=None`` is the connection's default.
    """

    bind: Any
    name: str
    schema: str | None = None


def is_sql_table(data: Any) -> bool:
    """Whether ``data`` is a :class:`SqlTable`."""
    return isinstance(data, SqlTable)


@dataclass(frozen=True)
class SqlBounds:
    """The bounds one profile's queries work to (their values and meaning:
    :data:`faucet_core.profile.sql.EXACT_DISTINCT_BELOW` and the two after it)."""

    exact_distinct_below: int
    quantile_sample_rows: int
    exact_quantiles_up_to: int
