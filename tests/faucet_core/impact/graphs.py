"""Fixture graphs for the impact tests, recorded into a real catalog.

``a`` (the sink) -> ``b`` (column lineage, a contract, two consumers) -> ``c`` (opaque
edge) -> ``d``; ``a`` -> ``e`` reads only ``name``; ``b`` -> ``f`` -> ``g`` (depth cut).
"""

from __future__ import annotations

import datetime as dt

from faucet_core.catalog import (
    Catalog,
    Consumer,
    Contract,
    DatasetRef,
    FieldRef,
    JobRef,
    Observation,
    RunRecord,
    RunState,
    SchemaField,
)

T0 = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
A = DatasetRef("file", "/data/a.csv")
B = DatasetRef("file", "/data/b.jsonl")
C = DatasetRef("postgres://db:5432", "shop.public.c")
D = DatasetRef("s3://lake", "d/part.parquet")
E = DatasetRef("file", "/data/e.csv")
F = DatasetRef("file", "/data/f.csv")
G = DatasetRef("file", "/data/g.csv")
UPSTREAM = DatasetRef("postgres://db:5432", "shop.public.raw")


def schema(*cols: str) -> tuple[SchemaField, ...]:
    return tuple(SchemaField(*c.split(":")) for c in cols)


def _run(
    job: str,
    minute: int,
    inputs: tuple[DatasetRef, ...],
    output: DatasetRef,
    *,
    lineage: dict[str, list[tuple[DatasetRef, str]]] | None = None,
    out_schema: tuple[SchemaField, ...] | None = None,
    owners: tuple[str, ...] | None = None,
    contract: Contract | None = None,
    whole: tuple[tuple[DatasetRef, str], ...] = (),
) -> RunRecord:
    column_lineage = None
    if lineage is not None:
        column_lineage = {o: tuple(FieldRef(d, f) for d, f in ins) for o, ins in lineage.items()}
    return RunRecord(
        job=JobRef("faucet", job),
        run_id=f"run-{job}",
        state=RunState.COMPLETE,
        event_time=T0 + dt.timedelta(minutes=minute),
        inputs=tuple(Observation(i) for i in inputs),
        outputs=(
            Observation(
                output,
                schema=out_schema,
                owners=owners,
                column_lineage=column_lineage,
                dataset_lineage=tuple(FieldRef(d, f) for d, f in whole),
            ),
        ),
        contract=contract,
        config={"job": job} if contract else None,
    )


def record_graph(catalog: Catalog) -> None:
    catalog.record(
        [
            _run(
                "a",
                1,
                (UPSTREAM,),
                A,
                lineage={"id": [(UPSTREAM, "id")], "email": [(UPSTREAM, "email")]},
                out_schema=schema("id:integer", "email:string", "amount:integer", "name:string"),
                owners=("team-a",),
            ),
            _run(
                "b",
                2,
                (A,),
                B,
                lineage={
                    "id": [(A, "id")],
                    "contact": [(A, "email")],
                    "total": [(A, "amount")],
                },
                out_schema=schema("id:integer", "contact:string", "total:integer"),
                owners=("team-b",),
                contract=Contract("7", ("contact",)),
            ),
            _run("c", 3, (B,), C, owners=("team-c",)),  # no column lineage: opaque
            _run("d", 4, (C,), D, lineage={"x": [(C, "x")]}, owners=("team-d",)),
            _run("e", 5, (A,), E, lineage={"label": [(A, "name")]}, owners=("team-e",)),
            _run("f", 6, (B,), F, lineage={"n": [(B, "id")]}, whole=((B, "contact"),)),
            _run("g", 7, (F,), G, lineage={"m": [(F, "n")]}),
        ]
    )
    catalog.annotate(
        B.uri,
        consumers=[
            Consumer("contacts-dashboard", "dashboard", "#bi", ("contact",)),
            Consumer("totals-dashboard", "dashboard", "#finance", ("total",)),
        ],
    )
    catalog.annotate(A.uri, consumers=[Consumer("raw-export", "export", "ops@example.com")])
