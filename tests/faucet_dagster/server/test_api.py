"""``faucet serve`` end to end: a real uvicorn server on 127.0.0.1 driven with httpx."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from faucet_core.catalog import Catalog, dataset_id
from faucet_core.store.audit import Outcome, list_audit
from faucet_dagster.cli import main
from faucet_dagster.location import CodeLocation
from faucet_dagster.serve import MAX_BODY_BYTES, create_app
from tests.faucet_core.lineage.helpers import complete_event
from tests.faucet_dagster.plan.test_cli import CRM, LOCATION, _record, _record_untyped
from tests.faucet_dagster.server.conftest import TABLE, TOKENS, Served, auth, serving

CRM_ID = dataset_id(CRM.uri)
ANNOTATE = {"owners": ["team-b"], "consumers": [{"name": "dash", "kind": "dashboard"}]}

# (method, path, body, the least role that may call it; "ingest" marks the lineage route)
ENDPOINTS: list[tuple[str, str, Any, str]] = [
    ("POST", "/v1/plan", {"select": "customers"}, "viewer"),
    ("GET", "/v1/catalog/datasets", None, "viewer"),
    ("GET", f"/v1/catalog/datasets/{CRM_ID}", None, "viewer"),
    ("POST", f"/v1/catalog/datasets/{CRM_ID}/consumers", ANNOTATE, "operator"),
    ("POST", "/api/v1/lineage", "LINEAGE", "ingest"),
    ("GET", "/v1/audit", None, "admin"),
    ("GET", "/metrics", None, "viewer"),
]
RANK = {"viewer": 1, "operator": 2, "admin": 3}


def _allowed(caller: str, needed: str) -> bool:
    if needed == "ingest":
        return caller in ("ingest", "operator", "admin")
    return caller != "ingest" and RANK[caller] >= RANK[needed]


def _entries(served: Served, action: str | None = None) -> list[Any]:
    with Catalog(served.store_url) as catalog:
        return list_audit(catalog.engine, action=action)


def _counts(served: Served) -> dict[str, int]:
    with Catalog(served.store_url) as catalog:
        return dict(catalog.counts())


MATRIX = [
    pytest.param(method, path, body, needed, caller, id=f"{method} {path.split('/')[-1]}-{caller}")
    for method, path, body, needed in ENDPOINTS
    for caller in ("none", "wrong", "viewer", "operator", "admin", "ingest")
]


@pytest.mark.parametrize(("method", "path", "body", "needed", "caller"), MATRIX)
def test_roles(served: Served, method: str, path: str, body: Any, needed: str, caller: str) -> None:
    headers = {}
    if caller == "wrong":
        headers = {"Authorization": "Bearer not-a-token-0123456789"}
    elif caller != "none":
        headers = auth(caller)
    payload = complete_event() if body == "LINEAGE" else body
    r = httpx.request(method, served.url + path, json=payload, headers=headers, timeout=60)
    if caller in ("none", "wrong"):
        assert r.status_code == 401
        assert r.headers["www-authenticate"].startswith("Bearer")
    elif _allowed(caller, needed):
        assert r.status_code in (200, 201), r.text
    else:
        assert r.status_code == 403
        assert caller in r.json()["error"]
    for token in TOKENS.values():
        assert token not in r.text


def test_health_needs_no_token(served: Served) -> None:
    r = httpx.get(served.url + "/healthz")
    assert r.status_code == 200
    assert r.json()["status"] == "ok"


def test_plan_is_the_cli_report_and_writes_only_its_audit_entry(
    served: Served, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _counts(served)
    r = httpx.post(
        served.url + "/v1/plan",
        json={"select": "customers", "impact": True},
        headers=auth("viewer"),
    )
    assert r.status_code == 200, r.text
    assert _counts(served) == before
    monkeypatch.setenv("FAUCET_STORE_URL", served.store_url)
    code = main(["plan", "--impact", "-f", LOCATION, "--select", "customers", "--json"])
    assert code == 0
    assert r.json() == json.loads(capsys.readouterr().out)
    assert r.json()["impact"]["severity"] == "breaking"
    (entry,) = _entries(served, "plan")
    assert (entry.actor, entry.role, entry.target, entry.outcome, entry.status) == (
        "viewer-user",
        "viewer",
        "customers",
        Outcome.OK,
        200,
    )
    assert entry.detail["severity"] == "breaking"


def test_plan_with_an_inline_sample_and_depth(served: Served) -> None:
    sample = [{"id": 1, "mail": "a@b", "score": 1.5}, {"id": 2, "mail": None, "score": 2.0}]
    r = httpx.post(
        served.url + "/v1/plan",
        json={"asset": "customers", "sample": sample, "depth": 1},
        headers=auth("viewer"),
    )
    assert r.status_code == 200, r.text
    assert r.json()["impact"]["planned_from"] == "sample"
    (entry,) = _entries(served, "plan")
    assert entry.detail["sample_rows"] == 2


def test_plan_of_a_change_set_is_the_cli_report(
    served: Served, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _record_untyped(served.store_url)
    r = httpx.post(
        served.url + "/v1/plan",
        json={"select": ["group:crm", "contacts"]},
        headers=auth("viewer"),
    )
    assert r.status_code == 200, r.text
    monkeypatch.setenv("FAUCET_STORE_URL", served.store_url)
    argv = ["plan", "--impact", "-f", LOCATION, "--select", "group:crm", "--select", "contacts"]
    assert main([*argv, "--json"]) == 0
    assert r.json() == json.loads(capsys.readouterr().out)
    assert r.json()["change"]["assets"] == ["contacts", "customers", "untyped"]
    (entry,) = _entries(served, "plan")
    assert (entry.target, entry.detail["severity"]) == ("group:crm,contacts", "breaking")


def test_plan_of_one_selection_string_keeps_the_single_report(served: Served) -> None:
    r = httpx.post(served.url + "/v1/plan", json={"select": ["customers"]}, headers=auth("viewer"))
    assert r.status_code == 200, r.text
    assert r.json()["impact"]["severity"] == "breaking"


@pytest.mark.parametrize(
    ("body", "field", "status"),
    [
        pytest.param(b"{not json", "body", 400, id="malformed-json"),
        pytest.param(b"[1, 2]", "body", 400, id="not-an-object"),
        pytest.param({"select": "customers", "bogus": 1}, "bogus", 400, id="unknown-field"),
        pytest.param({"select": "customers", "depth": "3"}, "depth", 400, id="wrong-type"),
        pytest.param({"select": "customers", "depth": -1}, "depth", 400, id="negative-depth"),
        pytest.param({"select": "customers", "sample": [1]}, "sample.0", 400, id="bad-sample"),
        pytest.param({}, "body", 400, id="no-asset"),
        pytest.param({"select": "customers", "impact": False}, "body", 400, id="impact-false"),
        pytest.param({"select": "nope"}, "select", 400, id="unknown-asset"),
        pytest.param({"select": []}, "body", 400, id="empty-change-set"),
        pytest.param({"select": ["customers"] * 101}, "body", 400, id="too-many-selections"),
        pytest.param(
            {"select": ["customers", "untyped"], "sample": [{"id": 1}]},
            "select",
            400,
            id="sample-for-several",
        ),
    ],
)
def test_plan_bad_input_names_the_field(served: Served, body: Any, field: str, status: int) -> None:
    kwargs: dict[str, Any] = {"content": body} if isinstance(body, bytes) else {"json": body}
    r = httpx.post(served.url + "/v1/plan", headers=auth("viewer"), **kwargs)
    assert r.status_code == status, r.text
    assert r.json()["field"] == field
    assert r.json()["error"].startswith(field) or field == "select"
    (entry,) = _entries(served, "plan")
    assert (entry.outcome, entry.status) == (Outcome.REJECTED, status)


def test_a_body_past_the_limit_is_413(served: Served) -> None:
    big = json.dumps({"select": "customers", "sample": [{"x": "y" * 1000}] * 1100}).encode()
    assert len(big) > MAX_BODY_BYTES
    r = httpx.post(served.url + "/v1/plan", content=big, headers=auth("viewer"))
    assert r.status_code == 413

    def chunks() -> Any:  # no Content-Length: the streamed size is checked
        for _ in range(0, len(big), 65536):
            yield big[:65536]

    r = httpx.post(served.url + "/v1/plan", content=chunks(), headers=auth("viewer"))
    assert r.status_code == 413


def test_dataset_list_and_detail_with_profile(served: Served) -> None:
    r = httpx.get(served.url + "/v1/catalog/datasets", headers=auth("viewer"))
    uris = {d["uri"] for d in r.json()["datasets"]}
    assert CRM.uri in uris
    r = httpx.get(served.url + f"/v1/catalog/datasets/{CRM_ID[:6]}", headers=auth("viewer"))
    detail = r.json()
    assert detail["id"] == CRM_ID
    assert set(detail["profile"]) == {"latest", "history"}
    assert {c["name"] for c in detail["consumers"]} == {"crm-sync", "lake-audit", "ids-only"}
    r = httpx.get(served.url + "/v1/catalog/datasets/ffffffffffff", headers=auth("viewer"))
    assert r.status_code == 404


def test_annotate_replaces_owners_upserts_consumers_and_is_audited(served: Served) -> None:
    url = served.url + f"/v1/catalog/datasets/{CRM_ID}/consumers"
    body = {
        "owners": ["team-b"],
        "consumers": [
            {"name": "crm-sync", "kind": "export", "contact": "#new", "columns": ["email"]},
            {"name": "contacts-dashboard", "kind": "dashboard", "columns": ["contact"]},
        ],
    }
    r = httpx.post(url, json=body, headers=auth("operator"))
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["owners"] == ["team:lake", "team-b"]  # the annotated owner joins the lake's
    consumers = {c["name"]: c for c in got["consumers"]}
    assert set(consumers) == {"crm-sync", "lake-audit", "ids-only", "contacts-dashboard"}
    assert consumers["crm-sync"]["contact"] == "#new"
    r = httpx.post(
        url, json={"consumers": [{"name": "lake-audit"}], "replace": True}, headers=auth("admin")
    )
    assert [c["name"] for c in r.json()["consumers"]] == ["lake-audit"]
    assert r.json()["owners"] == ["team:lake", "team-b"]  # owners not given: kept
    second, first = _entries(served, "catalog.annotate")
    assert (first.actor, first.target, first.outcome) == ("operator-user", CRM_ID, Outcome.OK)
    assert first.detail["consumers"] == ["crm-sync", "contacts-dashboard"]
    assert (second.actor, second.role, second.detail["replace"]) == ("admin-user", "admin", True)


@pytest.mark.parametrize(
    ("ref", "body", "status", "field"),
    [
        pytest.param(CRM_ID, {"consumers": [{"name": ""}]}, 400, "consumers.0.name", id="empty"),
        pytest.param(
            CRM_ID,
            {"consumers": [{"colums": [], "name": "x"}]},
            400,
            "consumers.0.colums",
            id="typo",
        ),
        pytest.param(CRM_ID, {"owners": "team-b"}, 400, "owners", id="owners-not-a-list"),
        pytest.param(CRM_ID, {}, 400, "body", id="nothing"),
        pytest.param("ffffffffffff", ANNOTATE, 404, None, id="unknown-dataset"),
    ],
)
def test_annotate_bad_input_writes_nothing(
    served: Served, ref: str, body: Any, status: int, field: str | None
) -> None:
    before = httpx.get(served.url + f"/v1/catalog/datasets/{CRM_ID}", headers=auth("viewer")).json()
    r = httpx.post(
        served.url + f"/v1/catalog/datasets/{ref}/consumers", json=body, headers=auth("operator")
    )
    assert r.status_code == status, r.text
    if field is not None:
        assert r.json()["field"] == field
    after = httpx.get(served.url + f"/v1/catalog/datasets/{CRM_ID}", headers=auth("viewer")).json()
    assert after == before
    (entry,) = _entries(served, "catalog.annotate")
    assert (entry.outcome, entry.status) == (Outcome.REJECTED, status)


def test_lineage_with_an_ingest_token_is_recorded_and_audited(served: Served) -> None:
    before = _counts(served)
    r = httpx.post(served.url + "/api/v1/lineage", json=complete_event(), headers=auth("ingest"))
    assert r.status_code == 201, r.text
    assert r.json()["accepted"] == 1
    assert _counts(served)["edges"] > before["edges"]
    r = httpx.post(
        served.url + "/api/v1/lineage", json={"eventType": "DONE"}, headers=auth("ingest")
    )
    assert r.status_code == 400
    ok, bad = reversed(_entries(served, "lineage.ingest"))
    assert (ok.actor, ok.role, ok.outcome, ok.detail["accepted"]) == (
        "ingest-user",
        "ingest",
        Outcome.OK,
        1,
    )
    assert (bad.outcome, bad.status) == (Outcome.REJECTED, 400)


def test_denials_are_audited_without_the_token(served: Served) -> None:
    httpx.post(served.url + "/v1/plan", json={"select": "customers"})
    httpx.post(
        served.url + f"/v1/catalog/datasets/{CRM_ID}/consumers",
        json=ANNOTATE,
        headers=auth("viewer"),
    )
    httpx.post(served.url + "/v1/plan", json={}, headers=auth("ingest"))
    entries = _entries(served)
    assert [(e.action, e.actor, e.outcome, e.status) for e in reversed(entries)] == [
        ("plan", "-", Outcome.DENIED, 401),
        ("catalog.annotate", "viewer-user", Outcome.DENIED, 403),
        ("plan", "ingest-user", Outcome.DENIED, 403),
    ]
    dumped = json.dumps([e.to_dict() for e in entries])
    assert not any(token in dumped for token in TOKENS.values())


def test_metrics_and_the_audit_endpoint_and_cli(
    served: Served, capsys: pytest.CaptureFixture[str]
) -> None:
    r = httpx.get(served.url + "/metrics", headers=auth("viewer"))
    assert r.status_code == 200
    assert "faucet_profile_runs" in r.text
    httpx.post(served.url + "/v1/plan", json={"select": "customers"}, headers=auth("viewer"))
    r = httpx.get(served.url + "/v1/audit?limit=5&action=plan", headers=auth("admin"))
    assert [e["actor"] for e in r.json()["entries"]] == ["viewer-user"]
    r = httpx.get(served.url + "/v1/audit?limit=zero", headers=auth("admin"))
    assert (r.status_code, r.json()["field"]) == (400, "limit")
    assert main(["audit", "--store", served.store_url, "--json"]) == 0
    (entry,) = json.loads(capsys.readouterr().out)
    assert (entry["action"], entry["outcome"], entry["status"]) == ("plan", "ok", 200)
    assert main(["audit", "--store", served.store_url]) == 0
    assert "viewer-user (viewer)  plan customers  ok 200" in capsys.readouterr().out


def test_annotate_and_its_audit_entry_on_each_store(store_url: str, location: CodeLocation) -> None:
    _record(store_url)
    with serving(create_app(location, TABLE, store_url)) as url:
        r = httpx.post(
            url + f"/v1/catalog/datasets/{CRM_ID}/consumers", json=ANNOTATE, headers=auth("admin")
        )
        assert r.status_code == 200, r.text
        r = httpx.post(url + "/v1/plan", json={"select": "customers"}, headers=auth("viewer"))
        assert r.status_code == 200, r.text
    with Catalog(store_url) as catalog:
        entries = list_audit(catalog.engine)
        assert [(e.action, e.outcome) for e in entries] == [
            ("plan", Outcome.OK),
            ("catalog.annotate", Outcome.OK),
        ]
        assert catalog.dataset(CRM_ID).owners == ("team:lake", "team-b")
