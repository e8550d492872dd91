"""Samples as the planned schema: typed files state their columns, an unchanged sample gives
an empty delta whatever the format, and a malformed file is one line, never a traceback.

Real files (Parquet, Arrow IPC file and stream, CSV, JSON lines) written here, planned
against a real catalog (SQLite and PostgreSQL)."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq
import pytest

from faucet_core.catalog import Catalog, DatasetRef, JobRef, Observation, RunRecord, RunState
from faucet_core.errors import ImpactError
from faucet_core.impact import (
    ImpactSeverity,
    SampleRule,
    from_sample,
    from_sample_file,
    plan_impact,
    render_text,
)
from tests.faucet_core.impact.graphs import A, B, E, record_graph, schema

T0 = dt.datetime(2026, 4, 1, tzinfo=dt.timezone.utc)
SIZED = DatasetRef("file", "/data/sized.parquet")
PROFILED = DatasetRef("file", "/data/profiled.jsonl")
FIX = "pass JSON lines, a CSV with a header, Parquet or Arrow IPC of what the asset would write"

ROWS = pa.table(
    {
        "id": pa.array([1, 2, 3], pa.int32()),
        "score": pa.array([0.5, 1.25, None], pa.float32()),
        "name": pa.array(["a", "b", "c"]),
        "active": pa.array([True, False, True]),
        "seen": pa.array([dt.datetime(2026, 1, d) for d in (1, 2, 3)], pa.timestamp("us")),
    }
)


@pytest.fixture
def catalog(store_url: str) -> Iterator[Catalog]:
    with Catalog(store_url) as cat:
        record_graph(cat)
        cat.record(
            [
                RunRecord(  # a declared, sized schema: what ROWS is
                    job=JobRef("faucet", "sized"),
                    run_id="run-sized",
                    state=RunState.COMPLETE,
                    event_time=T0,
                    outputs=(
                        Observation(
                            SIZED,
                            schema=schema(
                                "id:int32",
                                "score:float32|null",
                                "name:string",
                                "active:boolean",
                                "seen:timestamp",
                            ),
                        ),
                    ),
                ),
                RunRecord(  # the same data as a profile check records it (JSON types)
                    job=JobRef("faucet", "profiled"),
                    run_id="run-profiled",
                    state=RunState.COMPLETE,
                    event_time=T0,
                    outputs=(
                        Observation(
                            PROFILED,
                            schema=schema(
                                "id:integer",
                                "score:number|null",
                                "name:string",
                                "active:boolean",
                                "seen:string",
                            ),
                        ),
                    ),
                ),
            ]
        )
        yield cat


def write_all(table: pa.Table, folder: Path) -> dict[str, Path]:
    """``table`` as Parquet, Arrow IPC (file and stream), CSV and JSON lines."""
    files = {name: folder / name for name in ("s.parquet", "s.feather", "s.arrows", "s.csv")}
    pq.write_table(table, files["s.parquet"])
    with pa.ipc.new_file(files["s.feather"], table.schema) as out:
        out.write_table(table)
    with pa.ipc.new_stream(files["s.arrows"], table.schema) as out:
        out.write_table(table)
    pcsv.write_csv(table, files["s.csv"])
    files["s.jsonl"] = folder / "s.jsonl"
    with files["s.jsonl"].open("w") as fh:
        for row in table.to_pylist():
            row = {k: v.isoformat() if isinstance(v, dt.datetime) else v for k, v in row.items()}
            fh.write(json.dumps({k: v for k, v in row.items() if v is not None}) + "\n")
    return files


@pytest.mark.parametrize("sink", [SIZED, PROFILED], ids=["declared-sized", "profiled-json"])
def test_a_sample_of_the_current_data_gives_an_empty_delta(
    catalog: Catalog, tmp_path: Path, sink: DatasetRef
) -> None:
    for name, path in write_all(ROWS, tmp_path).items():
        report = plan_impact(catalog, sink.uri, from_sample_file(path))
        assert (name, report.schema_delta, report.severity) == (name, (), ImpactSeverity.NONE), (
            render_text(report)
        )
        want = SampleRule.UNTYPED if name.endswith(".jsonl") else SampleRule.TYPED
        assert report.sample_rule is want


def test_typed_sample_states_its_columns_an_absent_one_is_removed(
    catalog: Catalog, tmp_path: Path
) -> None:
    # a.csv holds id, email, amount, name; b's total reads amount, e's label reads name
    table = pa.table({"id": pa.array([1, 2], pa.int64()), "email": ["a@x", "b@x"]})
    for name, path in write_all(table, tmp_path).items():
        report = plan_impact(catalog, A.uri, from_sample_file(path))
        changes = [(c.column, c.change.value, c.severity) for c in report.schema_delta]
        if name.endswith(".jsonl"):  # untyped: a key with no value is not a removal
            assert report.sample_rule is SampleRule.UNTYPED
            assert changes == []
            assert report.notes == tuple(
                f"{col}: the sample has no value for it, and the asset does not declare it "
                "dropped (faucet/drops), so it is left out of the delta"
                for col in ("amount", "name")
            )
            continue
        assert report.sample_rule is SampleRule.TYPED
        assert changes == [
            ("amount", "removed", ImpactSeverity.BREAKING),
            ("name", "removed", ImpactSeverity.BREAKING),
        ], name
        assert report.severity is ImpactSeverity.BREAKING
        got = {a.dataset: a for a in report.affected}
        assert [(r.column, r.reads) for r in got[B.uri].reads] == [("total", ("amount",))]
        assert [(r.column, r.reads) for r in got[E.uri].reads] == [("label", ("name",))]
        assert (
            "  sample rule: typed (its schema states the columns: a column absent from it is "
            "removed)\n"
        ) in render_text(report) + "\n"


def test_a_typed_column_with_no_values_is_present_not_removed(catalog: Catalog) -> None:
    table = pa.table(
        {
            "id": pa.array([1], pa.int64()),
            "email": ["a@x"],
            "amount": pa.array([None], pa.int64()),
            "name": pa.array([None], pa.string()),
        }
    )
    report = plan_impact(catalog, A.uri, from_sample(table))
    assert [(c.column, c.change.value, c.after) for c in report.schema_delta] == [
        ("amount", "retyped", "int64|null"),  # present, typed, only nulls: adds null
        ("name", "retyped", "string|null"),
    ]
    assert {c.direction.value for c in report.schema_delta if c.direction} == {"widening"}
    assert report.severity is ImpactSeverity.ADDITIVE


def test_json_integers_fit_a_sized_column_only_when_their_values_do(catalog: Catalog) -> None:
    def delta(rows: list[dict[str, object]]) -> list[tuple[str, str | None, str | None]]:
        report = plan_impact(catalog, SIZED.uri, from_sample(rows))
        return [(c.column, c.before, c.after) for c in report.schema_delta]

    base = {"name": "a", "active": True, "seen": "2026-01-01T00:00:00", "score": 0.5}
    assert delta([{**base, "id": 2**31 - 1}]) == []
    assert delta([{**base, "id": 2**31}]) == [("id", "int32", "integer")]  # no longer fits
    assert delta([{**base, "id": 1, "score": 1e39}]) == [("score", "float32|null", "number")]


def _ragged(path: Path, good_rows: int) -> Path:
    with path.open("w") as fh:
        fh.write("id,name\n")
        fh.writelines(f"{i},name-{i:08d}\n" for i in range(good_rows))
        fh.write("1,2,3\n")
    return path


_CSV_FIX = (
    "every line of a CSV file needs one field per header column (quote a field that holds a comma)"
)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("ragged.csv", None, f":3: 3 field(s) where the header has 2; {_CSV_FIX}"),
        (  # past pyarrow's first block: raised while streaming
            "late-ragged.csv",
            200_000,
            f":200002: 3 field(s) where the header has 2; {_CSV_FIX}",
        ),
        (
            "bytes.parquet",
            b"PK\x03\x04 this is a zip file",
            ": not a readable Parquet file (Parquet magic bytes not found in footer. Either the "
            "file is corrupted or this is not a parquet file.); check that it is Parquet and "
            "complete, or give it the extension of its real format",
        ),
        (
            "bytes.arrow",
            b"xx",
            ": not a readable Arrow IPC file or stream (Corrupted message, only 2 bytes "
            "available); check that it is Arrow IPC (Feather v2) and complete, or give it the "
            "extension of its real format",
        ),
    ],
)
def test_a_malformed_sample_is_one_line(
    tmp_path: Path, name: str, content: bytes | int | None, message: str
) -> None:
    """The profiler's reader names the file, the line and the fix; the plan passes it on."""
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        _ragged(path, content or 1)
    with pytest.raises(ImpactError) as caught:
        from_sample_file(path)
    assert str(caught.value) == f"{path}{message}"
    assert caught.value.__cause__ is None
    assert caught.value.__suppress_context__


def test_a_bad_json_line_and_a_missing_file_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": 1}\n{oops\n')
    with pytest.raises(ImpactError) as caught:
        from_sample_file(bad)
    assert str(caught.value) == (
        f"{bad}:2:2: not valid JSON (Expecting property name enclosed in double quotes); each "
        "line must hold one JSON object, or the file one JSON array of objects"
    )
    with pytest.raises(ImpactError, match="is not a file") as missing:
        from_sample_file(tmp_path / "nope.parquet")
    assert "\n" not in str(missing.value)
