"""Property: whatever JSON-ish body a client sends to the routes that take one, the answer
is never a 5xx, and every refusal is a JSON error. In-process ASGI (httpx's
ASGITransport raises the app's exceptions, so a crash fails the test too)."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette

from faucet_dagster.location import load_code_location
from faucet_dagster.serve import create_app
from tests.faucet_core.lineage.helpers import complete_event
from tests.faucet_dagster.plan.test_cli import CRM, LOCATION, _record
from tests.faucet_dagster.server.conftest import TABLE, auth

EVENT = complete_event()
TEXT = st.text(st.characters(codec=None, categories=None), max_size=20) | st.sampled_from(
    ["", "\x00", "\ud800", "customers", "a" * 700, "x\\u0000"]
)
NUMBER = (
    st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from([0, -1, 51, 10**200])
)
JSON = st.recursive(
    st.none() | st.booleans() | NUMBER | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)
RECORDS = st.lists(
    st.dictionaries(st.sampled_from(["id", "email", "score", "x"]), JSON), max_size=4
)
PLAN = st.fixed_dictionaries(
    {},
    optional={
        "select": st.sampled_from(["customers", "nope", "crm"]) | JSON,
        "asset": JSON,
        "sample": RECORDS | JSON,
        "depth": st.integers(-2, 60) | JSON,
        "impact": st.booleans() | JSON,
        "extra": JSON,
    },
)
NEAR_VALID_PLAN = st.fixed_dictionaries(  # gets past validation: the planner runs
    {"select": st.just("customers")},
    optional={"sample": RECORDS, "depth": st.integers(0, 50)},
)
CONSUMER = st.fixed_dictionaries(
    {"name": TEXT},
    optional={"kind": TEXT, "contact": TEXT, "columns": st.lists(TEXT, max_size=3) | JSON},
)
NAME = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), min_size=1, max_size=8)
NEAR_VALID_ANNOTATE = st.fixed_dictionaries(
    {
        "consumers": st.lists(
            st.fixed_dictionaries({"name": NAME}, optional={"kind": TEXT}),
            max_size=2,
            unique_by=lambda c: c["name"],
        )
    },
    optional={"owners": st.lists(NAME, max_size=2), "replace": st.booleans()},
)
ANNOTATE = st.fixed_dictionaries(
    {},
    optional={
        "owners": st.lists(TEXT, max_size=3) | JSON,
        "consumers": st.lists(CONSUMER | JSON, max_size=3),
        "replace": st.booleans() | JSON,
    },
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*prefix, i))


EVENT_PATHS = [p for p in _paths(EVENT) if p]


@st.composite
def _mutated_event(draw: st.DrawFn) -> Any:
    event = copy.deepcopy(EVENT)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(EVENT_PATHS))
        node: Any = event
        try:
            for part in path[:-1]:
                node = node[part]
            node[path[-1]] = draw(JSON)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation replaced a parent
    return event


LINEAGE = _mutated_event() | st.lists(_mutated_event(), max_size=3) | JSON


def _body(value: Any, cut: int | None) -> bytes:
    raw = json.dumps(value).encode()  # lone surrogates come out escaped, as a client sends
    return raw if cut is None else raw[: cut % (len(raw) + 1)]


CUT = st.none() | st.integers(0, 10_000)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Starlette:
    url = f"sqlite:///{Path(tmp_path_factory.mktemp('property')) / 'faucet.db'}"
    _record(url)
    return create_app(load_code_location(file=LOCATION), TABLE, url)


async def _post(app: Starlette, path: str, body: bytes, role: str) -> httpx.Response:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://faucet") as client:
        return await client.post(
            path, content=body, headers={**auth(role), "Content-Type": "application/json"}
        )


def _assert_no_5xx(response: httpx.Response) -> None:
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert isinstance(response.json()["error"], str)


SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@SETTINGS
@given(body=NEAR_VALID_PLAN | PLAN | JSON, cut=CUT)
def test_plan_never_answers_5xx(app: Starlette, body: Any, cut: int | None) -> None:
    _assert_no_5xx(asyncio.run(_post(app, "/v1/plan", _body(body, cut), "viewer")))


@SETTINGS
@given(body=NEAR_VALID_ANNOTATE | ANNOTATE | JSON, cut=CUT)
def test_annotate_never_answers_5xx(app: Starlette, body: Any, cut: int | None) -> None:
    path = f"/v1/catalog/datasets/{CRM.id}/consumers"
    _assert_no_5xx(asyncio.run(_post(app, path, _body(body, cut), "operator")))


@SETTINGS
@given(body=LINEAGE, cut=CUT)
def test_lineage_never_answers_5xx(app: Starlette, body: Any, cut: int | None) -> None:
    _assert_no_5xx(asyncio.run(_post(app, "/api/v1/lineage", _body(body, cut), "ingest")))
