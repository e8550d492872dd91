"""Datasets by URI, and JSON answers for unknown routes and methods (real uvicorn)."""

from __future__ import annotations

from urllib.parse import quote

import httpx
import pytest

from tests.faucet_dagster.plan.test_cli import CRM
from tests.faucet_dagster.server.conftest import Served, auth


@pytest.mark.parametrize(
    "ref",
    [
        pytest.param(CRM.id, id="id"),
        pytest.param(CRM.id[:6], id="id-prefix"),
        pytest.param(CRM.uri, id="uri"),
        pytest.param(quote(CRM.uri, safe=""), id="uri-percent-encoded"),
    ],
)
def test_a_dataset_by_id_or_uri(served: Served, ref: str) -> None:
    r = httpx.get(served.url + f"/v1/catalog/datasets/{ref}", headers=auth("viewer"))
    assert r.status_code == 200, r.text
    assert (r.json()["id"], r.json()["uri"]) == (CRM.id, CRM.uri)


def test_annotate_by_uri(served: Served) -> None:
    r = httpx.post(
        served.url + f"/v1/catalog/datasets/{CRM.uri}/consumers",
        json={"owners": ["team-b"]},
        headers=auth("operator"),
    )
    assert r.status_code == 200, r.text
    # the annotated owner joins the owner the OpenLineage event declared (owners per source)
    assert (r.json()["id"], r.json()["owners"]) == (CRM.id, ["team:lake", "team-b"])


def test_an_unknown_uri_is_a_json_404(served: Served) -> None:
    r = httpx.get(served.url + "/v1/catalog/datasets/s3://lake/nope", headers=auth("viewer"))
    assert r.status_code == 404
    assert r.json() == {
        "error": "no dataset 's3://lake/nope' in the catalog: `faucet catalog datasets` lists "
        "the URIs it knows"
    }


@pytest.mark.parametrize(
    ("method", "path", "status", "error"),
    [
        ("GET", "/", 404, "no route '/': see the API's routes in docs/serve.md"),
        ("POST", "/v1/x", 404, "no route '/v1/x': see the API's routes in docs/serve.md"),
        ("GET", "/v1/plan", 405, "GET is not allowed on '/v1/plan'; use POST"),
        ("DELETE", "/v1/audit", 405, "DELETE is not allowed on '/v1/audit'; use GET, HEAD"),
        ("PUT", "/api/v1/lineage", 405, "PUT is not allowed on '/api/v1/lineage'; use POST"),
    ],
)
def test_unknown_routes_and_methods_answer_json(
    served: Served, method: str, path: str, status: int, error: str
) -> None:
    r = httpx.request(method, served.url + path)
    assert (r.status_code, r.headers["content-type"], r.json()) == (
        status,
        "application/json",
        {"error": error},
    )
