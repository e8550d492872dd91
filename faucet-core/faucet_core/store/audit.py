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

from sqlalchemy import Connection, Engine, insert, select, type_coerce
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.types import NullType

from faucet_core.clock import utc_now
from faucet_core.db.engine import DEFAULT_BUSY_TIMEOUT, database_error, reader
from faucet_core.db.schema import audit_log
from faucet_core.db.transaction import Transaction
from faucet_core.errors import StoreCorruptError, StoreError
from faucet_core.redact import redact

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
            at=at or utc_now(),
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
    where = redact(engine.url.render_as_string(hide_password=True))

    def error(exc: SQLAlchemyError) -> StoreError:
        return database_error(
            exc, f"cannot write the audit log in {where}", timeout=DEFAULT_BUSY_TIMEOUT
        )

    with Transaction(engine, error) as conn:
        record_audit(conn, **entry)


def list_audit(
    engine: Engine,
    *,
    limit: int = 100,
    action: str | None = None,
    actor: str | None = None,
    before: int | None = None,
) -> list[AuditEntry]:
    """The newest ``limit`` entries, newest first; optionally of one action or actor, or
    only those older than entry id ``before`` (the next page)."""
    t = audit_log.c
    raw = [type_coerce(c, NullType()).label(c.name) for c in audit_log.c]  # converted below
    query = select(*raw).order_by(t.id.desc()).limit(max(0, limit))
    if action:
        query = query.where(t.action == action)
    if actor:
        query = query.where(t.actor == actor)
    if before is not None:
        query = query.where(t.id < before)
    where = engine.url.render_as_string(hide_password=True)
    try:
        with reader(engine).connect() as conn:
            rows = conn.execute(query).all()
            dialect = conn.dialect
    except SQLAlchemyError as exc:
        raise database_error(
            exc, f"cannot read the audit log in {redact(where)}", timeout=DEFAULT_BUSY_TIMEOUT
        ) from None
    return [_entry(r, dialect) for r in rows]


def _entry(r: Any, dialect: Any) -> AuditEntry:
    """One entry from its raw row; a damaged row is a StoreCorruptError naming it."""
    try:
        at = audit_log.c.at.type.dialect_impl(dialect).result_processor(dialect, None)
        when = at(r.at) if at is not None and isinstance(r.at, str) else r.at
        if not isinstance(when, dt.datetime):
            raise TypeError(f"at {r.at!r} is not a timestamp")
        detail = json.loads(r.detail or "{}")
        if not isinstance(detail, dict):
            raise TypeError("detail is not a JSON object")
        return AuditEntry(
            id=int(r.id),
            at=_utc(when),
            actor=str(r.actor),
            role=str(r.role),
            action=str(r.action),
            target=str(r.target),
            outcome=Outcome(r.outcome),
            status=int(r.status),
            detail=detail,
        )
    except (ValueError, TypeError) as exc:
        raise StoreCorruptError(
            f"audit entry {r.id}: the stored row is unreadable ({exc}); delete it from "
            "faucet_audit_log"
        ) from None
