"""Column lineage from SQL (sqlglot): jaffle-shop-style models, CTEs, joins, aggregates,
windows, set operations, ``SELECT *`` expansion, and SQL it cannot follow (opaque)."""

from __future__ import annotations

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faucet_core.lineage import sql_lineage
from faucet_core.lineage.sql import (
    DIRECT_AGGREGATION as AGG,
)
from faucet_core.lineage.sql import (
    DIRECT_IDENTITY as ID,
)
from faucet_core.lineage.sql import (
    DIRECT_TRANSFORMATION as TR,
)
from faucet_core.lineage.sql import (
    INDIRECT_CONDITIONAL,
    INDIRECT_FILTER,
    INDIRECT_GROUP_BY,
    INDIRECT_JOIN,
    INDIRECT_SORT,
    INDIRECT_WINDOW,
    SqlLineage,
)

SCHEMAS = {
    "raw_customers": {
        "id": "integer",
        "first_name": "varchar",
        "last_name": "varchar",
        "email": "varchar",
        "country": "varchar",
        "signed_up_at": "timestamp",
    },
    "raw_orders": {
        "id": "integer",
        "customer_id": "integer",
        "ordered_at": "date",
        "status": "varchar",
    },
    "raw_payments": {
        "id": "integer",
        "order_id": "integer",
        "method": "varchar",
        "amount_cents": "integer",
    },
}


def fields(result: SqlLineage) -> dict[str, set[tuple[str, str, tuple[str, ...]]]]:
    return {k: {(s.table, s.column, s.kinds) for s in v} for k, v in result.fields.items()}


def dataset(result: SqlLineage) -> set[tuple[str, str, tuple[str, ...]]]:
    return {(s.table, s.column, s.kinds) for s in result.dataset}


def test_staging_model_renames_and_casts() -> None:
    sql = """
    select id as customer_id, first_name, lower(email) as email,
           cast(signed_up_at as date) as signed_up_at
    from raw_customers
    """
    got = sql_lineage(sql, dialect="duckdb", schemas=SCHEMAS)
    assert got.known
    assert not got.opaque
    assert not got.unresolved
    assert fields(got) == {
        "customer_id": {("raw_customers", "id", (ID,))},
        "first_name": {("raw_customers", "first_name", (ID,))},
        "email": {("raw_customers", "email", (TR,))},
        "signed_up_at": {("raw_customers", "signed_up_at", (TR,))},
    }
    assert [(c.name, c.type) for c in got.columns] == [
        ("customer_id", "INT"),
        ("first_name", "TEXT"),
        ("email", "TEXT"),
        ("signed_up_at", "DATE"),
    ]
    assert got.complete_for("raw_customers")


def test_cte_aggregate_join_and_case_condition() -> None:
    sql = """
    with payments as (
        select order_id, sum(amount_cents) / 100.0 as amount, count(*) as payment_count,
               sum(case when method = 'voucher' then amount_cents else 0 end) as voucher
        from raw_payments group by order_id
    )
    select o.id as order_id, coalesce(p.amount, 0) as amount, p.payment_count, p.voucher
    from raw_orders as o left join payments as p on o.id = p.order_id
    where o.status <> 'returned'
    order by o.ordered_at
    """
    got = sql_lineage(sql, dialect="duckdb", schemas=SCHEMAS)
    assert fields(got) == {
        "order_id": {("raw_orders", "id", (ID,))},
        "amount": {("raw_payments", "amount_cents", (AGG,))},
        "payment_count": set(),  # count(*) reads no column; the grouping is dataset-level
        "voucher": {
            ("raw_payments", "amount_cents", (AGG,)),
            ("raw_payments", "method", (INDIRECT_CONDITIONAL,)),
        },
    }
    assert dataset(got) == {
        ("raw_orders", "id", (INDIRECT_JOIN,)),
        ("raw_payments", "order_id", (INDIRECT_GROUP_BY, INDIRECT_JOIN)),
        ("raw_orders", "status", (INDIRECT_FILTER,)),
        ("raw_orders", "ordered_at", (INDIRECT_SORT,)),
    }
    assert set(got.tables) == {"raw_orders", "raw_payments"}


def test_star_is_expanded_from_the_known_schemas_and_windows_are_indirect() -> None:
    sql = """
    select *, row_number() over (partition by customer_id order by ordered_at) as n,
           sum(id) over (partition by customer_id) as ids
    from raw_orders where id in (select order_id from raw_payments where amount_cents > 0)
    """
    got = sql_lineage(sql, dialect="duckdb", schemas=SCHEMAS)
    assert [c.name for c in got.columns] == [
        "id",
        "customer_id",
        "ordered_at",
        "status",
        "n",
        "ids",
    ]
    assert fields(got)["status"] == {("raw_orders", "status", (ID,))}
    assert fields(got)["n"] == {
        ("raw_orders", "customer_id", (INDIRECT_WINDOW,)),
        ("raw_orders", "ordered_at", (INDIRECT_WINDOW,)),
    }
    assert fields(got)["ids"] == {
        ("raw_orders", "id", (AGG,)),
        ("raw_orders", "customer_id", (INDIRECT_WINDOW,)),
    }
    assert dataset(got) == {
        ("raw_orders", "id", (INDIRECT_FILTER,)),
        ("raw_payments", "order_id", (INDIRECT_FILTER,)),
        ("raw_payments", "amount_cents", (INDIRECT_FILTER,)),
    }


def test_union_by_position_and_group_by_ordinal() -> None:
    sql = """
    select country, count(*) as n from (
        select country from raw_customers
        union all
        select status from raw_orders
    ) group by 1
    """
    got = sql_lineage(sql, dialect="duckdb", schemas=SCHEMAS)
    assert fields(got)["country"] == {
        ("raw_customers", "country", (ID,)),
        ("raw_orders", "status", (ID,)),
    }
    assert {(t, c) for t, c, _ in dataset(got)} == {
        ("raw_customers", "country"),
        ("raw_orders", "status"),
    }


def test_qualified_names_match_known_tables_by_their_trailing_parts() -> None:
    schemas = {"analytics.main.orders": {"id": "int", "amount": "double"}}
    got = sql_lineage("select id, amount * 2 as double_amount from main.orders", schemas=schemas)
    assert fields(got) == {
        "id": {("analytics.main.orders", "id", (ID,))},
        "double_amount": {("analytics.main.orders", "amount", (TR,))},
    }
    upper = sql_lineage('select "ID" from ORDERS', dialect="snowflake", schemas=schemas)
    assert upper.known
    assert upper.tables == ("analytics.main.orders",)


@pytest.mark.parametrize(
    ("sql", "why"),
    [
        ("selec id from", "cannot parse"),
        ("", "empty"),
        ("select 1; select 2", "2 statements"),
        ("delete from raw_orders", "DELETE statement, not a query"),
        ("select * from mystery", "selects *"),
    ],
)
def test_sql_it_cannot_follow_is_opaque_never_a_guess(sql: str, why: str) -> None:
    got = sql_lineage(sql, dialect="duckdb", schemas=SCHEMAS)
    assert not got.known
    assert why in (got.error or "")
    assert not got.fields
    assert not got.complete_for("raw_orders")


def test_an_unresolved_table_leaves_the_columns_it_may_feed_opaque() -> None:
    sql = "select o.id, status, extra from raw_orders o join mystery m on o.id = m.order_id"
    got = sql_lineage(sql, dialect="duckdb", schemas=SCHEMAS)
    assert got.known
    assert got.unresolved == ("mystery",)
    assert fields(got)["id"] == {("raw_orders", "id", (ID,))}
    assert fields(got)["status"] == {("raw_orders", "status", (ID,))}  # the schema places it
    # ``extra`` is not a raw_orders column: it comes from mystery, whose edge is opaque
    assert not got.complete_for("mystery")
    assert got.complete_for("raw_orders")


def test_a_column_that_cannot_be_pinned_makes_its_candidates_opaque() -> None:
    schemas = {"a": None, "b": None}  # known tables, columns unknown
    got = sql_lineage("select x from a join b on a.id = b.id", schemas=schemas)
    assert got.known
    assert set(got.opaque) == {"a", "b"}
    assert not got.complete_for("a")
    assert not got.complete_for("b")


def test_create_table_as_and_insert_select_read_their_query() -> None:
    for sql in (
        "create table t as select id from raw_orders",
        "insert into t select id from raw_orders",
    ):
        got = sql_lineage(sql, dialect="duckdb", schemas=SCHEMAS)
        assert fields(got) == {"id": {("raw_orders", "id", (ID,))}}


def test_unknown_dialect_is_named() -> None:
    got = sql_lineage("select 1", dialect="klingon")
    assert "'klingon'" in (got.error or "")


def test_the_lineage_names_every_column_duckdb_returns() -> None:
    """The output columns sqlglot lists are the ones the real engine returns."""
    sql = """
    with c as (select id as customer_id, * exclude (id) from raw_customers)
    select c.*, o.status from c join raw_orders o on o.customer_id = c.customer_id
    """
    conn = duckdb.connect()
    for table, columns in SCHEMAS.items():
        conn.execute(f"create table {table} ({', '.join(f'{c} {t}' for c, t in columns.items())})")
    returned = [d[0] for d in conn.execute(sql).description]
    got = sql_lineage(sql, dialect="duckdb", schemas=SCHEMAS)
    assert [c.name for c in got.columns] == returned
    assert fields(got)["customer_id"] == {("raw_customers", "id", (ID,))}


_names = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True).filter(
    lambda n: (
        n
        not in {
            "as",
            "by",
            "or",
            "in",
            "is",
            "on",
            "to",
            "if",
            "do",
            "end",
            "and",
            "not",
            "all",
            "any",
            "for",
            "asc",
        }
    )
)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=80))
def test_any_text_gives_a_result_never_an_exception(text: str) -> None:
    got = sql_lineage(text, dialect="duckdb", schemas=SCHEMAS)
    assert got.known or got.error


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(_names, _names), min_size=1, max_size=6, unique_by=lambda p: p[1]))
def test_renamed_projections_map_back_to_their_source(pairs: list[tuple[str, str]]) -> None:
    columns = sorted({source for source, _ in pairs})
    schemas = {"src": dict.fromkeys(columns, "int")}
    select = ", ".join(f'"{source}" as "{alias}"' for source, alias in pairs)
    got = sql_lineage(f"select {select} from src", schemas=schemas)
    assert fields(got) == {alias: {("src", source, (ID,))} for source, alias in pairs}


@pytest.mark.parametrize(
    "sql",
    [
        "select id, e from raw_orders, unnest([1, 2]) as e",
        "select o.id, v.k from raw_orders o cross join lateral (select o.id + 1 as k) v",
        "select * from raw_orders pivot (count(id) for status in ('paid', 'new'))",
    ],
)
def test_constructs_it_cannot_follow_leave_the_table_opaque(sql: str) -> None:
    got = sql_lineage(sql, dialect="duckdb", schemas=SCHEMAS)
    assert not got.complete_for("raw_orders")  # said unknown, not guessed


def test_table_functions_are_unresolved_and_filter_clauses_conditional() -> None:
    got = sql_lineage("select a from read_csv('x.csv')", dialect="duckdb", schemas=SCHEMAS)
    assert got.unresolved == ("READ_CSV('x.csv')",)
    sql = "select count(*) filter (where status = 'paid') as paid from raw_orders"
    assert fields(sql_lineage(sql, dialect="duckdb", schemas=SCHEMAS)) == {
        "paid": {("raw_orders", "status", (INDIRECT_CONDITIONAL,))}
    }
    correlated = sql_lineage(
        "select o.id, (select max(p.amount_cents) from raw_payments p where p.order_id = o.id)"
        " as top from raw_orders o",
        dialect="duckdb",
        schemas=SCHEMAS,
    )
    assert fields(correlated)["top"] == {
        ("raw_payments", "amount_cents", (AGG,)),
        ("raw_payments", "order_id", (INDIRECT_FILTER,)),
        ("raw_orders", "id", (INDIRECT_FILTER,)),
    }
