"""Signing out ends the session for every worker: the old cookie (and its CSRF token) are
refused from then on, by this app and by another app on the same store. Real apps
(TestClient), real SQLite stores. The same in Chromium: ``test_browser_signout.py``."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import create_engine, make_url, select

from faucet_core.catalog import Catalog
from faucet_core.db.schema import audit_log, revoked_sessions
from faucet_core.errors import StoreError
from faucet_core.store.audit import Outcome
from faucet_core.store.revoked import is_revoked, revoke_session, session_digest
from faucet_dagster.serve.console import COOKIE, ENV_SESSION_SECRET
from tests.faucet_dagster.console.conftest import MakeBrowser, audit_entries

SECRET = "t" * 40
LEDGER = "/ui/datasets?q=ledger"


def _ledger_page(store: str) -> str:
    with Catalog(store) as catalog:
        return f"/ui/datasets/{catalog.resolve('dagster://ledger')}"


def _owners(store: str) -> tuple[str, ...]:
    with Catalog(store) as catalog:
        return catalog.dataset("dagster://ledger").owners


def test_the_old_cookie_reads_and_writes_nothing_after_sign_out(
    app_for: MakeBrowser, store: str
) -> None:
    browser = app_for(store)
    browser.sign_in("operator")
    page = _ledger_page(store)
    cookie = browser.client.cookies[COOKIE]
    csrf = browser.csrf(page)
    assert browser.get(page).status_code == 200

    out = browser.post("/ui/signout", {"csrf": csrf})
    assert (out.status_code, out.headers["location"]) == (303, "/ui/signin")

    browser.client.cookies.set(COOKIE, cookie, path="/ui")  # the old cookie, kept
    read = browser.get(page)
    assert read.status_code == 303
    assert read.headers["location"].startswith("/ui/signin?next=")
    write = browser.post(page + "/owners", {"csrf": csrf, "action": "add", "owner": "team:late"})
    assert write.status_code == 401
    assert "your session has ended: sign in again" in write.text
    assert "team:late" not in _owners(store)
    again = browser.get("/ui/signin")  # the sign-in page shows its form, not a redirect
    assert again.status_code == 200
    (entry,) = audit_entries(store, "ui.signout")
    assert (entry.actor, entry.outcome, entry.status) == ("operator-user", Outcome.OK, 303)


def test_another_worker_refuses_a_signed_out_session(
    app_for: MakeBrowser, store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_SESSION_SECRET, SECRET)  # as every worker of faucet serve shares
    first, second = app_for(store), app_for(store)
    first.sign_in("viewer")
    cookie = first.client.cookies[COOKIE]
    second.client.cookies.set(COOKIE, cookie, path="/ui")
    assert second.get(LEDGER).status_code == 200  # the session is good on both
    assert first.post("/ui/signout", {"csrf": first.csrf()}).status_code == 303
    assert second.get(LEDGER).status_code == 303  # and now ended on both
    # signing in again starts a new session, which works
    second.client.cookies.clear()
    second.sign_in("viewer")
    assert second.get(LEDGER).status_code == 200


def test_the_revoked_sessions_are_hashed_and_pruned_once_expired(store_url: str) -> None:
    now = dt.datetime(2026, 5, 1, 12, tzinfo=dt.timezone.utc)
    with Catalog(store_url) as catalog:
        engine = catalog.engine
        revoke_session(engine, "old-session", now + dt.timedelta(hours=1), now=now)
        revoke_session(engine, "new-session", now + dt.timedelta(hours=9), now=now)
        assert is_revoked(engine, "old-session")
        assert is_revoked(engine, "new-session")
        assert not is_revoked(engine, "other-session")
        # two hours later: the old one would have expired anyway, so it is pruned
        later = now + dt.timedelta(hours=2)
        revoke_session(engine, "third-session", later + dt.timedelta(hours=8), now=later)
        with engine.connect() as conn:
            kept = set(conn.execute(select(revoked_sessions.c.session)).scalars())
    assert kept == {session_digest("new-session"), session_digest("third-session")}
    assert all(len(k) == 64 and "session" not in k for k in kept)  # never the id itself


def test_a_failed_revocation_leaves_the_store_as_it_was(store_url: str) -> None:
    now = dt.datetime(2026, 5, 1, 12, tzinfo=dt.timezone.utc)
    with Catalog(store_url) as catalog:
        engine = catalog.engine
        revoke_session(
            engine, "expired", now - dt.timedelta(hours=1), now=now - dt.timedelta(days=1)
        )
        raw = create_engine(store_url)
        with raw.begin() as conn:
            audit_log.drop(conn)  # the audit write, in the same transaction, fails
        audit = {"actor": "a", "role": "viewer", "action": "ui.signout",
                 "outcome": Outcome.OK, "status": 303}  # fmt: skip
        with pytest.raises(StoreError) as failed:
            revoke_session(engine, "session", now + dt.timedelta(hours=8), audit=audit, now=now)
        with raw.connect() as conn:
            kept = set(conn.execute(select(revoked_sessions.c.session)).scalars())
        raw.dispose()
    assert kept == {session_digest("expired")}  # neither pruned nor added
    dialect = "postgresql" if "postgres" in store_url else "sqlite"
    assert str(failed.value).startswith(f"cannot end the session in the {dialect} store: ")
    assert make_url(store_url).render_as_string(hide_password=True) not in str(failed.value)


def test_a_store_that_cannot_be_read_refuses_the_session(app_for: MakeBrowser, store: str) -> None:
    browser = app_for(store)
    browser.sign_in("viewer")
    raw = create_engine(store)
    with raw.begin() as conn:
        revoked_sessions.drop(conn)
    raw.dispose()
    response = browser.get(LEDGER)
    assert response.status_code == 503
    assert "the store cannot be read, so no session can be checked: retry soon" in response.text
    assert store.split("///")[1] not in response.text


def test_the_same_session_ended_by_several_workers_at_once_is_one_entry(store_url: str) -> None:
    from concurrent.futures import ThreadPoolExecutor

    expires = dt.datetime.now(dt.timezone.utc) + dt.timedelta(hours=8)
    names = [f"shared-{round_}" for round_ in range(6)]  # a race: six chances to meet it
    with Catalog(store_url) as catalog:
        engine = catalog.engine
        with ThreadPoolExecutor(8) as pool:
            for name in names:
                ends = [pool.submit(revoke_session, engine, name, expires) for _ in range(8)]
                assert [end.result() for end in ends] == [None] * 8  # none of them failed
        with engine.connect() as conn:
            kept = sorted(conn.execute(select(revoked_sessions.c.session)).scalars())
    assert kept == sorted(session_digest(n) for n in names)
