"""The OpenLineage HTTP receiver on a real uvicorn server, driven by openlineage-python's
own HTTP transport and by httpx."""

from __future__ import annotations

import datetime as dt
import gzip
import json
from collections.abc import Iterator

import httpx
import pytest
from openlineage.client import OpenLineageClient
from openlineage.client.transport.http import HttpCompression, HttpConfig, HttpTransport
from sqlalchemy import text

from faucet_core.catalog import Catalog, DatasetRef, FieldRef, JobRef, Observation, RunState
from faucet_core.lineage import create_receiver_app, run_event
from tests.faucet_core.lineage.helpers import complete_event
from tests.faucet_core.lineage.server import serving

SRC = DatasetRef("s3://lake", "raw/orders")
DST = DatasetRef("s3://lake", "mart/orders")


@pytest.fixture
def served(store_url: str) -> Iterator[tuple[Catalog, str]]:
    with Catalog(store_url) as catalog, serving(create_receiver_app(catalog)) as url:
        yield catalog, url


def _event(run_id: str) -> object:
    return run_event(
        state=RunState.COMPLETE,
        job=JobRef("spark", "orders"),
        run_id=run_id,
        event_time=dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc),
        inputs=[Observation(SRC)],
        outputs=[Observation(DST, column_lineage={"id": (FieldRef(SRC, "order_id"),)})],
    )


@pytest.mark.parametrize("compression", [None, HttpCompression.GZIP], ids=["plain", "gzip"])
def test_openlineage_pythons_http_transport_posts_into_the_catalog(
    served: tuple[Catalog, str], compression: HttpCompression | None
) -> None:
    catalog, url = served
    client = OpenLineageClient(
        transport=HttpTransport(HttpConfig(url=url, compression=compression))
    )
    client.emit(_event("0194a000-0000-7000-8000-000000000001"))
    client.transport.close()
    (edge,) = catalog.edges(sinks=[DST.id])
    assert edge.column_lineage is not None
    assert (edge.source_uri, edge.column_lineage.as_map()) == (SRC.uri, {"id": ["order_id"]})
    assert edge.run_id == "0194a000-0000-7000-8000-000000000001"


def test_httpx_posts_an_array_of_events(served: tuple[Catalog, str]) -> None:
    catalog, url = served
    first = complete_event()
    second = complete_event()
    second["run"]["runId"] = "0194a000-0000-7000-8000-000000000009"
    response = httpx.post(f"{url}/api/v1/lineage", json=[first, second])
    assert response.status_code == 201
    body = response.json()
    assert (body["accepted"], body["complete"], body["runs"]) == (2, 2, 2)
    assert catalog.counts()["edges"] == 2


def test_a_malformed_event_is_rejected_with_index_and_reason(served: tuple[Catalog, str]) -> None:
    catalog, url = served
    bad = complete_event()
    bad["eventType"] = "DONE"
    response = httpx.post(f"{url}/api/v1/lineage", json=[complete_event(), bad])
    assert response.status_code == 400
    reason = "eventType 'DONE' is not one of START, RUNNING, COMPLETE, ABORT, FAIL, OTHER"
    assert response.json() == {
        "error": f"rejected 1 of 2 event(s); nothing was written:\n  event 1 (line 1): {reason}",
        "rejected": [{"index": 1, "reason": reason, "line": 1}],
    }
    assert catalog.counts()["datasets"] == 0


@pytest.mark.parametrize(
    ("body", "headers", "status", "error"),
    [
        (b"", {}, 400, "the request body holds no event: POST one OpenLineage event"),
        (b"\xff\xfe", {}, 400, "the body is not UTF-8 text"),
        (
            b"{}",
            {"Content-Encoding": "br"},
            415,
            "Content-Encoding 'br' is not supported; use gzip or none",
        ),
        (b"not gzip", {"Content-Encoding": "gzip"}, 400, "the body is not valid gzip: "),
    ],
    ids=["empty", "not-utf8", "brotli", "bad-gzip"],
)
def test_bad_bodies(
    served: tuple[Catalog, str], body: bytes, headers: dict[str, str], status: int, error: str
) -> None:
    _, url = served
    response = httpx.post(f"{url}/api/v1/lineage", content=body, headers=headers)
    assert response.status_code == status
    assert response.json()["error"].startswith(error)


def test_a_gzipped_body_and_other_routes(served: tuple[Catalog, str]) -> None:
    catalog, url = served
    body = gzip.compress(json.dumps(complete_event()).encode())
    response = httpx.post(
        f"{url}/api/v1/lineage", content=body, headers={"Content-Encoding": "gzip"}
    )
    assert response.status_code == 201
    r = httpx.get(f"{url}/api/v1/lineage")
    assert (r.status_code, r.json()) == (
        405,
        {"error": "GET '/api/v1/lineage': Method Not Allowed"},
    )
    r = httpx.get(f"{url}/nothing")
    assert (r.status_code, r.json()) == (404, {"error": "GET '/nothing': Not Found"})
    assert httpx.get(f"{url}/healthz").json() == {"status": "ok", "catalog": catalog.url}


def test_a_body_over_the_limit_is_refused(
    served: tuple[Catalog, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import faucet_core.lineage.receiver as receiver

    monkeypatch.setattr(receiver, "MAX_BODY_BYTES", 100)
    _, url = served
    response = httpx.post(f"{url}/api/v1/lineage", json=complete_event())
    assert response.status_code == 413
    assert response.json()["error"] == "the request body exceeds 100 bytes: send fewer events"


def test_a_store_failure_answers_503_and_names_it(served: tuple[Catalog, str]) -> None:
    catalog, url = served
    with catalog.engine.begin() as conn:
        conn.execute(text("DROP TABLE faucet_edges"))
    response = httpx.post(f"{url}/api/v1/lineage", json=complete_event())
    assert response.status_code == 503
    assert response.json()["error"].startswith(
        f"the catalog could not record the events: cannot record lineage in the catalog "
        f"{catalog.url}: "
    )
    with catalog.engine.connect() as conn:  # nothing of the event was written
        assert conn.execute(text("SELECT count(*) FROM faucet_datasets")).scalar() == 0
