"""The ``faucet serve`` Starlette app.

=========================================  ==================  ==============================
route                                      role                audited as
=========================================  ==================  ==============================
``POST /v1/plan``                          viewer              ``plan``
``GET  /v1/catalog/datasets``              viewer              -
``GET  /v1/catalog/datasets/{id or URI}``  viewer              -
``POST /v1/catalog/datasets/{id}/consumers``  operator         ``catalog.annotate``
``POST /api/v1/lineage``                   operator or ingest  ``lineage.ingest``
``GET  /v1/audit``                         admin               -
``GET  /metrics``                          viewer              -
``GET  /healthz``                          none                -
``/ui/...`` (the web console)              viewer and up       see ``serve.console``
=========================================  ==================  ==============================

401 without a valid bearer token, 403 below the role (audited as ``denied`` on audited
routes, repeats bounded: see :mod:`faucet_dagster.serve.api.refusals`). Bodies are JSON
objects, read and validated as :mod:`faucet_dagster.serve.api.requests` says: a malformed
body or a wrong field is a 400 naming the field; past :data:`MAX_BODY_BYTES` a 413. A
change and its audit entry commit in one transaction. Unknown routes and methods are JSON
404 / 405; any 5xx is audited as ``error`` (see :mod:`faucet_dagster.serve.api.guard`).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import AsyncIterator

from starlette.applications import Starlette

from faucet_core.catalog import Catalog
from faucet_core.store import ProfileStore
from faucet_dagster.location import CodeLocation
from faucet_dagster.serve import console
from faucet_dagster.serve.api.auth import TokenTable
from faucet_dagster.serve.api.guard import Guard, http_error_handlers
from faucet_dagster.serve.api.headers import ResponseHeaders
from faucet_dagster.serve.api.refs import AssetRefs
from faucet_dagster.serve.api.requests import (
    MAX_BODY_BYTES,
    MAX_DEPTH,
    AnnotateRequest,
    PlanRequest,
)
from faucet_dagster.serve.api.routes import ApiServer, api_routes
from faucet_dagster.serve.console.render import SECURITY_HEADERS

__all__ = [
    "ENV_SERVE",
    "MAX_BODY_BYTES",
    "MAX_DEPTH",
    "AnnotateRequest",
    "PlanRequest",
    "app_from_env",
    "create_app",
]


def create_app(
    location: CodeLocation,
    tokens: TokenTable,
    store_url: str | None = None,
    *,
    dagster_url: str | None = None,
) -> Starlette:
    """The API over ``location`` and the store at ``store_url`` (default: the location's
    FaucetResource store, else ``FAUCET_STORE_URL``, else the default SQLite file), and
    the web console at ``/ui/`` (its asset links point at ``dagster_url``, else
    ``$FAUCET_DAGSTER_URL``; none when neither is set)."""
    store = ProfileStore(store_url or location.store_url())
    engine = store.engine
    server = ApiServer(
        location, store, Catalog(engine), tokens, Guard(tokens, engine), AssetRefs(location.defs)
    )
    catalog = server.catalog
    routes = [
        *api_routes(server),
        console.console_mount(
            console.ConsoleContext(
                location=location,
                catalog=catalog,
                gate=server.gate,
                sessions=console.Sessions(tokens, console.session_secret()),
                dagster_url=console.dagster_url(
                    dagster_url or os.environ.get(console.ENV_DAGSTER_URL)
                ),
                max_body=MAX_BODY_BYTES,
                max_depth=MAX_DEPTH,
            )
        ),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await server.gate.flush()
            catalog.close()
            store.close()

    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers=http_error_handlers(console.http_error_page),
    )
    app.add_middleware(ResponseHeaders, console=SECURITY_HEADERS, prefix=console.PREFIX)
    app.state.store = store
    app.state.catalog = catalog
    return app


ENV_SERVE = "FAUCET_SERVE_LOCATION"
"""For ``faucet serve --workers N``: each uvicorn worker builds its app from the
environment (``-m``/``-f`` target, store URL, tokens file) with :func:`app_from_env`."""


def app_from_env() -> Starlette:
    """The app described by ``$FAUCET_SERVE_LOCATION`` (JSON: module, file,
    working_directory, source, store, tokens, dagster_url)."""
    from faucet_dagster.location import load_code_location
    from faucet_dagster.serve.api.auth import load_tokens

    spec = json.loads(os.environ[ENV_SERVE])
    location = load_code_location(
        spec.get("module"),
        spec.get("file"),
        working_directory=spec.get("working_directory"),
        source=spec.get("source"),
    )
    return create_app(
        location,
        load_tokens(spec.get("tokens")),
        spec.get("store"),
        dagster_url=spec.get("dagster_url"),
    )
