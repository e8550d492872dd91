"""An OpenLineage HTTP receiver: ``POST /api/v1/lineage``, as openlineage-python's HTTP
transport (and Marquez's API) expect it.

The body is one event, a JSON array of events, or JSON lines; ``Content-Encoding: gzip``
is accepted. 201 ``{"accepted": N, ...}`` when recorded; 400 with every malformed
event's index and reason when one is malformed (nothing is written); 413 past
:data:`MAX_BODY_BYTES`. :func:`lineage_routes` gives the route to mount in another
Starlette app; :func:`create_receiver_app` wraps it alone.
"""

from __future__ import annotations

import gzip
import zlib
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from faucet_core.catalog import Catalog
from faucet_core.errors import FaucetError
from faucet_core.lineage.ingest import EventsRejected, ingest_text

__all__ = ["LINEAGE_PATH", "MAX_BODY_BYTES", "create_receiver_app", "lineage_routes"]

LINEAGE_PATH = "/api/v1/lineage"
MAX_BODY_BYTES = 16 * 1024 * 1024


def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


async def _body(request: Request) -> bytes | JSONResponse:
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return _error(
                413, f"the request body exceeds {MAX_BODY_BYTES} bytes: send fewer events"
            )
        chunks.append(chunk)
    body = b"".join(chunks)
    encoding = request.headers.get("content-encoding", "").strip().lower()
    if encoding in ("gzip", "x-gzip"):
        try:
            body = gzip.decompress(body)
        except (OSError, EOFError, zlib.error) as exc:
            return _error(400, f"the body is not valid gzip: {exc}")
    elif encoding not in ("", "identity"):
        return _error(415, f"Content-Encoding {encoding!r} is not supported; use gzip or none")
    return body


def lineage_routes(catalog: Catalog, path: str = LINEAGE_PATH) -> list[Route]:
    """The receiver's route, to mount in any Starlette app (``faucet serve``)."""

    async def receive(request: Request) -> JSONResponse:
        body = await _body(request)
        if isinstance(body, JSONResponse):
            return body
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return _error(400, "the body is not UTF-8 text")
        if not text.strip():
            return _error(400, "the request body holds no event: POST one OpenLineage event")
        try:
            result = await run_in_threadpool(ingest_text, catalog, text, "")
        except EventsRejected as exc:
            return _error(400, str(exc), rejected=[r.to_dict() for r in exc.rejections])
        except FaucetError as exc:
            return _error(503, f"the catalog could not record the events: {exc}")
        return JSONResponse({"accepted": result.summary.events, **result.summary.to_dict()}, 201)

    return [Route(path, receive, methods=["POST"])]


def create_receiver_app(catalog: Catalog) -> Starlette:
    """A Starlette app with the OpenLineage route and ``GET /healthz``."""

    async def health(_request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok", "catalog": catalog.url})

    return Starlette(routes=[*lineage_routes(catalog), Route("/healthz", health)])
