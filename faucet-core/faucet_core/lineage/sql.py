"""Column lineage from the SQL a job runs, derived with sqlglot.

:func:`sql_lineage` parses one query (``SELECT``, ``WITH ... SELECT``, a set operation, or
the query of ``CREATE TABLE ... AS`` / ``INSERT INTO ... SELECT``) in a dialect, expands
``SELECT *`` from the column schemas it is given, and follows every output column through
CTEs, derived tables, subqueries, joins, aggregates and window functions down to the
columns of the tables the query reads. Each input column carries OpenLineage's
transformation types:

* ``DIRECT/IDENTITY`` (copied), ``DIRECT/TRANSFORMATION`` (computed from it),
  ``DIRECT/AGGREGATION`` (an aggregate of it);
* ``INDIRECT/CONDITIONAL`` (a ``CASE``/``IF`` condition) and ``INDIRECT/WINDOW`` (a window's
  ``PARTITION BY``/``ORDER BY``) on one output column;
* for the whole output (``dataset``): ``INDIRECT/FILTER`` (``WHERE``, ``HAVING``,
  ``QUALIFY``, a filtering subquery), ``INDIRECT/JOIN`` (join keys), ``INDIRECT/GROUP_BY``
  and ``INDIRECT/SORT``.

It never guesses. SQL sqlglot cannot parse, or whose output columns it cannot list (a
``SELECT *`` over a table whose columns are unknown), gives a result with ``error`` set
and no lineage. A table the query reads that is not among the known tables is
``unresolved``; a known table some column reference cannot be pinned to one table is
``opaque``: the lineage of both kinds is incomplete, so an edge from them must stay
opaque (unknown), while the other tables' lineage holds.

Table names match case-insensitively, by their trailing parts: ``orders`` in the SQL is
the known ``analytics.main.orders`` when no other known table ends in ``orders``.
sqlglot is imported on first use.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "DIRECT_AGGREGATION",
    "DIRECT_IDENTITY",
    "DIRECT_TRANSFORMATION",
    "INDIRECT_CONDITIONAL",
    "INDIRECT_FILTER",
    "INDIRECT_GROUP_BY",
    "INDIRECT_JOIN",
    "INDIRECT_SORT",
    "INDIRECT_WINDOW",
    "OutputColumn",
    "SourceColumn",
    "SqlLineage",
    "sql_lineage",
]

DIRECT_IDENTITY = "DIRECT/IDENTITY"
DIRECT_TRANSFORMATION = "DIRECT/TRANSFORMATION"
DIRECT_AGGREGATION = "DIRECT/AGGREGATION"
INDIRECT_CONDITIONAL = "INDIRECT/CONDITIONAL"
INDIRECT_WINDOW = "INDIRECT/WINDOW"
INDIRECT_FILTER = "INDIRECT/FILTER"
INDIRECT_JOIN = "INDIRECT/JOIN"
INDIRECT_GROUP_BY = "INDIRECT/GROUP_BY"
INDIRECT_SORT = "INDIRECT/SORT"

MAX_SQL_CHARS = 1_000_000
"""Longer SQL is not parsed (its lineage is opaque)."""


@dataclass(frozen=True, order=True)
class SourceColumn:
    """An input column: the known table's name (as given to :func:`sql_lineage`; the SQL's
    spelling for an unresolved table), the column, and how it is used."""

    table: str
    column: str
    kinds: tuple[str, ...] = ()


@dataclass(frozen=True)
class OutputColumn:
    """One column the query returns, with its SQL type when sqlglot can tell it."""

    name: str
    type: str | None = None


@dataclass(frozen=True)
class SqlLineage:
    """The column lineage of one query (see the module docstring)."""

    dialect: str | None
    columns: tuple[OutputColumn, ...] = ()
    fields: Mapping[str, tuple[SourceColumn, ...]] = field(default_factory=dict)
    """Output column -> the input columns it reads."""
    dataset: tuple[SourceColumn, ...] = ()
    """Input columns that decide which rows there are (every output column depends on them)."""
    tables: tuple[str, ...] = ()
    """Every table the query reads (known names; the SQL's spelling when unresolved)."""
    unresolved: tuple[str, ...] = ()
    """Tables the query reads that are not among the known tables."""
    opaque: Mapping[str, str] = field(default_factory=dict)
    """Known tables whose lineage is incomplete -> why."""
    error: str | None = None
    """Why the whole query is opaque (unparseable, not a query, unknown output columns)."""

    @property
    def known(self) -> bool:
        return self.error is None

    def complete_for(self, table: str) -> bool:
        """Whether the lineage from ``table`` is complete (its edge may carry it)."""
        return (
            self.known
            and table in self.tables
            and table not in self.opaque
            and table not in self.unresolved
        )

    def to_dict(self) -> dict[str, Any]:
        def enc(items: Iterable[SourceColumn]) -> list[dict[str, Any]]:
            return [{"table": s.table, "column": s.column, "kinds": list(s.kinds)} for s in items]

        return {
            "dialect": self.dialect,
            "columns": [{"name": c.name, "type": c.type} for c in self.columns],
            "fields": {k: enc(v) for k, v in self.fields.items()},
            "dataset": enc(self.dataset),
            "tables": list(self.tables),
            "unresolved": list(self.unresolved),
            "opaque": dict(self.opaque),
            "error": self.error,
        }


# -- kinds ----------------------------------------------------------------------------------


def _compose(outer: str, inner: str) -> str:
    """The kind of an input reached through ``inner`` (how the inner column uses it) and then
    ``outer`` (how the outer column uses the inner column)."""
    if outer.startswith("INDIRECT"):
        return outer
    if inner.startswith("INDIRECT"):
        return inner
    if DIRECT_AGGREGATION in (outer, inner):
        return DIRECT_AGGREGATION
    if outer == inner == DIRECT_IDENTITY:
        return DIRECT_IDENTITY
    return DIRECT_TRANSFORMATION


_Contrib = dict[tuple[str, str], set[str]]


def _add(into: _Contrib, outer: str, inner: _Contrib) -> None:
    for key, kinds in inner.items():
        into.setdefault(key, set()).update(_compose(outer, k) for k in kinds)


def _sources(contrib: _Contrib) -> tuple[SourceColumn, ...]:
    return tuple(
        SourceColumn(table, column, tuple(sorted(kinds)))
        for (table, column), kinds in sorted(contrib.items())
    )


# -- the walk -------------------------------------------------------------------------------


class _Walker:
    def __init__(
        self, exp: Any, names: Mapping[int, str], schema_tables: Mapping[str, set[str]]
    ) -> None:
        self.exp = exp
        self.names = names  # id(exp.Table) -> the known (or SQL) name of the table
        self.with_schema = schema_tables
        self.opaque: dict[str, str] = {}
        self._outputs: dict[tuple[int, str], _Contrib] = {}
        self._datasets: dict[int, _Contrib] = {}

    # sources ------------------------------------------------------------------------------
    def _lookup(self, scope: Any, alias: str) -> Any:
        while scope is not None:
            source = scope.sources.get(alias)
            if source is not None:
                return source
            scope = scope.parent
        return None

    def _tables_of(self, scope: Any) -> list[str]:
        out = []
        while scope is not None:
            for source in scope.sources.values():
                if isinstance(source, self.exp.Table):
                    out.append(self.names.get(id(source), source.name))
            scope = scope.parent
        return out

    def _pin(self, scope: Any, col: Any) -> Any:
        """The one source an unqualified column can come from: the only source, or the
        only one whose columns are unknown when no known schema has it; else None."""
        sources = list(scope.sources.values())
        if len(sources) == 1:
            return sources[0]
        name = col.name.casefold()
        having, unknown = [], []
        for source in sources:
            if isinstance(source, self.exp.Table):
                columns = self.with_schema.get(self.names.get(id(source), source.name))
                if columns is None:
                    unknown.append(source)
                elif name in columns:
                    having.append(source)
            else:
                unknown.append(source)  # a subquery: qualify() placed the ones it lists
        if len(having) == 1 and not unknown:
            return having[0]
        if not having and len(unknown) == 1:
            return unknown[0]
        return None

    def _mark(self, tables: Iterable[str], why: str) -> None:
        for table in tables:
            self.opaque.setdefault(table, why)

    def column(self, scope: Any, col: Any) -> _Contrib:
        """What the column reference ``col`` of ``scope`` reads."""
        alias = col.table
        source = self._lookup(scope, alias) if alias else None
        if source is None:
            source = self._pin(scope, col) if not alias else None
            if source is None:
                self._mark(
                    self._tables_of(scope),
                    f"column {col.sql()!r} cannot be pinned to one table",
                )
                return {}
        if isinstance(source, self.exp.Table):
            name = self.names.get(id(source), source.name)
            return {(name, col.name): {DIRECT_IDENTITY}}
        return self.output(source, col.name)

    # one output column of a scope -----------------------------------------------------------
    def output(self, scope: Any, name: str) -> _Contrib:
        key = (id(scope), name.casefold())
        if key in self._outputs:
            return self._outputs[key]
        self._outputs[key] = {}  # a recursive CTE reading itself ends here
        got: _Contrib = {}
        if isinstance(scope.expression, self.exp.SetOperation):
            position = self._position(scope.set_operation_scopes[0], name)
            for branch in self._branches(scope):
                if position is None:
                    break
                selects = branch.expression.selects
                if position < len(selects):
                    _add(got, DIRECT_IDENTITY, self.output(branch, selects[position].alias_or_name))
        else:
            got = self._projection(scope, name)
        self._outputs[key] = got
        return got

    def _branches(self, scope: Any) -> list[Any]:
        out = []
        for branch in scope.set_operation_scopes:
            out.extend(
                self._branches(branch)
                if isinstance(branch.expression, self.exp.SetOperation)
                else [branch]
            )
        return out

    def _position(self, scope: Any, name: str) -> int | None:
        if isinstance(scope.expression, self.exp.SetOperation):
            return self._position(scope.set_operation_scopes[0], name)
        for i, select in enumerate(scope.expression.selects):
            if select.alias_or_name.casefold() == name.casefold():
                return i
        return None

    def _projection(self, scope: Any, name: str) -> _Contrib:
        exp = self.exp
        select = scope.expression
        chosen = None
        for projection in select.selects:
            if projection.alias_or_name.casefold() == name.casefold():
                chosen = projection
                break
        if chosen is None:
            stars = [p for p in select.selects if isinstance(p, exp.Star) or p.is_star]
            if stars and len(scope.sources) == 1:  # SELECT * over a table of unknown columns
                (source,) = scope.sources.values()
                if isinstance(source, exp.Table):
                    return {(self.names.get(id(source), source.name), name): {DIRECT_IDENTITY}}
                return self.output(source, name)
            self._mark(self._tables_of(scope), f"no output column {name!r} in a subquery")
            return {}
        got: _Contrib = {}
        body = chosen.this if isinstance(chosen, exp.Alias) else chosen
        for col in self._own_columns(scope, body):
            _add(got, self._role(col, body), self.column(scope, col))
        for sub in scope.subquery_scopes:
            if self._within(sub.expression, body):
                reads = self._everything(sub)
                _add(got, DIRECT_TRANSFORMATION, reads[0])
                _add(got, INDIRECT_FILTER, reads[1])
        return got

    def _everything(self, scope: Any) -> tuple[_Contrib, _Contrib]:
        """A subquery's output columns and what decides its rows."""
        cols: _Contrib = {}
        if isinstance(scope.expression, self.exp.SetOperation):
            branches = self._branches(scope)
        else:
            branches = [scope]
        for branch in branches:
            for projection in branch.expression.selects:
                _add(cols, DIRECT_IDENTITY, self.output(branch, projection.alias_or_name))
        return cols, self.dataset(scope)

    def _own_columns(self, scope: Any, node: Any) -> list[Any]:
        """The column references in ``node`` that belong to ``scope`` (not to a subquery)."""
        exp = self.exp
        select = scope.expression
        out = []
        for col in node.find_all(exp.Column):
            if col.find_ancestor(exp.Select, exp.SetOperation) is select:
                out.append(col)
        return list({id(c): c for c in out}.values())

    def _within(self, node: Any, ancestor: Any) -> bool:
        while node is not None:
            if node is ancestor:
                return True
            node = node.parent
        return False

    def _role(self, col: Any, body: Any) -> str:
        exp = self.exp
        if col is body:
            return DIRECT_IDENTITY
        aggregate = False
        node, child = col.parent, col
        while node is not None:
            if isinstance(node, exp.Window) and child.arg_key in ("partition_by", "order"):
                return INDIRECT_WINDOW
            if isinstance(node, exp.Order) and isinstance(node.parent, exp.Window):
                return INDIRECT_WINDOW
            if isinstance(node, exp.If) and child.arg_key == "this":
                return INDIRECT_CONDITIONAL  # CASE WHEN <this> THEN ... / IF(<this>, ...)
            if isinstance(node, exp.Case) and child.arg_key == "this":
                return INDIRECT_CONDITIONAL  # CASE <this> WHEN ...
            if isinstance(node, exp.Filter) and child.arg_key == "expression":
                return INDIRECT_CONDITIONAL  # count(*) FILTER (WHERE <expression>)
            if isinstance(node, exp.AggFunc):
                aggregate = True
            if node is body:
                break
            node, child = node.parent, node
        return DIRECT_AGGREGATION if aggregate else DIRECT_TRANSFORMATION

    # what decides a scope's rows --------------------------------------------------------------
    def dataset(self, scope: Any) -> _Contrib:
        key = id(scope)
        if key in self._datasets:
            return self._datasets[key]
        self._datasets[key] = {}
        exp = self.exp
        got: _Contrib = {}
        if isinstance(scope.expression, self.exp.SetOperation):
            for branch in scope.set_operation_scopes:
                _add(got, DIRECT_IDENTITY, self.dataset(branch))
            self._datasets[key] = got
            return got
        select = scope.expression
        clauses: list[tuple[Any, str]] = [
            (select.args.get("where"), INDIRECT_FILTER),
            (select.args.get("having"), INDIRECT_FILTER),
            (select.args.get("qualify"), INDIRECT_FILTER),
            (select.args.get("group"), INDIRECT_GROUP_BY),
            (select.args.get("order"), INDIRECT_SORT),
        ]
        for join in select.args.get("joins") or ():
            clauses.append((join.args.get("on"), INDIRECT_JOIN))
            for ident in join.args.get("using") or ():
                self._using(scope, join, ident, got)
        for node, kind in clauses:
            if node is None:
                continue
            for col in self._own_columns(scope, node):
                _add(got, kind, self._clause_column(scope, col))
            for sub in scope.subquery_scopes:
                if self._within(sub.expression, node):
                    cols, rows = self._everything(sub)
                    _add(got, kind, cols)
                    _add(got, kind, rows)
        for source in scope.sources.values():
            if not isinstance(source, exp.Table):
                _add(got, DIRECT_IDENTITY, self.dataset(source))
        self._datasets[key] = got
        return got

    def _clause_column(self, scope: Any, col: Any) -> _Contrib:
        # GROUP BY 1 / ORDER BY an output alias: the projection it names
        if not col.table:
            for projection in scope.expression.selects:
                if isinstance(projection, self.exp.Alias) and projection.alias == col.name:
                    return self._projection(scope, col.name)
        return self.column(scope, col)

    def _using(self, scope: Any, join: Any, ident: Any, got: _Contrib) -> None:
        name = ident.name
        for source in scope.sources.values():
            if isinstance(source, self.exp.Table):
                table = self.names.get(id(source), source.name)
                if table in self.with_schema:
                    continue  # qualify() rewrote USING into ON for known columns
                _add(got, INDIRECT_JOIN, {(table, name): {DIRECT_IDENTITY}})
            else:
                _add(got, INDIRECT_JOIN, self.output(source, name))


# -- entry point ------------------------------------------------------------------------------


def _query_of(statement: Any, exp: Any) -> Any:
    if isinstance(statement, exp.Query):
        return statement
    if isinstance(statement, (exp.Create, exp.Insert)):
        inner = statement.expression
        if isinstance(inner, exp.Query):
            return inner
    return None


def _match(parts: tuple[str, ...], known: Mapping[tuple[str, ...], str]) -> list[str]:
    """The known tables whose name ends in ``parts`` (case-insensitive)."""
    n = len(parts)
    return [name for key, name in known.items() if len(key) >= n and key[-n:] == parts]


def _parts(table: Any) -> tuple[str, ...]:
    return tuple(p.name.casefold() for p in table.parts if p.name)


def _spell(table: Any) -> str:
    return ".".join(p.name for p in table.parts if p.name)


def _split_name(name: str, dialect: str | None) -> tuple[str, ...]:
    from sqlglot import exp

    try:
        return _parts(exp.to_table(name, dialect=dialect))
    except Exception:  # sqlglot raises its own errors for odd names
        return tuple(p.casefold() for p in name.split("."))


def _sql_type(text: str | None, dialect: str | None) -> str:
    """A type sqlglot can read: the spelling itself, a JSON type's SQL counterpart
    (``integer|null`` -> ``BIGINT``), else ``UNKNOWN``."""
    from sqlglot import exp

    if text:
        try:
            return exp.DataType.build(text, dialect=dialect).sql(dialect=dialect)
        except Exception:  # not a SQL spelling: maybe the profile's JSON types
            held = [t for t in text.split("|") if t != "null"]
            if len(held) == 1 and held[0] in _JSON_SQL:
                return _JSON_SQL[held[0]]
    return "UNKNOWN"


_JSON_SQL = {"integer": "BIGINT", "number": "DOUBLE", "string": "TEXT", "boolean": "BOOLEAN"}


def sql_lineage(
    sql: str,
    *,
    dialect: str | None = None,
    schemas: Mapping[str, Mapping[str, str | None] | None] | None = None,
) -> SqlLineage:
    """The column lineage of ``sql`` (see the module docstring).

    ``schemas`` names the tables the query may read: ``{table name: {column: type}}``
    (a type may be ``None``; ``None`` for the mapping: the table is known but its columns
    are not, so a ``SELECT *`` over it is opaque). ``dialect`` is sqlglot's name
    (``duckdb``, ``postgres``, ``snowflake``, ``bigquery``, ...; ``None``: sqlglot's own).
    """
    import sqlglot
    from sqlglot import exp
    from sqlglot.errors import SqlglotError
    from sqlglot.optimizer.annotate_types import annotate_types
    from sqlglot.optimizer.qualify import qualify
    from sqlglot.optimizer.scope import build_scope, traverse_scope
    from sqlglot.schema import MappingSchema

    if dialect is not None:
        try:
            sqlglot.Dialect.get_or_raise(dialect)
        except (ValueError, SqlglotError) as exc:
            return SqlLineage(
                dialect, error=f"dialect {dialect!r} is not one sqlglot knows ({exc})"
            )
    given = dict(schemas or {})
    if not isinstance(sql, str) or not sql.strip():
        return SqlLineage(dialect, error="the SQL is empty")
    if len(sql) > MAX_SQL_CHARS:
        return SqlLineage(dialect, error=f"the SQL is longer than {MAX_SQL_CHARS} characters")
    try:
        statements = [s for s in sqlglot.parse(sql, read=dialect) if s is not None]
    except (SqlglotError, RecursionError, ValueError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return SqlLineage(dialect, error=f"sqlglot cannot parse the SQL: {first}")
    if len(statements) != 1:
        return SqlLineage(
            dialect, error=f"the SQL holds {len(statements)} statements; give one query"
        )
    query = _query_of(statements[0], exp)
    if query is None:
        kind = type(statements[0]).__name__.upper()
        return SqlLineage(dialect, error=f"the SQL is a {kind} statement, not a query")

    known = {_split_name(name, dialect): name for name in given}
    try:
        raw_scopes = traverse_scope(query.copy())
    except (SqlglotError, RecursionError, ValueError, KeyError) as exc:
        return SqlLineage(dialect, error=f"sqlglot cannot resolve the query's scopes: {exc}")
    # the tables the query reads, matched to the known ones
    spelled: dict[tuple[str, ...], str] = {}
    unresolved: dict[str, None] = {}
    ambiguous: dict[str, str] = {}
    for scope in raw_scopes:
        for source in scope.sources.values():
            if not isinstance(source, exp.Table):
                continue
            if not source.name:  # a table function (read_csv(...)): nothing to resolve
                unresolved[source.this.sql(dialect=dialect)] = None
                continue
            parts = _parts(source)
            hits = _match(parts, known)
            if len(hits) == 1:
                spelled[parts] = hits[0]
            elif hits:
                text = _spell(source)
                ambiguous[text] = ", ".join(sorted(hits))
                unresolved[text] = None
            else:
                unresolved[_spell(source)] = None
    if ambiguous:
        spelt, candidates = next(iter(ambiguous.items()))
        return SqlLineage(
            dialect,
            unresolved=tuple(unresolved),
            error=f"table {spelt} could be any of {candidates}: name it in full",
        )
    mapping = MappingSchema(dialect=dialect, normalize=False)
    with_schema: dict[str, set[str]] = {}
    for parts, name in spelled.items():
        columns = given.get(name)
        if columns is None:
            continue
        table = exp.Table(
            this=exp.to_identifier(parts[-1]),
            db=exp.to_identifier(parts[-2]) if len(parts) > 1 else None,
            catalog=exp.to_identifier(parts[-3]) if len(parts) > 2 else None,
        )
        mapping.add_table(
            table,
            {str(c).casefold(): _sql_type(t, dialect) for c, t in columns.items()},
            dialect=dialect,
        )
        with_schema[name] = {str(c).casefold() for c in columns}
    try:
        lowered = query.copy()
        for table in lowered.find_all(exp.Table):
            for part in table.parts:
                if isinstance(part, exp.Identifier):
                    part.set("this", part.name.casefold())
        qualified = qualify(
            lowered,
            schema=mapping,
            dialect=dialect,
            validate_qualify_columns=False,
            quote_identifiers=False,
            identify=False,
        )
        root = build_scope(qualified)
        try:
            typed = annotate_types(qualified.copy(), schema=mapping, dialect=dialect)
        except (SqlglotError, RecursionError, ValueError, KeyError, AttributeError):
            typed = None
    except (SqlglotError, RecursionError, ValueError, KeyError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return SqlLineage(dialect, error=f"sqlglot cannot qualify the query: {first}")
    if root is None:
        return SqlLineage(dialect, error="sqlglot found no query scope in the SQL")

    names: dict[int, str] = {}
    tables: dict[str, None] = {}
    for scope in root.traverse():
        for source in scope.sources.values():
            if not isinstance(source, exp.Table):
                continue
            if source.name:
                name = spelled.get(_parts(source), _spell(source))
            else:
                name = source.this.sql(dialect=dialect)
            names[id(source)] = name
            tables[name] = None
    selects = qualified.selects
    if any(isinstance(p, exp.Star) or p.is_star for p in selects):
        return SqlLineage(
            dialect,
            tables=tuple(tables),
            unresolved=tuple(unresolved),
            error=(
                "the query selects * from a table whose columns are not known, so its output "
                "columns cannot be listed; record the table's schema (a profiled run or a "
                "declared dagster/column_schema) or name the columns"
            ),
        )
    walker = _Walker(exp, names, with_schema)
    fields: dict[str, tuple[SourceColumn, ...]] = {}
    outputs: list[OutputColumn] = []
    typed_selects = typed.selects if typed is not None else [None] * len(selects)
    try:
        for projection, typed_projection in zip(selects, typed_selects, strict=True):
            out_name = projection.alias_or_name
            fields[out_name] = _sources(walker.output(root, out_name))
            data_type = getattr(typed_projection, "type", None)
            spelling = None
            if data_type is not None and not data_type.is_type(exp.DataType.Type.UNKNOWN):
                spelling = data_type.sql(dialect=dialect)
            outputs.append(OutputColumn(out_name, spelling))
        dataset = _sources(walker.dataset(root))
    except RecursionError:
        return SqlLineage(dialect, tables=tuple(tables), error="the query nests too deeply")
    for gone in unresolved:
        walker.opaque.pop(gone, None)
    return SqlLineage(
        dialect,
        columns=tuple(outputs),
        fields=fields,
        dataset=dataset,
        tables=tuple(tables),
        unresolved=tuple(unresolved),
        opaque=dict(sorted(walker.opaque.items())),
    )
