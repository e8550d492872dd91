"""OpenLineage RunEvents for Dagster materializations and asset-check evaluations."""

from __future__ import annotations

import datetime as dt
from typing import Any

from faucet_core.catalog import JobRef, Observation, RunRecord, RunState
from faucet_core.lineage import AssertionResult, JobKind, run_event, stable_run_id
from faucet_dagster.metadata import NULL_RATE_SUFFIX, CheckResultMetadata

__all__ = ["check_assertions", "check_events", "materialization_events"]


def materialization_events(
    record: RunRecord,
    *,
    namespace: str,
    dagster_job: str,
    dagster_run_id: str,
    started: dt.datetime,
    partition: str | None = None,
) -> list[Any]:
    """START and COMPLETE RunEvents of one asset materialization. The OpenLineage run id
    is derived from the Dagster run id, the asset and the partition (stable); the parent
    run facet points at the Dagster run."""
    job = JobRef(namespace, record.job.name)
    run_id = stable_run_id(dagster_run_id, record.job.name, partition or "")
    common: dict[str, Any] = {
        "job": job,
        "run_id": run_id,
        "parent": (JobRef(namespace, dagster_job), dagster_run_id),
        "kind": JobKind("DAGSTER", "ASSET"),
    }
    bare_outputs = tuple(Observation(o.dataset) for o in record.outputs)
    return [
        run_event(
            state=RunState.START,
            event_time=min(started, record.event_time),
            inputs=record.inputs,
            outputs=bare_outputs,
            **common,
        ),
        run_event(
            state=RunState.COMPLETE,
            event_time=record.event_time,
            inputs=record.inputs,
            outputs=record.outputs,
            **common,
        ),
    ]


def check_assertions(evaluation: Any) -> list[AssertionResult]:
    """An asset-check evaluation as data-quality assertions.

    A faucet profile check gives one dataset-level assertion (``faucet_profile_drift``)
    and one per profiled column (failed when the column has a drift finding, with the
    findings' messages); any other check gives one dataset-level assertion.
    """
    metadata = evaluation.metadata or {}
    severity = getattr(evaluation.severity, "value", str(evaluation.severity)).lower()
    name = evaluation.check_name
    result = CheckResultMetadata.from_metadata(metadata)
    if not result.has_status:
        return [
            AssertionResult(
                assertion=name,
                success=bool(evaluation.passed),
                severity=severity,
                name=name,
                description=evaluation.description,
            )
        ]
    findings = result.findings or []
    by_column: dict[str, list[str]] = {}
    for finding in findings:
        by_column.setdefault(str(finding.get("column")), []).append(str(finding.get("message")))
    suffix = NULL_RATE_SUFFIX
    columns = sorted(k[: -len(suffix)] for k in metadata if k.endswith(suffix))
    out = [
        AssertionResult(
            assertion="faucet_profile_drift",
            success=bool(evaluation.passed),
            severity=severity,
            name=name,
            description=evaluation.description,
            actual=str(result.status),
        )
    ]
    for column in sorted(set(columns) | set(by_column)):
        messages = by_column.get(column, [])
        out.append(
            AssertionResult(
                assertion="faucet_profile_drift",
                success=not messages,
                column=column,
                severity=severity,
                name=f"{name}.{column}",
                description="; ".join(messages) or None,
            )
        )
    return out


def check_events(
    evaluation: Any,
    dataset: Observation,
    *,
    namespace: str,
    dagster_job: str,
    dagster_run_id: str,
    started: dt.datetime,
    ended: dt.datetime,
    profile: Any = None,
) -> list[Any]:
    """START and COMPLETE RunEvents of one asset-check evaluation: the checked dataset is
    the input, with ``dataQualityAssertions`` (and ``dataQualityMetrics`` from the
    profile, when the catalog holds the run's profile)."""
    asset = evaluation.asset_key.to_user_string()
    name = f"{asset}:{evaluation.check_name}"
    common: dict[str, Any] = {
        "job": JobRef(namespace, name),
        "run_id": stable_run_id(dagster_run_id, "check", name),
        "parent": (JobRef(namespace, dagster_job), dagster_run_id),
        "kind": JobKind("DAGSTER", "ASSET_CHECK"),
    }
    key = dataset.dataset.id
    return [
        run_event(state=RunState.START, event_time=min(started, ended), inputs=[dataset], **common),
        run_event(
            state=RunState.COMPLETE,
            event_time=ended,
            inputs=[dataset],
            assertions={key: check_assertions(evaluation)},
            metrics={key: profile} if profile is not None else None,
            **common,
        ),
    ]
