"""Sign-in attempts are bounded per client: 10 failures a minute, then 429 with
``Retry-After``, audited as groups (not one row per attempt). A real ``faucet serve`` app
under uvicorn on 127.0.0.1 and a real store; the counting itself with a given clock."""

from __future__ import annotations

import re

import httpx
import pytest

from faucet_core.store.audit import Outcome
from faucet_dagster.location import CodeLocation
from faucet_dagster.serve import create_app
from faucet_dagster.serve.console.throttle import MAX_FAILURES, SigninThrottle
from tests.faucet_dagster.console.conftest import CSRF, audit_entries
from tests.faucet_dagster.server.conftest import TABLE, TOKENS, serving

ATTEMPTS = 25


def _attempt(client: httpx.Client, url: str, token: str) -> httpx.Response:
    form = client.get(url + "/ui/signin")
    found = CSRF.search(form.text)
    assert found is not None
    return client.post(
        url + "/ui/signin",
        data={"token": token, "csrf": found.group(1), "next": ""},
        headers={"Origin": url},
        follow_redirects=False,
    )


def test_the_eleventh_failure_in_a_minute_is_429_and_audited_as_a_group(
    store: str, location: CodeLocation
) -> None:
    with serving(create_app(location, TABLE, store)) as url, httpx.Client() as client:
        statuses = [
            _attempt(client, url, f"wrong-token-{i:020}").status_code for i in range(ATTEMPTS)
        ]
        limited = _attempt(client, url, TOKENS["admin"])  # even the right token waits
    assert statuses == [401] * MAX_FAILURES + [429] * (ATTEMPTS - MAX_FAILURES)
    assert limited.status_code == 429
    wait = int(limited.headers["retry-after"])
    assert 1 <= wait <= 60
    message = re.sub(r"\s+", " ", limited.text)
    assert "too many failed sign-ins from 127.0.0.1: 10 in 60 s is the most; try again in" in (
        message
    )
    assert limited.headers["content-security-policy"].startswith("default-src 'self'")
    assert "faucet_session" not in limited.headers.get("set-cookie", "")
    entries = audit_entries(store, "ui.signin")
    # the first of each refusal group, and one summary of its repeats when the app stopped
    rows = sorted((e.status, e.detail.get("repeats", 0)) for e in entries)
    assert rows == [(401, 0), (401, MAX_FAILURES - 1), (429, 0), (429, ATTEMPTS - MAX_FAILURES)]
    assert {e.outcome for e in entries} == {Outcome.DENIED}
    assert all(e.detail["client"] == "127.0.0.1" for e in entries)


def test_good_sign_ins_are_not_counted(store: str, location: CodeLocation) -> None:
    with serving(create_app(location, TABLE, store)) as url, httpx.Client() as client:
        for _ in range(MAX_FAILURES + 2):
            assert _attempt(client, url, TOKENS["viewer"]).status_code == 303
            client.cookies.clear()


def test_the_count_is_per_client_and_forgets_after_the_window() -> None:
    throttle = SigninThrottle(limit=3, window=60)
    for t in (0.0, 10.0, 20.0):
        assert throttle.retry_after("10.0.0.1", t) is None
        throttle.failed("10.0.0.1", t)
    assert throttle.retry_after("10.0.0.1", 30.0) == 30  # the first failure is 60 s old at 60
    assert throttle.retry_after("10.0.0.2", 30.0) is None  # another client is not held up
    assert throttle.retry_after("10.0.0.1", 59.5) == 1
    assert throttle.retry_after("10.0.0.1", 60.0) is None  # one slot free again
    throttle.failed("10.0.0.1", 60.0)
    assert throttle.retry_after("10.0.0.1", 61.0) == 9  # now the 10 s failure is the oldest


@pytest.mark.parametrize("clients", [5, 50])
def test_memory_stays_bounded_however_many_clients(clients: int) -> None:
    throttle = SigninThrottle(limit=2, window=60, max_clients=10)
    for i in range(clients):
        throttle.failed(f"10.0.{i // 256}.{i % 256}", 0.0)
    assert len(throttle._failures) <= 11  # ten clients and the shared overflow count
    # the overflow clients share one count, so they are held up together
    held = throttle.retry_after("192.0.2.1", 1.0)
    assert (held is not None) == (clients > 11)
    for i in range(100):  # later, the quiet clients are forgotten
        throttle.failed(f"198.51.100.{i}", 120.0)
    assert len(throttle._failures) <= 11
