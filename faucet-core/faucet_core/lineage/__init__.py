"""OpenLineage in and out: ingest RunEvents into the catalog (files, folders, standard
input, an HTTP receiver), and build RunEvents from faucet's models.

The receiver (Starlette) is imported on first use of its names."""

from typing import Any

from faucet_core.lineage.emit import (
    PRODUCER,
    AssertionResult,
    JobKind,
    default_client,
    emit,
    quality_metrics,
    run_event,
    stable_run_id,
)
from faucet_core.lineage.ingest import (
    EventsRejected,
    IngestResult,
    Rejection,
    ingest,
    ingest_text,
    parse_text,
)
from faucet_core.lineage.parse import MalformedEvent, parse_event
from faucet_core.lineage.sql import OutputColumn, SourceColumn, SqlLineage, sql_lineage

__all__ = [
    "LINEAGE_PATH",
    "PRODUCER",
    "AssertionResult",
    "EventsRejected",
    "IngestResult",
    "JobKind",
    "MalformedEvent",
    "OutputColumn",
    "Rejection",
    "SourceColumn",
    "SqlLineage",
    "create_receiver_app",
    "default_client",
    "emit",
    "ingest",
    "ingest_text",
    "lineage_routes",
    "parse_event",
    "parse_text",
    "quality_metrics",
    "run_event",
    "sql_lineage",
    "stable_run_id",
]


_RECEIVER = ("LINEAGE_PATH", "create_receiver_app", "lineage_routes")


def __getattr__(name: str) -> Any:
    if name in _RECEIVER:
        from faucet_core.lineage import receiver

        return getattr(receiver, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
