"""Refused requests are audited, but a scanner cannot grow the audit log one row per
request: first refusal per client, actor, action and status a minute, then a count."""

from __future__ import annotations

import httpx
import pytest

from faucet_core.catalog import Catalog
from faucet_core.store.audit import Outcome, list_audit
from faucet_dagster.location import CodeLocation
from faucet_dagster.serve import create_app
from faucet_dagster.serve.api.refusals import RefusalGroup, RefusalLimiter, Repeats
from tests.faucet_dagster.plan.test_cli import CRM, _record
from tests.faucet_dagster.server.conftest import TABLE, auth, serving

G = RefusalGroup("10.0.0.1", "-", "-", "plan", 401)
H = RefusalGroup("10.0.0.2", "-", "-", "plan", 401)


def test_the_first_refusal_of_a_window_is_written_and_repeats_are_counted() -> None:
    limiter = RefusalLimiter(window=60)
    assert limiter.note(G, 1000.0) == (True, G)
    assert [limiter.note(G, 1000.0 + i)[0] for i in range(1, 60)] == [False] * 59
    assert limiter.note(H, 1010.0) == (True, H)
    assert limiter.closed(1059.9) == []
    assert limiter.closed(1060.0) == [Repeats(G, 59, 1000.0, 1059.0)]
    assert limiter.note(G, 1060.0) == (True, G)  # a new window
    assert limiter.closed(1070.0) == []  # H's window closed without repeats: nothing
    assert limiter.drain() == []
    assert Repeats(G, 59, 1000.0, 1059.0).detail() == {
        "client": "10.0.0.1",
        "repeats": 59,
        "since": "1970-01-01T00:16:40Z",
        "until": "1970-01-01T00:17:39Z",
    }


def test_past_the_group_limit_new_clients_share_one_group() -> None:
    limiter = RefusalLimiter(window=60, max_groups=2)
    clients = [RefusalGroup(f"10.0.0.{i}", "-", "-", "plan", 401) for i in range(10)]
    written = [limiter.note(g, 5.0) for g in clients]
    overflow = RefusalGroup("*", "-", "-", "plan", 401)
    assert (
        written
        == [(True, clients[0]), (True, clients[1]), (True, overflow)] + [(False, overflow)] * 7
    )
    assert limiter.drain() == [Repeats(overflow, 7, 5.0, 5.0)]


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_300_refusals_write_a_bounded_number_of_entries_that_count_them_all(
    request: pytest.FixtureRequest, store: str, location: CodeLocation
) -> None:
    store_url = str(request.getfixturevalue(f"{store}_url"))
    _record(store_url)
    consumers = f"/v1/catalog/datasets/{CRM.id}/consumers"
    with serving(create_app(location, TABLE, store_url)) as url, httpx.Client() as client:
        for _ in range(300):
            assert client.post(url + "/v1/plan", json={"select": "customers"}).status_code == 401
        for _ in range(50):
            r = client.post(url + consumers, json={"owners": ["x"]}, headers=auth("viewer"))
            assert r.status_code == 403
        r = client.post(url + "/v1/plan", json={"select": "customers"}, headers=auth("viewer"))
        assert r.status_code == 200
    # the server has stopped: every open count is written
    with Catalog(store_url) as catalog:
        entries = list_audit(catalog.engine, limit=10_000)
    plans = [e for e in entries if e.action == "plan" and e.outcome is Outcome.DENIED]
    annotations = [e for e in entries if e.action == "catalog.annotate"]
    # at most two entries per window (the first refusal, then the count of its repeats),
    # and the run may straddle one window boundary
    assert 2 <= len(plans) <= 4
    assert 2 <= len(annotations) <= 4
    assert sum(e.detail.get("repeats", 1) for e in plans) == 300
    assert sum(e.detail.get("repeats", 1) for e in annotations) == 50
    assert {(e.actor, e.role, e.status) for e in plans} == {("-", "-", 401)}
    assert {(e.actor, e.role, e.status) for e in annotations} == {("viewer-user", "viewer", 403)}
    assert {e.detail["client"] for e in plans + annotations} == {"127.0.0.1"}
    first = plans[-1]  # the oldest: the first refusal itself
    assert (first.target, "repeats" in first.detail) == ("/v1/plan", False)
    assert [e.outcome for e in entries if e.action == "plan"].count(Outcome.OK) == 1
