"""Small builders for catalog tests: datasets, runs with column lineage."""

from __future__ import annotations

import datetime as dt

from faucet_core.catalog import (
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
JOB_B = JobRef("faucet", "b")


def at(minutes: int) -> dt.datetime:
    return T0 + dt.timedelta(minutes=minutes)


def schema(*cols: str) -> tuple[SchemaField, ...]:
    return tuple(
        SchemaField(c.split(":")[0], c.split(":")[1] if ":" in c else "string") for c in cols
    )


def run(
    run_id: str | None,
    minute: int,
    *,
    inputs: tuple[DatasetRef, ...] = (A,),
    output: DatasetRef = B,
    lineage: dict[str, list[tuple[DatasetRef, str]]] | None = None,
    state: RunState = RunState.COMPLETE,
    job: JobRef = JOB_B,
    out_schema: tuple[SchemaField, ...] | None = None,
    owners: tuple[str, ...] | None = None,
    replace_inputs: bool = False,
) -> RunRecord:
    column_lineage = None
    if lineage is not None:
        column_lineage = {
            out: tuple(FieldRef(ref, field) for ref, field in ins) for out, ins in lineage.items()
        }
    return RunRecord(
        job=job,
        run_id=run_id,
        state=state,
        event_time=at(minute),
        inputs=tuple(Observation(i) for i in inputs),
        outputs=(
            Observation(output, schema=out_schema, owners=owners, column_lineage=column_lineage),
        ),
        replace_inputs=replace_inputs,
    )
