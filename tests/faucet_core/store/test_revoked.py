"""The revoked console sessions table (migration 7): a store made before it gains it."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import create_engine, insert, inspect

from faucet_core.db import migrations as mig
from faucet_core.db.schema import meta
from faucet_core.store import ProfileStore
from faucet_core.store.audit import Outcome, list_audit, write_audit
from faucet_core.store.revoked import is_revoked, revoke_session


def test_a_version_6_store_gains_the_revoked_sessions_and_keeps_its_audit_log(
    sqlite_url: str,
) -> None:
    engine = create_engine(sqlite_url)
    with engine.begin() as conn:
        meta.create(conn)
        for number in range(1, 7):
            mig.MIGRATIONS[number](conn)
        conn.execute(insert(meta).values(name="schema_version", value="6"))
    write_audit(engine, actor="a", role="viewer", action="plan", outcome=Outcome.OK, status=200)
    assert "faucet_revoked_sessions" not in inspect(engine).get_table_names()
    engine.dispose()
    with ProfileStore(sqlite_url) as store:
        assert store.check() == mig.LATEST >= 7
        assert [e.actor for e in list_audit(store.engine)] == ["a"]
        expires = dt.datetime.now(dt.timezone.utc) + dt.timedelta(hours=1)
        revoke_session(store.engine, "sid", expires)
        assert is_revoked(store.engine, "sid")
