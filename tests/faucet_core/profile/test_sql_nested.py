"""Nested columns in the database: DuckDB lists and structs, PostgreSQL arrays, json and
jsonb count as JSON arrays and objects, with their canonical JSON as top values, as the
in-memory profiler counts them."""

from __future__ import annotations

import pyarrow as pa
import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSON, JSONB

from faucet_core.profile import SqlTable, profile, profile_sql
from tests.faucet_core.profile.sqldata import differences, load_duckdb

NESTED = pa.table(
    {
        "tags": pa.array([[1, 2], [1, 2], [], None, [3]], pa.list_(pa.int64())),
        "obj": pa.array(
            [{"a": 1, "b": "x"}, {"a": 1, "b": "x"}, None, {"a": 2, "b": None}, {"a": 3, "b": "y"}],
            pa.struct([("a", pa.int64()), ("b", pa.string())]),
        ),
    }
)
DOCS = [{"k": [1, 2], "z": "é"}, [1, 2], {"k": [1, 2], "z": "é"}, None, {"a": {"b": None}}, [], {}]


def test_duckdb_lists_and_structs_agree(tmp_path) -> None:  # type: ignore[no-untyped-def]
    engine = sa.create_engine(f"duckdb:///{tmp_path / 'n.db'}")
    load_duckdb(engine, NESTED, "nested")
    pushed = profile_sql(SqlTable(engine, "nested"))
    engine.dispose()
    assert differences(profile(NESTED), pushed) == []
    assert pushed["tags"].types == {"array": 4, "null": 1}
    assert pushed["obj"].types == {"null": 1, "object": 4}
    assert pushed["obj"].top_values is not None
    assert pushed["obj"].top_values[0].value == {"a": 1, "b": "x"}


def test_duckdb_json_documents_agree(tmp_path) -> None:  # type: ignore[no-untyped-def]
    engine = sa.create_engine(f"duckdb:///{tmp_path / 'j.db'}")
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE docs (doc JSON)")
        for doc in DOCS:
            conn.exec_driver_sql(
                "INSERT INTO docs VALUES (?::JSON)", (None if doc is None else _json(doc),)
            )
    pushed = profile_sql(SqlTable(engine, "docs"))
    engine.dispose()
    assert differences(profile([{"doc": d} for d in DOCS]), pushed) == []


def test_postgres_arrays_json_and_jsonb_agree(postgres_url: str) -> None:
    engine = sa.create_engine(postgres_url)
    meta = sa.MetaData()
    table = sa.Table(
        "docs",
        meta,
        sa.Column("doc", JSONB),
        sa.Column("raw", JSON),
        sa.Column("arr", sa.ARRAY(sa.Integer)),
    )
    arrays = [[1, 2], None, [1, 2], [], [3, None], None, [1, 2]]
    rows = [{"doc": d, "raw": d, "arr": a} for d, a in zip(DOCS, arrays, strict=True)]
    with engine.begin() as conn:
        meta.create_all(conn)
        conn.execute(table.insert(), rows)
    pushed = profile_sql(SqlTable(engine, "docs"))
    engine.dispose()
    # a SQL NULL and a JSON null are both null, as a JSON reader reads them
    expected = profile([{"doc": r["doc"], "raw": r["raw"], "arr": r["arr"]} for r in rows])
    assert differences(expected, pushed) == []
    assert pushed["arr"].types == {"array": 5, "null": 2}


def _json(value: object) -> str:
    import json

    return json.dumps(value)
