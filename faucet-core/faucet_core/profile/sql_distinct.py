"""Distinct counts and top values of the SQL pushdown profiler.

Where the dialect has an approximate distinct of its own (DuckDB, the warehouses), the
aggregate query counts it and :func:`exact_small` counts again, exactly, every column it
puts below :data:`~faucet_core.profile.sql.EXACT_DISTINCT_BELOW`. Where it has none but
hashes (PostgreSQL, :attr:`~faucet_core.profile.sql_dialects.SqlDialect.hash64`),
:func:`estimated` decides per column from the planner's statistics (a hint only: every
figure is still computed):

- at most ``categorical_max_distinct`` values: the top-values ``GROUP BY``, which counts
  every value, so its number of groups is the distinct; several such columns share one
  ``GROUP BY`` of their combinations when few combinations are expected;
- under a quarter of the exact bound: counted exactly by :func:`exact_small`;
- every other column: a theta sketch (:mod:`faucet_core.profile.sql_theta`), all of them in
  one scan; a column it puts under the bound is then counted exactly.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from faucet_core.profile import sql_theta
from faucet_core.profile.jsontext import MAX_TRACKED_VALUE_CHARS, canonical_json
from faucet_core.profile.model import TopValue
from faucet_core.profile.sql_values import NESTED, Kind, json_key, top

if TYPE_CHECKING:
    from faucet_core.profile.sql_run import Column, Run

__all__ = ["estimated", "exact_small", "top_values"]

_GROUP_COUNTED = (
    Kind.INTEGER,
    Kind.BOOLEAN,
    Kind.TEXT,
    Kind.DATE,
    Kind.TIMESTAMP,
    Kind.TIMESTAMPTZ,
    Kind.TIME,
)
"""Kinds whose top-values query counts every non-null value (no NaN, no cast to text)."""
_HASH_FAMILY = {
    Kind.INTEGER: "integer",
    Kind.FLOAT: "float",
    Kind.FLOAT32: "float",
    Kind.DECIMAL: "decimal",
    Kind.TIMESTAMP: "timestamp",
    Kind.TIMESTAMPTZ: "timestamptz",
}
_COMBINATIONS = 4096
"""Categorical columns share a GROUP BY while the product of their expected distinct counts
(plus one each, for NULL) stays at most this; more combinations than this: one each."""
_THETA_ROUNDS = 4
"""At most this many theta statements (the later ones only for columns whose expected
distinct count was too high by more than twice)."""


_HINTED_SMALL_SHARE = 4
"""A column the planner's statistics put below the exact bound divided by this number of
distinct values is counted exactly without an estimate first."""


# -- estimates (dialects that hash) ---------------------------------------------------------
def estimated(run: Run, columns: list[Column], stats: Mapping[str, Any]) -> Mapping[str, Any]:
    """``stats`` with the distinct of every column of a table of at least
    :data:`~faucet_core.profile.sql.EXACT_DISTINCT_BELOW` rows, where the dialect hashes
    and has no approximate distinct of its own (see the module docstring); a smaller table
    is counted exactly (by :func:`exact_small`, as is every column estimated below the
    bound)."""
    hash64 = run.dialect.hash64
    rows = int(stats["rows"])
    if hash64 is None or rows < run.bounds.exact_distinct_below:
        return stats
    hints: dict[str, float] = {}
    if run.dialect.distinct_hints is not None:
        hints = run.dialect.distinct_hints(run.conn, run.source.name, run.source.schema)
    categorical: list[tuple[int, Column, float]] = []
    large: list[tuple[int, Column, float]] = []
    for i, column in enumerate(columns):
        nonnull = int(stats[f"c{i}_nonnull"])
        if column.counted is None or not nonnull:
            continue
        hint = hints.get(column.name)
        expected = None if hint is None else (hint if hint > 0 else -hint * rows)
        if (
            expected is not None
            and expected < run.bounds.exact_distinct_below // _HINTED_SMALL_SHARE
        ):
            if _groups_count(run, i, column, stats, expected):
                categorical.append((i, column, expected))
            continue  # else counted exactly by exact_small
        large.append((i, column, nonnull if expected is None else expected))
    found = _categorical_distincts(run, categorical)
    found.update(_theta_distincts(run, large))
    return {**stats, **found}


def _theta_distincts(run: Run, large: list[tuple[int, Column, float]]) -> dict[str, Any]:
    hash64 = run.dialect.hash64
    assert hash64 is not None
    pending = [(i, c, sql_theta.fraction_for(expected)) for i, c, expected in large]
    found: dict[str, Any] = {}
    for attempt in range(_THETA_ROUNDS):
        if not pending:
            break
        hashed = [
            (f"c{i}_distinct", hash64(c.counted, _HASH_FAMILY.get(c.kind, "other")), fraction)
            for i, c, fraction in pending
        ]
        counts = run.conn.execute(sql_theta.counts_query(run.table, hashed)).one()._mapping
        again = []
        for i, column, fraction in pending:
            kept = int(counts[f"c{i}_distinct"] or 0)
            guess = sql_theta.estimate(kept, fraction)
            last = attempt == _THETA_ROUNDS - 1
            if guess < run.bounds.exact_distinct_below or sql_theta.settled(kept, fraction) or last:
                found[f"c{i}_distinct"] = guess  # under the bound: counted exactly next
            else:
                again.append((i, column, sql_theta.next_fraction(kept, fraction)))
        pending = again
    return found


def _groups_count(
    run: Run, i: int, column: Column, stats: Mapping[str, Any], expected: float
) -> bool:
    """Whether a column's top-values GROUP BY would count every one of its values, and is
    wanted: the planner puts it at most ``categorical_max_distinct`` values, it is not
    classified (a classified column's values never leave the database), and no value is
    left out (no NaN or infinity, no text over the tracked length)."""
    if (
        expected > run.params.categorical_max_distinct
        or column.labels
        or run.params.top_values <= 0
        or column.kind not in _GROUP_COUNTED
    ):
        return False
    return not (
        column.kind is Kind.TEXT and int(stats.get(f"c{i}_len_max") or 0) > MAX_TRACKED_VALUE_CHARS
    )


def _categorical_distincts(run: Run, wanted: list[tuple[int, Column, float]]) -> dict[str, Any]:
    """The top-values GROUP BYs of the columns the planner puts at most
    ``categorical_max_distinct`` values, run now: when one returns every group, the number
    of groups is the exact distinct and the groups are kept for the top values. Columns
    share one GROUP BY of their combinations while few are expected; each column's
    groups are then summed from the combinations."""
    found: dict[str, Any] = {}
    for share in _shares(wanted):
        if len(share) > 1:
            values = [c.expr.label(f"v{j}") for j, (_, c, _) in enumerate(share)]
            count = sa.func.count().label("n")
            query = sa.select(*values, count).select_from(run.table)
            query = query.group_by(*[c.expr for _, c, _ in share]).limit(_COMBINATIONS + 1)
            combinations = list(run.conn.execute(query))
            if len(combinations) <= _COMBINATIONS:
                for j, (i, column, _) in enumerate(share):
                    counts: Counter[Any] = Counter()
                    for row in combinations:
                        if row[j] is not None:
                            counts[row[j]] += int(row[-1])
                    _keep_groups(run, found, i, column, counts.most_common())
                continue
        for i, column, _ in share:  # alone, or more combinations than expected
            grouped, count, limit = _groups(run, column)
            rows = list(run.conn.execute(grouped.order_by(count.desc()).limit(limit)))
            _keep_groups(run, found, i, column, [(row[0], int(row[1])) for row in rows])
    return found


def _shares(wanted: list[tuple[int, Column, float]]) -> list[list[tuple[int, Column, float]]]:
    """The columns in groups whose expected combinations stay within :data:`_COMBINATIONS`
    (in the table's order)."""
    shares: list[list[tuple[int, Column, float]]] = []
    product = math.inf
    for item in wanted:
        size = max(item[2], 1.0) + 1  # its values and NULL
        if product * size > _COMBINATIONS:
            shares.append([])
            product = 1.0
        shares[-1].append(item)
        product *= size
    return shares


def _keep_groups(
    run: Run, found: dict[str, Any], i: int, column: Column, groups: list[tuple[Any, int]]
) -> None:
    if len(groups) <= run.params.categorical_max_distinct:
        run.grouped[column.name] = groups
        found[f"c{i}_distinct"] = len(groups)
    # else not categorical after all: counted exactly by exact_small


# -- exact counts ------------------------------------------------------------------------------
def exact_small(run: Run, columns: list[Column], stats: Mapping[str, Any]) -> Mapping[str, Any]:
    """Where the dialect's distinct is approximate, count the columns it puts below
    :data:`~faucet_core.profile.sql.EXACT_DISTINCT_BELOW` exactly, in one more statement:
    an approximate count can be off by a few values even on a handful (DuckDB's
    HyperLogLog reads five decimals as three), and few values are cheap to count exactly."""
    if run.dialect.distinct_exact and run.dialect.hash64 is None:
        return stats
    small = [
        (i, c)
        for i, c in enumerate(columns)
        if c.counted is not None
        and c.name not in run.grouped  # counted exactly from every group already
        and int(stats.get(f"c{i}_distinct") or 0) < run.bounds.exact_distinct_below
    ]
    if not small:
        return stats
    if run.dialect.hash64 is not None:
        # PostgreSQL sorts for count(DISTINCT), in one process; a scalar subquery per
        # column over SELECT DISTINCT hashes instead, and may run in parallel
        counts = [_distinct_subquery(run, c.counted).label(f"c{i}_distinct") for i, c in small]
        exact = run.conn.execute(sa.select(*counts)).one()
    else:
        counts = [sa.func.count(sa.distinct(c.counted)).label(f"c{i}_distinct") for i, c in small]
        exact = run.conn.execute(sa.select(*counts).select_from(run.table)).one()
    return {**stats, **dict(exact._mapping)}


def _distinct_subquery(run: Run, value: Any) -> Any:
    values = sa.select(value.label("v")).select_from(run.table).where(value.is_not(None))
    inner = values.distinct().subquery()
    return sa.select(sa.func.count()).select_from(inner).scalar_subquery()


# -- top values --------------------------------------------------------------------------------
def _groups(run: Run, column: Column) -> tuple[Any, Any, int]:
    """(the GROUP BY of a column's trackable values with their counts, the count, and
    the row limit that returns every group of a categorical column)."""
    d, c, kind = run.dialect, column.expr, column.kind
    value = sa.cast(c, sa.Text) if kind is Kind.OTHER else c
    conditions = [value.is_not(None)]
    if run.specials(kind) and d.is_nan is not None and d.is_inf is not None:
        conditions += [sa.not_(d.is_nan(c)), sa.not_(d.is_inf(c))]
    if kind in (Kind.TEXT, Kind.OTHER):
        conditions.append(d.char_length(value) <= MAX_TRACKED_VALUE_CHARS)
    count = sa.func.count().label("n")
    base = sa.select(value.label("v"), count).select_from(run.table).where(*conditions)
    limit = max(run.params.top_values, run.params.categorical_max_distinct) + 1
    return base.group_by(value), count, limit


def top_values(run: Run, column: Column, rows: int) -> tuple[TopValue, ...]:
    """The ``top_values`` most frequent values of a categorical column, exact."""
    k = run.params.top_values
    kind = column.kind
    if kind in NESTED:
        return _nested_top_values(run, column, rows)
    grouped, count, limit = _groups(run, column)
    # every group of a categorical column (at most categorical_max_distinct): the tie
    # at the cut is then known without a second query
    found: list[Any] | None = run.grouped.get(column.name)
    if found is None:
        found = list(run.conn.execute(grouped.order_by(count.desc()).limit(limit)))
    if len(found) == limit and found[k][1] == found[k - 1][1]:  # a tie at the cut: all
        having = grouped.having(sa.func.count() >= found[k - 1][1])
        found = list(run.conn.execute(having))
    sql_type = run.types[column.name]
    keyed = [(json_key(row[0], kind, sql_type), int(row[1])) for row in found]
    return top(keyed, k, rows)


def _nested_top_values(run: Run, column: Column, rows: int) -> tuple[TopValue, ...]:
    if run.dialect.json_text is None:
        return ()
    text = run.dialect.json_text(column.expr).label("v")
    count = sa.func.count().label("n")
    query = (
        sa.select(text, count)
        .select_from(run.table)
        .where(column.expr.is_not(None))
        .group_by(text)
        .limit(2 * run.params.categorical_max_distinct + 1)
    )
    counts: Counter[str] = Counter()
    rows_found: list[Any] = list(run.conn.execute(query))
    for value, n in rows_found:
        parsed = json.loads(value)
        if parsed is None:
            continue
        counts[canonical_json(parsed)] += int(n)
    keyed = [(key, n) for key, n in counts.items() if len(key) <= MAX_TRACKED_VALUE_CHARS]
    return top(keyed, run.params.top_values, rows)
