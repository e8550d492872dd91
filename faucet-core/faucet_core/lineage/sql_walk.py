"""The walk through a qualified query's scopes: what each output column, and what decides
the rows, reads from the tables (see :mod:`faucet_core.lineage.sql`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

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
    SourceColumn,
)

__all__ = ["Walker", "source_columns"]


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


def source_columns(contrib: _Contrib) -> tuple[SourceColumn, ...]:
    return tuple(
        SourceColumn(table, column, tuple(sorted(kinds)))
        for (table, column), kinds in sorted(contrib.items())
    )


# -- the walk -------------------------------------------------------------------------------


class Walker:
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
