"""Building OpenLineage RunEvents from faucet's models, and emitting them through
openlineage-python's configured transports (file, http, console, kafka...).

Message building is pure (:func:`run_event`); sending is :func:`emit`.
"""

from __future__ import annotations

import datetime as dt
import math
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from faucet_core.catalog.model import JobRef, Observation, RunState, SchemaField

__all__ = [
    "PRODUCER",
    "AssertionResult",
    "JobKind",
    "default_client",
    "emit",
    "quality_metrics",
    "run_event",
    "stable_run_id",
]

PRODUCER = "https://github.com/faucet-dagster/faucet-dagster"
"""The OpenLineage producer URI of the events faucet emits (the project's source)."""
_RUN_NAMESPACE = uuid.UUID("6f1b3c1e-7a43-4f5e-9d0b-2f0c4d6e8a11")


@dataclass(frozen=True)
class AssertionResult:
    """One data-quality assertion (OpenLineage ``dataQualityAssertions``): a check's
    verdict on a dataset, or on one column of it."""

    assertion: str
    success: bool
    column: str | None = None
    severity: str | None = None
    name: str | None = None
    description: str | None = None
    expected: str | None = None
    actual: str | None = None


@dataclass(frozen=True)
class JobKind:
    """The ``jobType`` job facet: e.g. integration DAGSTER, job type ASSET."""

    integration: str
    job_type: str
    processing_type: str = "BATCH"


def stable_run_id(*parts: str) -> str:
    """A UUID derived from ``parts`` (e.g. a Dagster run id and an asset key): the same
    materialization always gets the same OpenLineage run id."""
    return str(uuid.uuid5(_RUN_NAMESPACE, "\x1f".join(parts)))


def _schema_fields(fields: Sequence[SchemaField]) -> list[Any]:
    from openlineage.client.generated.schema_dataset import SchemaDatasetFacetFields

    return [
        SchemaDatasetFacetFields(
            name=f.name,
            type=f.type,
            description=f.description,
            ordinal_position=i + 1,
            fields=_schema_fields(f.fields),
        )
        for i, f in enumerate(fields)
    ]


def _input_field(ref: Any) -> Any:
    from openlineage.client.generated import column_lineage_dataset as cl

    transformations = []
    for kind in ref.kinds:
        main, _, sub = kind.partition("/")
        transformations.append(cl.Transformation(type=main, subtype=sub or None))
    return cl.InputField(
        namespace=ref.dataset.namespace,
        name=ref.dataset.name,
        field=ref.field,
        transformations=transformations,
    )


def _dataset_facets(obs: Observation, *, output: bool) -> dict[str, Any]:
    from openlineage.client.generated import column_lineage_dataset as cl
    from openlineage.client.generated.ownership_dataset import Owner, OwnershipDatasetFacet
    from openlineage.client.generated.schema_dataset import SchemaDatasetFacet

    facets: dict[str, Any] = {}
    if obs.schema is not None:
        facets["schema"] = SchemaDatasetFacet(fields=_schema_fields(obs.schema))
    if obs.owners:
        facets["ownership"] = OwnershipDatasetFacet(owners=[Owner(name=o) for o in obs.owners])
    if output and obs.column_lineage is not None:
        facets["columnLineage"] = cl.ColumnLineageDatasetFacet(
            fields={
                out: cl.Fields(inputFields=[_input_field(r) for r in refs])
                for out, refs in sorted(obs.column_lineage.items())
            },
            dataset=[_input_field(r) for r in obs.dataset_lineage],
        )
    return facets


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def quality_metrics(profile: Any) -> Any:
    """A ``dataQualityMetrics`` input facet from a :class:`TableProfile`: row count, and per
    column the null count, distinct estimate, min / max and the p50 / p95 quantiles."""
    from openlineage.client.generated.data_quality_metrics_input_dataset import (
        ColumnMetrics,
        DataQualityMetricsInputDatasetFacet,
    )

    columns = {}
    for name, col in profile.columns.items():
        num = col.numeric
        quantiles: dict[str, float] = {}
        if num is not None:
            for q, value in (("0.5", num.p50), ("0.95", num.p95)):
                if _finite(value) is not None:
                    quantiles[q] = value
        columns[name] = ColumnMetrics(
            nullCount=round(col.null_rate * profile.row_count),
            distinctCount=int(col.distinct),
            count=float(profile.row_count),
            min=_finite(num.min) if num else None,
            max=_finite(num.max) if num else None,
            quantiles=quantiles,
        )
    return DataQualityMetricsInputDatasetFacet(columnMetrics=columns, rowCount=profile.row_count)


def _assertions(items: Sequence[AssertionResult]) -> Any:
    from openlineage.client.generated.data_quality_assertions_dataset import (
        Assertion,
        DataQualityAssertionsDatasetFacet,
    )

    return DataQualityAssertionsDatasetFacet(
        assertions=[
            Assertion(
                assertion=a.assertion,
                success=a.success,
                column=a.column,
                severity=a.severity,
                name=a.name,
                description=a.description,
                expected=a.expected,
                actual=a.actual,
            )
            for a in items
        ]
    )


def run_event(
    *,
    state: RunState,
    job: JobRef,
    run_id: str,
    event_time: dt.datetime,
    inputs: Sequence[Observation] = (),
    outputs: Sequence[Observation] = (),
    assertions: Mapping[str, Sequence[AssertionResult]] | None = None,
    metrics: Mapping[str, Any] | None = None,
    parent: tuple[JobRef, str] | None = None,
    kind: JobKind | None = None,
    producer: str = PRODUCER,
) -> Any:
    """An ``openlineage.client.event_v2.RunEvent``.

    Inputs and outputs carry ``schema``, ``ownership`` and (outputs) ``columnLineage``
    facets from their observations; ``assertions`` and ``metrics`` (keyed by dataset id)
    add ``dataQualityAssertions`` / ``dataQualityMetrics`` input facets; ``parent`` is the
    run this one belongs to (e.g. the Dagster run of an asset's materialization).
    """
    from openlineage.client.event_v2 import InputDataset, Job, OutputDataset, Run, RunEvent
    from openlineage.client.generated.job_type_job import JobTypeJobFacet
    from openlineage.client.generated.parent_run import Job as ParentJob
    from openlineage.client.generated.parent_run import ParentRunFacet
    from openlineage.client.generated.parent_run import Run as ParentRun

    assertions = assertions or {}
    metrics = metrics or {}
    run_facets: dict[str, Any] = {}
    if parent is not None:
        run_facets["parent"] = ParentRunFacet(
            run=ParentRun(runId=parent[1]),
            job=ParentJob(namespace=parent[0].namespace, name=parent[0].name),
        )
    job_facets: dict[str, Any] = {}
    if kind is not None:
        job_facets["jobType"] = JobTypeJobFacet(
            processingType=kind.processing_type, integration=kind.integration, jobType=kind.job_type
        )
    ins = []
    for obs in inputs:
        input_facets: dict[str, Any] = {}
        if obs.dataset.id in assertions:
            input_facets["dataQualityAssertions"] = _assertions(assertions[obs.dataset.id])
        if obs.dataset.id in metrics:
            input_facets["dataQualityMetrics"] = quality_metrics(metrics[obs.dataset.id])
        ins.append(
            InputDataset(
                namespace=obs.dataset.namespace,
                name=obs.dataset.name,
                facets=_dataset_facets(obs, output=False),
                inputFacets=input_facets,
            )
        )
    outs = [
        OutputDataset(
            namespace=obs.dataset.namespace,
            name=obs.dataset.name,
            facets=_dataset_facets(obs, output=True),
        )
        for obs in outputs
    ]
    return RunEvent(
        eventType=_event_type(state),
        eventTime=event_time.astimezone(dt.timezone.utc).isoformat().replace("+00:00", "Z"),
        run=Run(runId=run_id, facets=run_facets),
        job=Job(namespace=job.namespace, name=job.name, facets=job_facets),
        producer=producer,
        inputs=ins,
        outputs=outs,
    )


def _event_type(state: RunState) -> Any:
    from openlineage.client.event_v2 import RunState as OLState

    return OLState(state.value)


def default_client() -> Any:
    """``OpenLineageClient()``: its transport comes from ``openlineage.yml``,
    ``OPENLINEAGE_CONFIG`` or the ``OPENLINEAGE__TRANSPORT__*`` / ``OPENLINEAGE_URL``
    environment variables, as openlineage-python documents."""
    from openlineage.client import OpenLineageClient

    return OpenLineageClient()


def emit(client: Any, events: Iterable[Any]) -> int:
    """Send events through ``client`` (an ``OpenLineageClient``); returns how many."""
    count = 0
    for event in events:
        client.emit(event)
        count += 1
    return count
