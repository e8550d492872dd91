"""An OpenLineage HTTP receiver: ``POST /api/v1/lineage``, as openlineage-python's HTTP
transport (and Marquez's API) expect it.

The body is one event, a JSON array of events, or JSON lines; ``Content-Encoding: gzip``
is accepted. 201 ``{"accepted": N, ...}`` when recorded; 400 with every malformed
event's index and reason when one is malformed (nothing is written); 413 past
:data:`MAX_BODY_BYTES`, sent or decompressed (a gzip body is inflated in steps and
refused as soon as its output passes the limit, never inflated whole); 503 only when the
store fails. Every other client mistake is a 4xx, because OpenLineage clients retry 5xx.
A client that disconnects before its body is complete gets a one-line warning in the
log and the (unsent) status :data:`CLIENT_CLOSED`.

:func:`lineage_routes` gives the route to mount in another Starlette app;
:func:`create_receiver_app` wraps it alone, without authentication (``faucet lineage
serve`` adds tokens on top, see ``faucet_dagster.server``).
"""

from __future__ import annotations

import logging
import zlib
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from faucet_core.catalog import Catalog
from faucet_core.errors import FaucetError, StoreError
from faucet_core.json_limits import JsonLimitError, check_json
from faucet_core.lineage.ingest import EventsRejected, ingest_text

__all__ = [
    "CLIENT_CLOSED",
    "LINEAGE_PATH",
    "MAX_BODY_BYTES",
    "BodyTooLarge",
    "GzipInflater",
    "create_receiver_app",
    "lineage_routes",
]

LINEAGE_PATH = "/api/v1/lineage"
MAX_BODY_BYTES = 16 * 1024 * 1024
CLIENT_CLOSED = 499
"""The status of a request whose client went away mid-body (as nginx logs it)."""

_log = logging.getLogger("faucet.lineage")


def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


class BodyTooLarge(Exception):
    """The inflated body passed its limit."""


class GzipInflater:
    """Inflate gzip data fed in pieces, never holding more than ``limit`` + 1 output bytes
    from one call: past ``limit`` in total it raises :class:`BodyTooLarge`. Several gzip
    members one after another are inflated in turn, as ``gzip.decompress`` does."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self._inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self._chunks: list[bytes] = []

    def feed(self, data: bytes) -> None:
        """Inflate ``data``; raises ``zlib.error`` on bad gzip, :class:`BodyTooLarge`."""
        while data:
            if self._inflate.eof:  # the next gzip member starts here
                self._inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
            out = self._inflate.decompress(data, self.limit - self.size + 1)
            self.size += len(out)
            if self.size > self.limit:
                raise BodyTooLarge
            self._chunks.append(out)
            data = self._inflate.unconsumed_tail or (
                self._inflate.unused_data if self._inflate.eof else b""
            )

    def finish(self) -> bytes:
        """The whole inflated body; raises ``zlib.error`` if the last member is cut off."""
        if not self._inflate.eof:
            raise zlib.error("the gzip data ends before its last member is complete")
        return b"".join(self._chunks)


def _too_large(what: str) -> JSONResponse:
    return _error(
        413,
        f"the request body exceeds {MAX_BODY_BYTES} bytes{what}: send fewer events",
    )


def _declared(value: str) -> int:
    """A Content-Length header as a number (0 when it is not one)."""
    return int(value) if value.isascii() and value.isdigit() and len(value) < 20 else 0


async def _body(request: Request) -> bytes | JSONResponse:
    declared = request.headers.get("content-length", "")
    if _declared(declared) > MAX_BODY_BYTES:
        return _too_large("")
    encoding = request.headers.get("content-encoding", "").strip().lower()
    gzipped = encoding in ("gzip", "x-gzip")
    if not gzipped and encoding not in ("", "identity"):
        return _error(415, f"Content-Encoding {encoding[:40]!r} is not supported; use gzip or none")
    inflater = GzipInflater(MAX_BODY_BYTES)
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                return _too_large("")
            if gzipped:
                inflater.feed(chunk)
            else:
                chunks.append(chunk)
        return inflater.finish() if gzipped else b"".join(chunks)
    except BodyTooLarge:
        return _too_large(" once decompressed")
    except zlib.error as exc:
        return _error(400, f"the body is not valid gzip: {exc}")


def _client_closed(request: Request) -> JSONResponse:
    client = request.client.host if request.client else "-"
    _log.warning(
        "client %s closed the connection before its %s %s body was complete",
        client,
        request.method,
        request.url.path,
    )
    return _error(CLIENT_CLOSED, "the client closed the connection before the body was complete")


def lineage_routes(catalog: Catalog, path: str = LINEAGE_PATH) -> list[Route]:
    """The receiver's route, to mount in any Starlette app (``faucet serve``)."""

    async def receive(request: Request) -> JSONResponse:
        try:
            body = await _body(request)
        except ClientDisconnect:
            return _client_closed(request)
        if isinstance(body, JSONResponse):
            return body
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return _error(400, "the body is not UTF-8 text")
        if not text.strip():
            return _error(400, "the request body holds no event: POST one OpenLineage event")
        try:
            check_json(text)
        except JsonLimitError as exc:
            return _error(400, str(exc))
        try:
            result = await run_in_threadpool(ingest_text, catalog, text, "")
        except EventsRejected as exc:
            return _error(400, str(exc), rejected=[r.to_dict() for r in exc.rejections])
        except StoreError as exc:
            return _error(503, f"the catalog could not record the events: {exc}")
        except FaucetError as exc:
            return _error(400, f"the events cannot be recorded: {exc}")
        return JSONResponse({"accepted": result.summary.events, **result.summary.to_dict()}, 201)

    return [Route(path, receive, methods=["POST"])]


async def _http_error(request: Request, exc: Exception) -> Response:
    """The router's 404 / 405 as JSON."""
    assert isinstance(exc, HTTPException)
    message = f"{request.method} {request.url.path[:200]!r}: {exc.detail}"
    return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)


def create_receiver_app(catalog: Catalog) -> Starlette:
    """A Starlette app with the OpenLineage route and ``GET /healthz`` (no tokens)."""

    async def health(_request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok", "catalog": catalog.url})

    return Starlette(
        routes=[*lineage_routes(catalog), Route("/healthz", health)],
        exception_handlers={HTTPException: _http_error},
    )
