"""Profiling a SQL table or view where it lives: a few aggregate queries, no rows fetched.

:func:`profile_sql` reflects the columns with SQLAlchemy, then runs

1. for text columns that a value detector may classify, ``SELECT DISTINCT col ... LIMIT
   1000`` (the in-memory profiler's sample size), decided here as a single pass decides;
2. one aggregate query over the whole table: row count, per column non-null and NaN /
   infinity counts, distinct (approximate where the dialect has it), min / max / mean /
   population stddev / p50 / p95 over the finite numbers, string lengths in characters.
   On PostgreSQL (a dialect with :attr:`~SqlDialect.hash64`) distinct and the quantiles
   leave that query so that it keeps a parallel plan: a large column's distinct is a
   theta sketch computed in SQL (:mod:`faucet_core.profile.sql_theta`), a small one is
   counted exactly, and categorical columns by the planner's statistics are counted from
   their top-values groups (one GROUP BY of their combinations when few are expected).
   Integers' stddev is computed over double precision. On PostgreSQL and DuckDB
   (:attr:`~SqlDialect.sample`) p50 / p95 come from one more statement, on a Bernoulli
   sample once a column has more than :data:`EXACT_QUANTILES_UP_TO` values (an exact
   quantile holds every value in memory);
3. for each categorical column (distinct at most ``categorical_max_distinct``), not
   classified, ``GROUP BY col ORDER BY count DESC LIMIT categorical_max_distinct + 1``.

Only aggregates leave the database, plus the top values of categorical columns and the
detector sample (which is tested here and dropped). A classified column's numeric
statistics and top values are never queried. The result is an ordinary
:class:`~faucet_core.profile.table.TableProfile` without sketches (``sketches={}``): the
detector and the store take it as any profile; :meth:`TableProfile.merge` refuses it.

Every dialect difference lives in :mod:`faucet_core.profile.sql_dialects`. This module
holds only the public names and the bounds, and imports nothing heavy: the queries are in
:mod:`faucet_core.profile.sql_run` (SQLAlchemy), loaded by the first :func:`profile_sql`
call, so that ``profile()`` on a DataFrame or a file never loads SQLAlchemy. The bounds are
read here at each call and handed to the queries (:class:`SqlBounds`); :class:`SqlTable`
lives in :mod:`faucet_core.profile.sql_table`, which the queries import instead of this
module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from faucet_core.errors import ProfilingInputError
from faucet_core.profile.sql_table import SqlBounds, SqlTable, is_sql_table

if TYPE_CHECKING:
    from faucet_core.config import ProfilingConfig
    from faucet_core.profile.table import TableProfile

__all__ = ["SqlTable", "is_sql_table", "profile_sql"]

EXACT_DISTINCT_BELOW = 100_000
"""Below this many (approximately counted) distinct values a column's distinct is exact."""
QUANTILE_SAMPLE_ROWS = 200_000
"""A large column's quantiles come from a Bernoulli sample of at least about this many of
its values (up to twice as many)."""
EXACT_QUANTILES_UP_TO = 2 * QUANTILE_SAMPLE_ROWS
"""Up to this many finite values in a numeric column, its p50 / p95 are exact."""


def profile_sql(table: SqlTable, config: ProfilingConfig | None = None) -> TableProfile:
    """Profile ``table`` with aggregate queries run by its database.

    Agrees with :func:`faucet_core.profile` on the same rows: exact row, null and type
    counts, min, max and string lengths; mean and stddev to float precision; p50 / p95
    exact on DuckDB and PostgreSQL below 400,000 values per column, then from a sample
    within the in-memory sketch's error; distinct exact below 100,000 values and within
    the in-memory HyperLogLog's error above (1.6 % relative standard error); top values
    exact. See docs/sql.md for every dialect.
    """
    if not is_sql_table(table):
        raise ProfilingInputError(
            f"profile_sql takes a SqlTable, not a {type(table).__name__}: pass "
            "SqlTable(engine, 'table_name', schema=...)"
        )
    from faucet_core.config import ProfilingConfig
    from faucet_core.profile.sql_run import run

    bounds = SqlBounds(EXACT_DISTINCT_BELOW, QUANTILE_SAMPLE_ROWS, EXACT_QUANTILES_UP_TO)
    return run(table, config or ProfilingConfig(), bounds)
