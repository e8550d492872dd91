"""The audit log of the HTTP API: who did what, to what, when, and how it ended.

:func:`record_audit` writes one entry on an open connection, so a change and its entry
commit (or roll back) together; :func:`write_audit` writes one in its own transaction
(denials, reads such as ``plan``). :func:`list_audit` reads them back, newest first.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from sqlalchemy import Connection, Engine, insert, select
from sqlalchemy.exc import SQLAlchemyError

from faucet_core.errors import StoreError
from faucet_core.store.schema import audit_log

__all__ = ["AuditEntry", "Outcome", "list_audit", "record_audit", "write_audit"]


class Outcome(str, Enum):
    """How an audited request ended."""

    OK = "ok"
    DENIED = "denied"  # 401 / 403
    REJECTED = "rejected"  # bad input, unknown dataset: 4xx, nothing written
    ERROR = "error"  # 5xx
    ABORTED = "aborted"  # the client closed the connection before its body was complete


@dataclass(frozen=True)
class AuditEntry:
    id: int
    at: dt.datetime
    actor: str
    role: str
    action: str
    target: str
    outcome: Outcome
    status: int
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "at": self.at.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            "actor": self.actor,
            "role": self.role,
            "action": self.action,
            "target": self.target,
            "outcome": self.outcome.value,
            "status": self.status,
            "detail": dict(self.detail),
        }


def _utc(value: dt.datetime) -> dt.datetime:
    if value.tzinfo is None:  # SQLite returns naive datetimes
        return value.replace(tzinfo=dt.timezone.utc)
    return value.astimezone(dt.timezone.utc)


def record_audit(
    conn: Connection,
    *,
    actor: str,
    role: str,
    action: str,
    outcome: Outcome,
    status: int,
    target: str = "",
    detail: Mapping[str, Any] | None = None,
    at: dt.datetime | None = None,
) -> None:
    """Write one entry on ``conn`` (inside the caller's transaction)."""
    conn.execute(
        insert(audit_log).values(
            at=at or dt.datetime.now(dt.timezone.utc),
            actor=actor[:128],
            role=role[:16],
            action=action[:64],
            target=target[:512],
            outcome=outcome.value,
            status=status,
            detail=json.dumps(dict(detail or {}), sort_keys=True, default=str),
        )
    )


def write_audit(engine: Engine, **entry: Any) -> None:
    """Write one entry in its own transaction (see :func:`record_audit`)."""
    try:
        with engine.begin() as conn:
            record_audit(conn, **entry)
    except SQLAlchemyError as exc:
        raise StoreError(f"cannot write the audit log: {exc}") from None


def list_audit(
    engine: Engine,
    *,
    limit: int = 100,
    action: str | None = None,
    actor: str | None = None,
) -> list[AuditEntry]:
    """The newest ``limit`` entries, newest first; optionally of one action or actor."""
    t = audit_log.c
    query = select(audit_log).order_by(t.id.desc()).limit(max(0, limit))
    if action:
        query = query.where(t.action == action)
    if actor:
        query = query.where(t.actor == actor)
    try:
        with engine.connect() as conn:
            rows = conn.execute(query).all()
    except SQLAlchemyError as exc:
        raise StoreError(f"cannot read the audit log: {exc}") from None
    return [
        AuditEntry(
            id=int(r.id),
            at=_utc(r.at),
            actor=r.actor,
            role=r.role,
            action=r.action,
            target=r.target,
            outcome=Outcome(r.outcome),
            status=int(r.status),
            detail=json.loads(r.detail or "{}"),
        )
        for r in rows
    ]
