"""Sessions ended before their expiry (a sign-out of the web console), kept in the store
so that every process serving the console refuses them.

A session is named by the SHA-256 of its id, never the id itself. An entry is needed only
until the session would have expired on its own: each revocation deletes the entries past
that point in the same transaction, so the table holds at most the sessions ended within
one session lifetime.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Engine, delete, insert, select
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from faucet_core.clock import utc_now
from faucet_core.db.engine import DEFAULT_BUSY_TIMEOUT, database_error, reader
from faucet_core.db.schema import revoked_sessions
from faucet_core.db.transaction import Transaction
from faucet_core.store.audit import record_audit

__all__ = ["is_revoked", "revoke_session", "session_digest"]


def session_digest(session_id: str) -> str:
    """How the store names a session: the hex SHA-256 of its id."""
    return hashlib.sha256(session_id.encode()).hexdigest()


def _where(engine: Engine) -> str:
    # the backend's name only: a message must not carry the store's URL or file path
    return f"the {engine.dialect.name} store"


def revoke_session(
    engine: Engine,
    session_id: str,
    expires_at: dt.datetime,
    *,
    audit: Mapping[str, Any] | None = None,
    now: dt.datetime | None = None,
) -> None:
    """Record ``session_id`` as ended (it would have expired at ``expires_at``), prune the
    entries already past their expiry and, when given, write ``audit`` (the arguments of
    :func:`~faucet_core.store.audit.record_audit`), all in one transaction: on a failure
    nothing is written. Raises :class:`~faucet_core.errors.StoreError`."""
    digest = session_digest(session_id)
    moment = now or utc_now()
    t = revoked_sessions.c
    for attempt in (1, 2):
        try:
            with Transaction(engine) as conn:
                conn.execute(delete(revoked_sessions).where(t.expires_at <= moment))
                known = conn.execute(select(t.session).where(t.session == digest)).first()
                if known is None:
                    row = {"session": digest, "expires_at": expires_at}
                    conn.execute(insert(revoked_sessions).values(**row))
                if audit is not None:
                    record_audit(conn, **audit)
            return
        except IntegrityError as exc:  # the same session ended at this moment elsewhere:
            failure: SQLAlchemyError = exc  # once more, it is then found and not inserted
            if attempt == 1:
                continue
        except SQLAlchemyError as exc:
            failure = exc
        raise database_error(
            failure, f"cannot end the session in {_where(engine)}", timeout=DEFAULT_BUSY_TIMEOUT
        ) from None


def is_revoked(engine: Engine, session_id: str) -> bool:
    """Whether ``session_id`` was ended. Raises :class:`~faucet_core.errors.StoreError`
    when the store cannot answer (the caller then refuses the session)."""
    digest = session_digest(session_id)
    t = revoked_sessions.c
    try:
        with reader(engine).connect() as conn:
            return conn.execute(select(t.session).where(t.session == digest)).first() is not None
    except SQLAlchemyError as exc:
        raise database_error(
            exc, f"cannot check the session in {_where(engine)}", timeout=DEFAULT_BUSY_TIMEOUT
        ) from None
