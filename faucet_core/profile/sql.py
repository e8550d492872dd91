"""Profiling a SQL table or view where it lives: a few aggregate queries, no rows fetched.

:func:`profile_sql` reflects the columns with SQLAlchemy, then runs

1. for text columns that a value detector may classify, ``SELECT DISTINCT col ... LIMIT
   1000`` (the in-memory profiler's sample size), decided here as a single pass decides;
2. one aggregate query over the whole table: row count, per column non-null and NaN /
   infinity counts, distinct (approximate where the dialect has it), min / max / mean /
   population stddev / p50 / p95 over the finite numbers, string lengths in characters.
   On PostgreSQL (a dialect with :attr:`~SqlDialect.hash64`) distinct and the quantiles
   leave that query so that it keeps a parallel plan: a large column's distinct is a
   HyperLogLog computed in SQL (:mod:`faucet_core.profile.sql_hll`), a small one is
   counted exactly. On PostgreSQL and DuckDB (:attr:`~SqlDialect.sample`) p50 / p95 come
   from one more statement, on a Bernoulli sample once a column has more than
   :data:`EXACT_QUANTILES_UP_TO` values (an exact quantile holds every value in memory);
3. for each categorical column (distinct at most ``categorical_max_distinct``), not
   classified, ``GROUP BY col ORDER BY count DESC LIMIT categorical_max_distinct + 1``.

Only aggregates leave the database, plus the top values of categorical columns and the
detector sample (which is tested here and dropped). A classified column's numeric
statistics and top values are never queried. The result is an ordinary
:class:`~faucet_core.profile.table.TableProfile` without sketches (``sketches={}``): the
detector and the store take it as any profile; :meth:`TableProfile.merge` refuses it.

Every dialect difference lives in :mod:`faucet_core.profile.sql_dialects`.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import math
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from functools import partial
from typing import Any

import numpy as np
import pyarrow as pa
import sqlalchemy as sa
from sqlalchemy.sql import util as sql_util

from faucet_core.config import ProfilingConfig
from faucet_core.errors import FaucetError, ProfilingInputError
from faucet_core.profile import sql_hll
from faucet_core.profile.jsonvalues import canonical_json
from faucet_core.profile.model import ColumnProfile, JsonType, NumericStats, StringStats, TopValue
from faucet_core.profile.policy import PolicyState
from faucet_core.profile.sketches import MAX_TRACKED_VALUE_CHARS, SketchParams
from faucet_core.profile.sql_dialects import Nested, SqlDialect, dialect_for, reflect_columns
from faucet_core.profile.table import TableProfile

__all__ = ["SqlTable", "is_sql_table", "profile_sql"]

_SAMPLE_PER_COLUMN = 1000  # the detector sample of faucet_core.profile.policy
_SAMPLE_PER_BATCH = 100
_NESTED_SAMPLE = 64
_MAX_ERROR_CHARS = 300


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


class _Kind(Enum):
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


_NUMERIC = (_Kind.INTEGER, _Kind.FLOAT, _Kind.FLOAT32, _Kind.DECIMAL)
_FLOATS = (_Kind.FLOAT, _Kind.FLOAT32)
_TEMPORAL_BASE = {_Kind.DATE: 10, _Kind.TIMESTAMP: 19, _Kind.TIMESTAMPTZ: 20, _Kind.TIME: 8}
_NESTED = (_Kind.JSON, _Kind.ARRAY, _Kind.OBJECT)


def _kind_of(sql_type: Any) -> _Kind:
    """How a column of SQLAlchemy type ``sql_type`` is profiled (its JSON type follows)."""
    t = sql_type
    if isinstance(t, Nested):
        return _Kind.OBJECT
    if isinstance(t, sa.ARRAY):
        return _Kind.ARRAY
    if isinstance(t, sa.JSON):
        return _Kind.JSON
    if isinstance(t, sa.Boolean):
        return _Kind.BOOLEAN
    if isinstance(t, sa.Integer):
        return _Kind.INTEGER
    if isinstance(t, sa.Float):
        single = isinstance(t, sa.REAL) or (t.precision is not None and t.precision <= 24)
        return _Kind.FLOAT32 if single else _Kind.FLOAT
    if isinstance(t, sa.Numeric):
        return _Kind.DECIMAL
    if isinstance(t, sa.DateTime):
        return _Kind.TIMESTAMPTZ if t.timezone else _Kind.TIMESTAMP
    if isinstance(t, sa.Date):
        return _Kind.DATE
    if isinstance(t, sa.Time):
        return _Kind.TIME
    if isinstance(t, sa.LargeBinary | sa.BINARY | sa.VARBINARY):
        return _Kind.BINARY
    if isinstance(t, sa.String | sa.Enum):
        return _Kind.TEXT
    return _Kind.OTHER


def profile_sql(table: SqlTable, config: ProfilingConfig | None = None) -> TableProfile:
    """Profile ``table`` with aggregate queries run by its database.

    Agrees with :func:`faucet_core.profile` on the same rows: exact row, null and type
    counts, min, max and string lengths; mean and stddev to float precision; p50 / p95
    exact on DuckDB and PostgreSQL below 400,000 values per column, then from a sample
    within the in-memory sketch's error; distinct exact below 100,000 values and within
    HyperLogLog error above; top values exact. See docs/sql.md for every dialect.
    """
    if not is_sql_table(table):
        raise ProfilingInputError(
            f"profile_sql takes a SqlTable, not a {type(table).__name__}: pass "
            "SqlTable(engine, 'table_name', schema=...)"
        )
    config = config or ProfilingConfig()
    where = _where(table)
    try:
        with _connection(table.bind, where) as conn:
            return _Run(conn, table, config).profile()
    except FaucetError:
        raise
    except sa.exc.NoSuchTableError:
        raise ProfilingInputError(
            f"cannot profile {where}: no such table or view; check the name and the schema "
            "(names are case-sensitive)"
        ) from None
    except sa.exc.SQLAlchemyError as exc:
        raise ProfilingInputError(
            f"cannot profile {where}: {_first_line(exc)}; check the database is reachable and "
            "the table readable"
        ) from None


# -- connection and errors --------------------------------------------------------------------
@contextmanager
def _connection(bind: Any, where: str) -> Iterator[sa.Connection]:
    if isinstance(bind, sa.Connection):
        yield bind
        return
    if isinstance(bind, sa.Engine):
        with bind.connect() as conn:
            yield conn
        return
    if isinstance(bind, str | sa.URL):
        try:
            engine = sa.create_engine(bind)
        except Exception as exc:  # a bad URL or a missing driver
            raise ProfilingInputError(
                f"cannot profile {where}: the database URL is not usable ({_first_line(exc)}); "
                "pass a SQLAlchemy URL such as 'duckdb:///path.db' or "
                "'postgresql+psycopg://user@host/db' (with its driver installed)"
            ) from None
        try:
            with engine.connect() as conn:
                yield conn
        finally:
            engine.dispose()
        return
    raise ProfilingInputError(
        f"SqlTable.bind is a {type(bind).__name__}; pass a SQLAlchemy Engine, Connection or "
        "database URL"
    )


def _redact(text: str) -> str:
    from faucet_core.store.redact import redact  # here: faucet_core.store imports this package

    return redact(text)


def _where(table: SqlTable) -> str:
    name = table.name if table.schema is None else f"{table.schema}.{table.name}"
    bind = table.bind
    url: Any = None
    if isinstance(bind, str | sa.URL):
        url = bind
    elif isinstance(bind, sa.Engine | sa.Connection):
        url = bind.engine.url
    if url is None:
        return f"table {name!r}"
    if isinstance(url, sa.URL):
        url = url.render_as_string(hide_password=True)
    return f"table {name!r} at {_redact(str(url))}"


def _first_line(exc: BaseException) -> str:
    inner = getattr(exc, "orig", None) or exc
    lines = [line.strip() for line in str(inner).strip().splitlines() if line.strip()]
    text = f"{type(inner).__name__}: {lines[0] if lines else ''}"
    text = _redact(text)
    return text if len(text) <= _MAX_ERROR_CHARS else text[: _MAX_ERROR_CHARS - 3] + "..."


# -- the profile ---------------------------------------------------------------------------------
EXACT_DISTINCT_BELOW = 100_000
"""Below this many (approximately counted) distinct values a column's distinct is exact."""
QUANTILE_SAMPLE_ROWS = 200_000
"""A large column's quantiles come from a Bernoulli sample of at least about this many of
its values (up to twice as many)."""
EXACT_QUANTILES_UP_TO = 2 * QUANTILE_SAMPLE_ROWS
"""Up to this many finite values in a numeric column, its p50 / p95 are exact."""


@dataclass
class _Column:
    name: str
    kind: _Kind
    expr: Any  # the SQLAlchemy column
    labels: set[str]
    finite: Any = None  # its finite numbers (NaN and infinities as NULL), for numeric columns
    counted: Any = None  # the expression whose distinct values are counted


class _Run:
    """One profile: the queries and the assembly of their results."""

    def __init__(self, conn: sa.Connection, table: SqlTable, config: ProfilingConfig) -> None:
        self.conn = conn
        self.dialect: SqlDialect = dialect_for(conn.dialect.name)
        self.config = config
        self.params = SketchParams(
            top_values=config.top_values, categorical_max_distinct=config.categorical_max_distinct
        )
        reflected = reflect_columns(conn, table.name, table.schema)
        self.table = sa.table(
            table.name, *[sa.column(name, type_) for name, type_ in reflected], schema=table.schema
        )
        self.types = dict(reflected)
        self.source = table
        self._grouped: dict[str, list[Any]] = {}
        """Every group of a column counted by its top-values query ahead of time."""

    def profile(self) -> TableProfile:
        from faucet_core.profile.profiler import Profiler

        # The in-memory profiler over no rows picks the columns (config.columns, exclude,
        # max_columns), their order, and the labels the policy gives by name.
        seed_profiler = Profiler(self.config)
        # pa.nulls, not pa.array: pa.array imports pandas (~0.8 s) to check for its types
        seed_profiler.add_columns(0, [(n, pa.nulls(0)) for n in self.types])
        seed = seed_profiler.finish()
        columns = [
            _Column(name, _kind_of(self.types[name]), self.table.c[name], set(col.classified))
            for name, col in seed.columns.items()
            if name in self.types
        ]
        self._classify_by_values(columns)
        stats = self._hll_distincts(columns, self._aggregates(columns))
        stats = self._exact_small_distincts(columns, stats)
        stats = self._sampled_quantiles(columns, stats)
        rows = int(stats["rows"])
        out: dict[str, ColumnProfile] = {}
        for name in seed.columns:
            column = next((c for c in columns if c.name == name), None)
            if column is None:  # asked for by config.columns, absent from the table
                classified = seed.columns[name].classified
                tracked = self.params.top_values > 0 and not classified
                out[name] = _all_null(name, rows, classified, tracked)
            else:
                out[name] = self._column_profile(column, stats, rows, columns.index(column))
        return TableProfile(
            row_count=rows, columns=out, skipped_columns=seed.skipped_columns, params=self.params
        )

    # -- 1. value detectors and nested field names --------------------------------------
    def _classify_by_values(self, columns: list[_Column]) -> None:
        policy = self.config.policy
        if policy is None or not policy.rules:
            return
        detectors = any(rule.detectors for rule in policy.rules)
        fields = any(rule.fields for rule in policy.rules)
        for column in columns:
            state = PolicyState(policy, column.name)
            state.labels = set(column.labels)
            if state.done:
                continue
            if detectors and column.kind in (_Kind.TEXT, _Kind.BINARY):
                values = self._sample(column.expr, _SAMPLE_PER_COLUMN)
                if column.kind is _Kind.BINARY:
                    values = [base64.b64encode(bytes(v)).decode("ascii") for v in values]
                for start in range(0, len(values), _SAMPLE_PER_BATCH):
                    state.observe_strings(
                        [str(v) for v in values[start : start + _SAMPLE_PER_BATCH]]
                    )
            elif fields and column.kind in _NESTED and self.dialect.json_text is not None:
                texts = self._sample(self.dialect.json_text(column.expr), _NESTED_SAMPLE)
                state.observe_nested([json.loads(t) for t in texts])
            column.labels |= state.finish()

    def _sample(self, expr: Any, limit: int) -> list[Any]:
        query = sa.select(expr).where(expr.is_not(None)).distinct().limit(limit)
        inner = query.select_from(self.table)
        return [row[0] for row in self.conn.execute(inner)]

    # -- 2. the aggregate query ---------------------------------------------------------------
    def _exact_small_distincts(
        self, columns: list[_Column], stats: Mapping[str, Any]
    ) -> Mapping[str, Any]:
        """Where the dialect's distinct is approximate, count the columns it puts below
        :data:`EXACT_DISTINCT_BELOW` exactly, in one more aggregate: an approximate count
        can be off by a few values even on a handful (DuckDB's HyperLogLog reads five
        decimals as three), and few values are cheap to count exactly."""
        if self.dialect.distinct_exact and self.dialect.hash64 is None:
            return stats
        small = [
            (i, c)
            for i, c in enumerate(columns)
            if c.counted is not None
            and c.name not in self._grouped  # counted exactly from every group already
            and int(stats.get(f"c{i}_distinct") or 0) < EXACT_DISTINCT_BELOW
        ]
        if not small:
            return stats
        if self.dialect.hash64 is not None:
            # PostgreSQL sorts for count(DISTINCT), in one process; a scalar subquery per
            # column over SELECT DISTINCT hashes instead, and may run in parallel
            counts = [self._distinct_subquery(c.counted).label(f"c{i}_distinct") for i, c in small]
            exact = self.conn.execute(sa.select(*counts)).one()
        else:
            counts = [
                sa.func.count(sa.distinct(c.counted)).label(f"c{i}_distinct") for i, c in small
            ]
            exact = self.conn.execute(sa.select(*counts).select_from(self.table)).one()
        return {**stats, **dict(exact._mapping)}

    def _distinct_subquery(self, value: Any) -> Any:
        values = sa.select(value.label("v")).select_from(self.table).where(value.is_not(None))
        inner = values.distinct().subquery()
        return sa.select(sa.func.count()).select_from(inner).scalar_subquery()

    def _hll_distincts(self, columns: list[_Column], stats: Mapping[str, Any]) -> Mapping[str, Any]:
        """Where the dialect hashes (:attr:`SqlDialect.hash64`), a table of at least
        :data:`EXACT_DISTINCT_BELOW` rows has each column's distinct estimated by a
        HyperLogLog computed in SQL (:mod:`faucet_core.profile.sql_hll`), one ``GROUP BY``
        per column; a smaller table is counted exactly (by :meth:`_exact_small_distincts`,
        as is every column estimated below the bound)."""
        hash64 = self.dialect.hash64
        rows = int(stats["rows"])
        if hash64 is None or rows < EXACT_DISTINCT_BELOW:
            return stats
        hints: dict[str, float] = {}
        if self.dialect.distinct_hints is not None:
            hints = self.dialect.distinct_hints(self.conn, self.source.name, self.source.schema)
        found: dict[str, Any] = {}
        for i, column in enumerate(columns):
            if column.counted is None or not int(stats[f"c{i}_nonnull"]):
                continue
            hint = hints.get(column.name)
            if hint is not None and (hint if hint > 0 else -hint * rows) < _HINTED_SMALL:
                groups = self._categorical_groups(i, column, stats, hint, rows)
                if groups is not None:  # every value counted: the distinct is exact
                    found[f"c{i}_distinct"] = groups
                continue  # else counted exactly by _exact_small_distincts
            hashed = hash64(column.counted, _HASH_FAMILY.get(column.kind, "other"))
            query = sql_hll.registers_query(self.table, column.counted, hashed)
            found[f"c{i}_distinct"] = sql_hll.estimate(self.conn.execute(query))
        return {**stats, **found}

    def _categorical_groups(
        self, i: int, column: _Column, stats: Mapping[str, Any], hint: float, rows: int
    ) -> int | None:
        """For a column the planner puts at most ``categorical_max_distinct`` values, its
        top-values query run now: when it returns every group and no value is left out
        (no NaN or infinity, no text over the tracked length), the number of groups is the
        exact distinct, and the groups are kept for the top values. None otherwise: the
        query is not run (a classified column's values never leave the database)."""
        cutoff = self.params.categorical_max_distinct
        if (
            (hint if hint > 0 else -hint * rows) > cutoff
            or column.labels
            or self.params.top_values <= 0
            or column.kind not in _GROUP_COUNTED
        ):
            return None
        if column.kind is _Kind.TEXT and int(stats.get(f"c{i}_len_max") or 0) > (
            MAX_TRACKED_VALUE_CHARS
        ):
            return None
        grouped, count, limit = self._groups(column)
        found = list(self.conn.execute(grouped.order_by(count.desc()).limit(limit)))
        if len(found) > cutoff:
            return None
        self._grouped[column.name] = found
        return len(found)

    def _sampled_quantiles(
        self, columns: list[_Column], stats: Mapping[str, Any]
    ) -> Mapping[str, Any]:
        """p50 / p95 after the aggregate query, for dialects that can sample: exact (over the
        whole table) for every numeric column with at most :data:`EXACT_QUANTILES_UP_TO`
        finite values, else over a Bernoulli sample that holds about
        :data:`QUANTILE_SAMPLE_ROWS` (up to twice that) of the column's values. An exact
        quantile sorts, and holds, every value; the sample's rank error, about +-0.2 % at
        99 % confidence, is well inside the in-memory profiler's KLL error of +-1.3 %.
        Columns of similar counts share a statement (rates in powers of two)."""
        d = self.dialect
        wanted = [(i, c) for i, c in enumerate(columns) if c.finite is not None]
        if d.sample is None or not wanted:
            return stats
        by_rate: dict[float, list[tuple[int, _Column]]] = {}
        for i, c in wanted:
            n = int(stats[f"c{i}_n"] or 0)
            rate = 100.0
            if n >= EXACT_QUANTILES_UP_TO:
                # the largest 100 / 2**j percent at or above 100 * QUANTILE_SAMPLE_ROWS / n
                exponent = math.floor(math.log2(n / QUANTILE_SAMPLE_ROWS))
                rate = 100.0 / 2 ** max(0, exponent)
            by_rate.setdefault(rate, []).append((i, c))
        found: dict[str, Any] = {}
        for rate, group in sorted(by_rate.items()):
            source: Any = self.table if rate >= 100.0 else d.sample(self.table, rate)
            exprs = []
            for i, c in group:
                finite = c.finite
                if source is not self.table:
                    finite = sql_util.ClauseAdapter(source).traverse(finite)
                if d.quantiles is not None:
                    exprs.append(d.quantiles(finite, _QUANTILES).label(f"c{i}_qs"))
                else:
                    exprs += [
                        d.quantile(finite, _QUANTILES[0]).label(f"c{i}_p50"),
                        d.quantile(finite, _QUANTILES[1]).label(f"c{i}_p95"),
                    ]
            query = sa.select(*exprs).select_from(source)
            found.update(self.conn.execute(query).mappings().one())
        return {**stats, **found}

    def _aggregates(self, columns: list[_Column]) -> Mapping[str, Any]:
        d = self.dialect
        exprs: list[Any] = [sa.func.count().label("rows")]
        for i, column in enumerate(columns):
            c, kind = column.expr, column.kind
            p = f"c{i}_"
            exprs.append(sa.func.count(c).label(p + "nonnull"))
            value = c
            finite = c
            if self._specials(kind) and d.is_nan is not None and d.is_inf is not None:
                nan, inf = d.is_nan(c), d.is_inf(c)
                exprs.append(_count_if(nan).label(p + "nan"))
                exprs.append(_count_if(inf).label(p + "inf"))
                value = sa.case((nan, sa.null()), else_=c)
                finite = sa.case((sa.or_(nan, inf), sa.null()), else_=c)
            if kind is _Kind.FLOAT32:  # its shortest decimal text, as a JSON writer prints it
                value = _shortest(value)
                finite = _shortest(finite)
            if kind is _Kind.JSON and d.json_kind is not None:  # a JSON null is a null
                column.counted = sa.case(
                    (d.json_kind(c).is_(None), sa.null()), else_=sa.cast(c, sa.Text)
                )
            elif kind is _Kind.JSON or kind is _Kind.OTHER:
                column.counted = sa.cast(c, sa.Text)
            else:
                column.counted = value
            if d.hash64 is None:  # else counted after this query (see _hll_distincts)
                exprs.append(d.distinct(column.counted).label(p + "distinct"))
            if kind in _NUMERIC and not column.labels:
                column.finite = finite
                exprs += [
                    sa.func.count(finite).label(p + "n"),
                    sa.func.min(finite).label(p + "min"),
                    sa.func.max(finite).label(p + "max"),
                    sa.func.avg(finite).label(p + "mean"),
                    d.stddev_pop(finite).label(p + "sd"),
                ]
                if d.sample is not None:
                    pass  # after this query, on a sample when the column is large
                elif d.quantiles is not None:
                    exprs.append(d.quantiles(finite, _QUANTILES).label(p + "qs"))
                else:
                    exprs += [
                        d.quantile(finite, _QUANTILES[0]).label(p + "p50"),
                        d.quantile(finite, _QUANTILES[1]).label(p + "p95"),
                    ]
            lengths = self._lengths(column)
            if lengths is not None and kind in _TEMPORAL_BASE and d.length_set is not None:
                # a handful of lengths (the base text and 2..7 fraction characters): their
                # sum and the set of those present, so the per-row length is computed twice
                base = _TEMPORAL_BASE[kind]
                exprs += [
                    sa.func.sum(lengths).label(p + "len_sum"),
                    d.length_set(lengths - base).label(p + "len_set"),
                ]
            elif lengths is not None:
                exprs += [
                    sa.func.min(lengths).label(p + "len_min"),
                    sa.func.max(lengths).label(p + "len_max"),
                    sa.func.sum(lengths).label(p + "len_sum"),
                ]
            if kind is _Kind.JSON and d.json_kind is not None:
                json_kind = d.json_kind(c)
                for jt in ("object", "array", "string", "integer", "number", "boolean"):
                    exprs.append(_count_if(json_kind == jt).label(f"{p}json_{jt}"))
        row = self.conn.execute(sa.select(*exprs).select_from(self.table)).mappings().one()
        return dict(row)

    def _specials(self, kind: _Kind) -> bool:
        """Whether a column of ``kind`` may hold NaN or infinity in this dialect."""
        return kind in _FLOATS or (kind is _Kind.DECIMAL and self.dialect.decimal_nan)

    def _lengths(self, column: _Column) -> Any:
        """Per-row length, in characters, of the text a value is profiled as (or None)."""
        d, c, kind = self.dialect, column.expr, column.kind
        if kind is _Kind.TEXT:
            return d.char_length(c)
        if kind is _Kind.OTHER:
            return d.char_length(sa.cast(c, sa.Text))
        if kind is _Kind.BINARY:  # base64: 4 characters per started 3 bytes
            n = d.byte_length(c) + 2
            return sa.cast((n - n % 3) / 3 * 4, sa.BigInteger)
        if kind in _TEMPORAL_BASE:
            base = _TEMPORAL_BASE[kind]
            if kind is _Kind.DATE or d.micros is None:
                return sa.case((c.is_(None), sa.null()), else_=sa.literal(base))
            micros = sa.cast(d.micros(c), sa.BigInteger) % 1_000_000
            if d.fraction_chars is not None:
                length = sa.literal(base) + d.fraction_chars(micros)
            else:
                ladder = [(micros == 0, 0)]
                ladder += [(micros % 10**z == 0, 7 - z) for z in range(5, 0, -1)]
                length = sa.literal(base) + sa.case(*ladder, else_=7)
            return sa.case((c.is_(None), sa.null()), else_=length)
        return None

    # -- 3. top values ---------------------------------------------------------------------
    def _groups(self, column: _Column) -> tuple[Any, Any, int]:
        """(the GROUP BY of a column's trackable values with their counts, the count, and
        the row limit that returns every group of a categorical column)."""
        d, c, kind = self.dialect, column.expr, column.kind
        value = sa.cast(c, sa.Text) if kind is _Kind.OTHER else c
        conditions = [value.is_not(None)]
        if self._specials(kind) and d.is_nan is not None and d.is_inf is not None:
            conditions += [sa.not_(d.is_nan(c)), sa.not_(d.is_inf(c))]
        if kind in (_Kind.TEXT, _Kind.OTHER):
            conditions.append(d.char_length(value) <= MAX_TRACKED_VALUE_CHARS)
        count = sa.func.count().label("n")
        base = sa.select(value.label("v"), count).select_from(self.table).where(*conditions)
        limit = max(self.params.top_values, self.params.categorical_max_distinct) + 1
        return base.group_by(value), count, limit

    def _top_values(self, column: _Column, rows: int) -> tuple[TopValue, ...]:
        k = self.params.top_values
        kind = column.kind
        if kind in _NESTED:
            return self._nested_top_values(column, rows)
        grouped, count, limit = self._groups(column)
        # every group of a categorical column (at most categorical_max_distinct): the tie
        # at the cut is then known without a second query
        found = self._grouped.get(column.name)
        if found is None:
            found = list(self.conn.execute(grouped.order_by(count.desc()).limit(limit)))
        if len(found) == limit and found[k][1] == found[k - 1][1]:  # a tie at the cut: all
            having = grouped.having(sa.func.count() >= found[k - 1][1])
            found = list(self.conn.execute(having))
        sql_type = self.types[column.name]
        keyed = [(_json_key(row[0], kind, sql_type), int(row[1])) for row in found]
        return _top(keyed, k, rows)

    def _nested_top_values(self, column: _Column, rows: int) -> tuple[TopValue, ...]:
        if self.dialect.json_text is None:
            return ()
        text = self.dialect.json_text(column.expr).label("v")
        count = sa.func.count().label("n")
        query = (
            sa.select(text, count)
            .select_from(self.table)
            .where(column.expr.is_not(None))
            .group_by(text)
            .limit(2 * self.params.categorical_max_distinct + 1)
        )
        counts: Counter[str] = Counter()
        rows_found: list[Any] = list(self.conn.execute(query))
        for value, n in rows_found:
            parsed = json.loads(value)
            if parsed is None:
                continue
            counts[canonical_json(parsed)] += int(n)
        keyed = [(key, n) for key, n in counts.items() if len(key) <= MAX_TRACKED_VALUE_CHARS]
        return _top(keyed, self.params.top_values, rows)

    def _scaled_moments(self, column: _Column, magnitude: float) -> tuple[float, float]:
        """Mean and stddev of values whose squares (or sums) would overflow or underflow a
        double: computed on the values scaled by a power of two, then scaled back, as the
        in-memory profiler does."""
        exponent = math.frexp(magnitude)[1]
        half = -exponent // 2  # two factors: 2**-exponent alone may not be a finite double
        scaled = column.finite * math.ldexp(1.0, half) * math.ldexp(1.0, -exponent - half)
        query = sa.select(sa.func.avg(scaled), self.dialect.stddev_pop(scaled))
        mean, sd = self.conn.execute(query.select_from(self.table)).one()
        return math.ldexp(_float(mean), exponent), math.ldexp(_float(sd), exponent)

    # -- assembly ----------------------------------------------------------------------------
    def _column_profile(
        self, column: _Column, stats: Mapping[str, Any], rows: int, index: int
    ) -> ColumnProfile:
        p = f"c{index}_"
        kind = column.kind
        nonnull = int(stats[p + "nonnull"])
        nan = int(stats.get(p + "nan") or 0)
        inf = int(stats.get(p + "inf") or 0)
        nulls = rows - nonnull + nan
        types: Counter[str] = Counter()
        if nulls:
            types[JsonType.NULL.value] = nulls
        present = nonnull - nan
        if kind is _Kind.JSON:
            if self.dialect.json_kind is not None:
                counted = 0
                for jt in ("object", "array", "string", "integer", "number", "boolean"):
                    n = int(stats[f"{p}json_{jt}"] or 0)
                    if n:
                        types[jt] += n
                    counted += n
                json_nulls = present - counted  # a JSON null is a null, as a JSON reader reads it
                if json_nulls:
                    types[JsonType.NULL.value] += json_nulls
                    nulls += json_nulls
                present = counted
            elif present:
                types[JsonType.STRING.value] += present
        elif present:
            types[_json_type(kind).value] += present
        distinct = min(int(stats[p + "distinct"] or 0), present - inf + min(inf, 2))
        high_card = distinct > self.params.categorical_max_distinct
        classified = tuple(sorted(column.labels))
        numeric = None
        n_finite = int(stats.get(p + "n") or 0)
        if kind in _NUMERIC and not classified and n_finite:
            if stats.get(p + "qs") is not None:
                stats = {**stats, p + "p50": stats[p + "qs"][0], p + "p95": stats[p + "qs"][1]}
            to_float = _float
            if kind is _Kind.DECIMAL:
                to_float = partial(_decimal_float, self.types[column.name])
            lo, hi = to_float(stats[p + "min"]), to_float(stats[p + "max"])
            mean, sd = _float(stats[p + "mean"]), _float(stats[p + "sd"])
            magnitude = max(-lo, hi)
            if magnitude and not _PLAIN_RANGE[0] < magnitude < _PLAIN_RANGE[1]:
                mean, sd = self._scaled_moments(column, magnitude)
            numeric = NumericStats(
                min=lo,
                max=hi,
                mean=mean,
                stddev=sd if n_finite > 1 and math.isfinite(sd) else 0.0,
                p50=to_float(stats[p + "p50"]),
                p95=to_float(stats[p + "p95"]),
                count=n_finite,
                nonfinite=inf,
            )
        string = None
        if stats.get(p + "len_set") is not None:  # the bit set of (length - base) present
            bits, base = int(stats[p + "len_set"]), _TEMPORAL_BASE[kind]
            shortest = (bits & -bits).bit_length() - 1
            stats = {
                **stats,
                p + "len_min": base + shortest,
                p + "len_max": base + bits.bit_length() - 1,
            }
        if stats.get(p + "len_min") is not None and present:
            n_strings = present
            string = StringStats(
                len_min=int(stats[p + "len_min"]),
                len_max=int(stats[p + "len_max"]),
                len_mean=int(stats[p + "len_sum"]) / n_strings,
                count=n_strings,
            )
        top: tuple[TopValue, ...] | None = None
        if self.params.top_values > 0 and not high_card and not classified:
            top = self._top_values(column, rows) if present - inf > 0 else ()
        return ColumnProfile(
            name=column.name,
            row_count=rows,
            null_count=nulls,
            types=dict(sorted(types.items())),
            distinct=distinct,
            numeric=numeric,
            string=string,
            top_values=top,
            high_cardinality=high_card,
            classified=classified,
            sketches={},
        )


_QUANTILES = (0.5, 0.95)
_GROUP_COUNTED = (
    _Kind.INTEGER,
    _Kind.BOOLEAN,
    _Kind.TEXT,
    _Kind.DATE,
    _Kind.TIMESTAMP,
    _Kind.TIMESTAMPTZ,
    _Kind.TIME,
)
"""Kinds whose top-values query counts every non-null value (no NaN, no cast to text)."""
_HINTED_SMALL = EXACT_DISTINCT_BELOW // 4
"""A column the planner's statistics put below this many distinct values is counted exactly
without a HyperLogLog first."""
_HASH_FAMILY = {
    _Kind.INTEGER: "integer",
    _Kind.FLOAT: "float",
    _Kind.FLOAT32: "float",
    _Kind.DECIMAL: "decimal",
    _Kind.TIMESTAMP: "timestamp",
    _Kind.TIMESTAMPTZ: "timestamptz",
}
_PLAIN_RANGE = (1e-100, 1e100)
"""Magnitudes whose moments a database computes without overflow or underflow."""


def _shortest(value: Any) -> Any:
    return sa.cast(sa.cast(value, sa.String), sa.Float(53))


def _count_if(condition: Any) -> Any:
    return sa.func.coalesce(sa.func.sum(sa.case((condition, 1), else_=0)), 0)


def _json_type(kind: _Kind) -> JsonType:
    if kind is _Kind.INTEGER:
        return JsonType.INTEGER
    if kind in _NUMERIC:
        return JsonType.NUMBER
    if kind is _Kind.BOOLEAN:
        return JsonType.BOOLEAN
    if kind is _Kind.ARRAY:
        return JsonType.ARRAY
    if kind is _Kind.OBJECT:
        return JsonType.OBJECT
    return JsonType.STRING


def _float(value: Any) -> float:
    return float(value) if value is not None else math.nan


def _decimal_float(sql_type: Any, value: Any) -> float:
    """A decimal as the in-memory profiler reads it: Arrow's cast of the column's decimal
    type to double (which can differ from ``float()`` in the last bit: 0.043 becomes
    0.043000000000000003 at some precisions); ``float()`` for an unconstrained NUMERIC."""
    if value is None:
        return math.nan
    precision, scale = getattr(sql_type, "precision", None), getattr(sql_type, "scale", None)
    if precision is None or scale is None or not 0 < precision <= 76:
        return float(value)
    try:
        arrow_type = (
            pa.decimal128(precision, scale) if precision <= 38 else pa.decimal256(precision, scale)
        )
        return float(pa.array([value], arrow_type).cast(pa.float64())[0].as_py())
    except (pa.ArrowException, TypeError, ValueError):
        return float(value)


def _all_null(name: str, rows: int, classified: tuple[str, ...], tracked: bool) -> ColumnProfile:
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


def _top(keyed: list[tuple[str, int]], k: int, rows: int) -> tuple[TopValue, ...]:
    """The ``k`` most frequent, ties broken by JSON text (as the in-memory profiler does)."""
    keyed.sort(key=lambda item: (-item[1], item[0]))
    return tuple(
        TopValue(value=json.loads(key), count=n, share=n / rows if rows else 0.0)
        for key, n in keyed[:k]
    )


def _json_key(value: Any, kind: _Kind, sql_type: Any = None) -> str:
    """The canonical JSON text of a value, as the in-memory profiler counts it."""
    if kind is _Kind.BOOLEAN:
        return "true" if value else "false"
    if kind is _Kind.INTEGER:
        return str(int(value))
    if kind is _Kind.FLOAT32:  # its shortest decimal text, as a JSON writer prints it
        return json.dumps(float(str(np.float32(value))))
    if kind is _Kind.DECIMAL:
        return json.dumps(_decimal_float(sql_type, value))
    if kind in _NUMERIC:
        return json.dumps(float(value))
    if kind is _Kind.BINARY:
        return json.dumps(base64.b64encode(bytes(value)).decode("ascii"))
    if kind in _TEMPORAL_BASE:
        return json.dumps(_iso_text(value))
    return json.dumps(str(value), ensure_ascii=False)


def _iso_text(value: Any) -> str:
    """ISO 8601 text as the in-memory profiler writes temporals: 'T', UTC as 'Z', no
    trailing zeros in the fraction of a second."""
    suffix = ""
    if isinstance(value, dt.datetime) and value.tzinfo is not None:
        value = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
        suffix = "Z"
    text = str(value.isoformat())
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text + suffix
