"""What every answer of ``faucet serve`` carries and never carries: the no-sniff and
no-store headers on the API, the console's headers on its redirect, no store location in
a 404 or 503, the request's own field names in a 400. A real uvicorn server on 127.0.0.1
over a real SQLite store."""

from __future__ import annotations

from urllib.parse import quote

import httpx
import pytest
from sqlalchemy import create_engine

from faucet_core.catalog import Catalog
from faucet_core.db.schema import catalog_datasets
from faucet_dagster.cli import main
from faucet_dagster.location import CodeLocation
from faucet_dagster.serve import create_app
from faucet_dagster.serve.api.public import public_message
from faucet_dagster.serve.console.render import SECURITY_HEADERS
from tests.faucet_dagster.plan.test_cli import LOCATION, _record
from tests.faucet_dagster.server.conftest import TABLE, Served, auth, serving

API = [
    pytest.param("GET", "/v1/catalog/datasets", "viewer", 200, id="datasets"),
    pytest.param("GET", "/v1/catalog/datasets/s3://lake/none", "viewer", 404, id="unknown"),
    pytest.param("GET", "/v1/audit", "admin", 200, id="audit"),
    pytest.param("GET", "/v1/audit", None, 401, id="no-token"),
    pytest.param("POST", "/v1/plan", "viewer", 400, id="bad-plan"),
    pytest.param("GET", "/metrics", "viewer", 200, id="metrics"),
    pytest.param("GET", "/healthz", None, 200, id="health"),
    pytest.param("GET", "/v1/nothing", None, 404, id="no-route"),
    pytest.param("PUT", "/v1/plan", None, 405, id="wrong-method"),
]


@pytest.mark.parametrize(("method", "path", "role", "status"), API)
def test_api_answers_are_not_sniffed_nor_cached(
    served: Served, method: str, path: str, role: str | None, status: int
) -> None:
    headers = auth(role) if role else {}
    r = httpx.request(method, served.url + path, headers=headers, json={})
    assert r.status_code == status, r.text
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["cache-control"] == "no-store"


def test_the_console_redirect_carries_the_console_headers(served: Served) -> None:
    r = httpx.get(served.url + "/ui", follow_redirects=False)
    assert r.status_code in (307, 308)
    assert r.headers["location"].endswith("/ui/")
    for name, value in SECURITY_HEADERS.items():
        assert r.headers[name] == value


def _path(store_url: str) -> str:
    return store_url.removeprefix("sqlite:///")


@pytest.mark.parametrize(
    "ref",
    [
        pytest.param("s3://lake/members", id="uri"),
        pytest.param(quote("dagster://members", safe=""), id="encoded-uri"),
        pytest.param("0123456789ab", id="id"),
    ],
)
def test_a_404_does_not_say_where_the_store_lives(served: Served, ref: str) -> None:
    r = httpx.get(served.url + f"/v1/catalog/datasets/{ref}", headers=auth("viewer"))
    assert r.status_code == 404
    assert "in the catalog:" in r.json()["error"]
    assert _path(served.store_url) not in r.text
    assert "sqlite:" not in r.text
    posted = httpx.post(
        served.url + f"/v1/catalog/datasets/{ref}/consumers",
        json={"owners": ["x"]},
        headers=auth("operator"),
    )
    assert posted.status_code == 404
    assert "sqlite:" not in posted.text


def test_a_503_does_not_say_where_the_store_lives(served: Served) -> None:
    raw = create_engine(served.store_url)
    with raw.begin() as conn:
        catalog_datasets.drop(conn)
    raw.dispose()
    r = httpx.get(served.url + "/v1/catalog/datasets", headers=auth("viewer"))
    assert r.status_code == 503
    assert r.json()["error"].startswith("cannot read the catalog: part of the store's schema")
    assert _path(served.store_url) not in r.text


def test_every_percent_encoded_uri_of_the_catalog_is_found(served: Served) -> None:
    with Catalog(served.store_url) as catalog:
        uris = [e.uri for e in catalog.datasets()]
    assert any(u.startswith("dagster://") for u in uris)
    for uri in uris:
        r = httpx.get(
            served.url + "/v1/catalog/datasets/" + quote(uri, safe=""), headers=auth("viewer")
        )
        assert (r.status_code, r.json()["uri"]) == (200, uri)


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        pytest.param(
            {"select": 123},
            "select",
            "select: Input should be a valid string, or input should be a valid list",
            id="select-number",
        ),
        pytest.param(
            {"select": ["customers", 7]},
            "select.1",
            "select.1: Input should be a valid string",
            id="select-list-item",
        ),
        pytest.param(
            {"select": "a" * 1025},
            "select",
            "select: String should have at most 1024 characters",
            id="select-too-long",
        ),
        pytest.param(
            {"select": ["ok", "bad\u0000"]},
            "select.1",
            "select.1: holds a NUL character (\\u0000): remove it",
            id="select-nul",
        ),
        pytest.param(
            {"asset": 5}, "asset", "asset: Input should be a valid string", id="asset-number"
        ),
    ],
)
def test_a_400_names_the_requests_own_field(
    served: Served, body: object, field: str, message: str
) -> None:
    r = httpx.post(served.url + "/v1/plan", json=body, headers=auth("viewer"))
    assert r.status_code == 400
    assert r.json() == {"error": message, "field": field}


def test_consumer_fields_are_named_by_their_path(served: Served) -> None:
    r = httpx.post(
        served.url + "/v1/catalog/datasets/s3://lake/crm/customers.parquet/consumers",
        json={"consumers": [{"name": "dash", "columns": ["a", 3]}, {"name": 1}]},
        headers=auth("operator"),
    )
    assert r.json() == {
        "error": "consumers.0.columns.1: Input should be a valid string",
        "field": "consumers.0.columns.1",
    }


@pytest.mark.parametrize(
    ("message", "shown"),
    [
        pytest.param(
            "no dataset 'x' in the catalog {url}: `faucet catalog datasets` lists them",
            "no dataset 'x' in the catalog: `faucet catalog datasets` lists them",
            id="in-url",
        ),
        pytest.param(
            "cannot open the catalog at {url}: unable to open database file",
            "cannot open the catalog: unable to open database file",
            id="at-url",
        ),
        pytest.param("the file {path} is locked", "the file is locked", id="path"),
        pytest.param(
            "asset orders reads 'postgres://warehouse:5432/shop.orders' in {url}",
            "asset orders reads 'postgres://warehouse:5432/shop.orders'",
            id="dataset-uris-stay",
        ),
    ],
)
def test_public_message(sqlite_url: str, message: str, shown: str) -> None:
    engine = create_engine(sqlite_url)
    text = message.format(url=sqlite_url, path=_path(sqlite_url))
    assert public_message(text, engine) == shown
    engine.dispose()


def test_the_dagster_uri_of_an_asset_finds_the_dataset_it_writes(
    sqlite_url: str, location: CodeLocation
) -> None:
    # ``raw`` declares dagster/table_name, so its dataset is postgres://shop.raw
    encoded = quote("dagster://raw", safe="")
    _record(sqlite_url)
    with serving(create_app(location, TABLE, sqlite_url)) as url:
        before = httpx.get(url + f"/v1/catalog/datasets/{encoded}", headers=auth("viewer"))
    assert before.status_code == 404
    assert before.json()["error"] == (
        "no dataset 'dagster://raw' in the catalog: that asset writes the dataset "
        "'postgres://shop.raw', which the catalog does not hold yet; `faucet catalog sync` "
        "records the code location's assets"
    )
    assert main(["catalog", "sync", "-f", LOCATION, "--store", sqlite_url]) == 0
    with serving(create_app(location, TABLE, sqlite_url)) as url:
        found = httpx.get(url + f"/v1/catalog/datasets/{encoded}", headers=auth("viewer"))
        annotated = httpx.post(
            url + "/v1/catalog/datasets/dagster://raw/consumers",
            json={"owners": ["team:raw"]},
            headers=auth("operator"),
        )
    assert (found.status_code, found.json()["uri"]) == (200, "postgres://shop.raw")
    assert (annotated.status_code, annotated.json()["owners"]) == (200, ["team:raw"])
