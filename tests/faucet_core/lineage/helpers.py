"""Event fixtures of the lineage tests."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

EVENTS = Path(__file__).parent / "events"
PG = "postgres://warehouse:5432"


def fixture_events(name: str) -> list[dict[str, Any]]:
    """The events of a JSON-lines fixture file."""
    text = (EVENTS / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def complete_event() -> dict[str, Any]:
    """A fresh copy of the Airflow COMPLETE event (schema, columnLineage, ownership)."""
    return copy.deepcopy(fixture_events("airflow_etl.jsonl")[1])


def emit_complete_event(client: Any) -> None:
    """Send :func:`complete_event` through openlineage-python's own client (its HTTP
    transport), then close the transport."""
    from faucet_core.lineage import parse_event, run_event

    record = parse_event(complete_event())
    client.emit(
        run_event(
            state=record.state,
            job=record.job,
            run_id=str(record.run_id),
            event_time=record.event_time,
            inputs=record.inputs,
            outputs=record.outputs,
        )
    )
    client.transport.close()
