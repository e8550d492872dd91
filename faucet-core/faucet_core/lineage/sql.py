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

from collections.abc import Mapping

from faucet_core.errors import first_line
from faucet_core.lineage.sql_model import (
    DIRECT_AGGREGATION,
    DIRECT_IDENTITY,
    DIRECT_TRANSFORMATION,
    INDIRECT_CONDITIONAL,
    INDIRECT_FILTER,
    INDIRECT_GROUP_BY,
    INDIRECT_JOIN,
    INDIRECT_SORT,
    INDIRECT_WINDOW,
    MAX_SQL_CHARS,
    OutputColumn,
    SourceColumn,
    SqlLineage,
)
from faucet_core.lineage.sql_names import (
    match_known,
    query_of,
    spell,
    split_name,
    sql_type,
    table_parts,
)
from faucet_core.lineage.sql_walk import Walker, source_columns

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
        return SqlLineage(dialect, error=f"sqlglot cannot parse the SQL: {first_line(exc)}")
    if len(statements) != 1:
        return SqlLineage(
            dialect, error=f"the SQL holds {len(statements)} statements; give one query"
        )
    query = query_of(statements[0], exp)
    if query is None:
        kind = type(statements[0]).__name__.upper()
        return SqlLineage(dialect, error=f"the SQL is a {kind} statement, not a query")

    known = {split_name(name, dialect): name for name in given}
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
            parts = table_parts(source)
            hits = match_known(parts, known)
            if len(hits) == 1:
                spelled[parts] = hits[0]
            elif hits:
                text = spell(source)
                ambiguous[text] = ", ".join(sorted(hits))
                unresolved[text] = None
            else:
                unresolved[spell(source)] = None
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
            {str(c).casefold(): sql_type(t, dialect) for c, t in columns.items()},
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
        return SqlLineage(dialect, error=f"sqlglot cannot qualify the query: {first_line(exc)}")
    if root is None:
        return SqlLineage(dialect, error="sqlglot found no query scope in the SQL")

    names: dict[int, str] = {}
    tables: dict[str, None] = {}
    for scope in root.traverse():
        for source in scope.sources.values():
            if not isinstance(source, exp.Table):
                continue
            if source.name:
                name = spelled.get(table_parts(source), spell(source))
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
    walker = Walker(exp, names, with_schema)
    fields: dict[str, tuple[SourceColumn, ...]] = {}
    outputs: list[OutputColumn] = []
    typed_selects = typed.selects if typed is not None else [None] * len(selects)
    try:
        for projection, typed_projection in zip(selects, typed_selects, strict=True):
            out_name = projection.alias_or_name
            fields[out_name] = source_columns(walker.output(root, out_name))
            data_type = getattr(typed_projection, "type", None)
            spelling = None
            if data_type is not None and not data_type.is_type(exp.DataType.Type.UNKNOWN):
                spelling = data_type.sql(dialect=dialect)
            outputs.append(OutputColumn(out_name, spelling))
        dataset = source_columns(walker.dataset(root))
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
