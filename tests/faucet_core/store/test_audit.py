"""The audit log table (migration 4) and its record/list functions."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, insert

from faucet_core.db import migrations as mig
from faucet_core.db.schema import meta
from faucet_core.store import ProfileStore
from faucet_core.store.audit import Outcome, list_audit, record_audit, write_audit


def test_a_version_3_store_gains_the_audit_log(sqlite_url: str) -> None:
    engine = create_engine(sqlite_url)
    with engine.begin() as conn:
        meta.create(conn)
        for step in (mig._v1, mig._v2, mig._v3):
            step(conn)
        conn.execute(insert(meta).values(name="schema_version", value="3"))
    engine.dispose()
    with ProfileStore(sqlite_url) as store:
        assert store.check() == mig.LATEST >= 4
        assert list_audit(store.engine) == []


def test_entries_newest_first_filtered_and_rolled_back_with_their_change(store_url: str) -> None:
    with ProfileStore(store_url) as store:
        write_audit(store.engine, actor="a", role="viewer", action="plan", outcome=Outcome.OK,
                    status=200, target="orders", detail={"severity": "none"})  # fmt: skip
        write_audit(store.engine, actor="b", role="operator", action="catalog.annotate",
                    outcome=Outcome.DENIED, status=403)  # fmt: skip

        def failing_change() -> None:
            with store.engine.begin() as conn:
                record_audit(conn, actor="c", role="admin", action="catalog.annotate",
                             outcome=Outcome.OK, status=200)  # fmt: skip
                raise RuntimeError("the change failed")

        with pytest.raises(RuntimeError):
            failing_change()
        entries = list_audit(store.engine)
        assert [(e.actor, e.action, e.outcome) for e in entries] == [
            ("b", "catalog.annotate", Outcome.DENIED),
            ("a", "plan", Outcome.OK),
        ]
        assert entries[1].to_dict()["detail"] == {"severity": "none"}
        assert entries[1].at.tzinfo is not None
        assert [e.actor for e in list_audit(store.engine, action="plan")] == ["a"]
        assert [e.actor for e in list_audit(store.engine, actor="b")] == ["b"]
        assert len(list_audit(store.engine, limit=1)) == 1
