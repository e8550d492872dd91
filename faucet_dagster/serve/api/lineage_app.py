"""``faucet lineage serve``: the OpenLineage receiver alone, behind the same bearer tokens
as ``faucet serve``.

With tokens, ``POST /api/v1/lineage`` needs an ``ingest``, ``operator`` or ``admin``
token (401 without a valid one, 403 for a viewer) and each request is audited as
``lineage.ingest``, as in ``faucet serve``. Without tokens the receiver answers any local
program, so it may only listen on a loopback address (:func:`check_bind`), and it refuses
what a web page could send it (a foreign ``Host`` or ``Origin``, a body not declared as
JSON: :mod:`faucet_dagster.serve.api.browser_rules`).
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
from collections.abc import AsyncIterator, Iterable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from faucet_core.catalog import Catalog
from faucet_core.errors import ConfigError
from faucet_core.lineage.receiver import LINEAGE_PATH, lineage_routes
from faucet_dagster.serve.api.auth import ENV_TOKENS, Principal, Role, TokenTable
from faucet_dagster.serve.api.browser_rules import BrowserRules, rules_for
from faucet_dagster.serve.api.guard import Endpoint, Guard, http_error_handlers, outcome_of
from faucet_dagster.serve.api.headers import ResponseHeaders

__all__ = ["check_bind", "create_lineage_app", "ingest_endpoint", "is_loopback"]


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    name = host.strip().strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def check_bind(host: str, tokens: TokenTable | None) -> None:
    """Refuse to listen on a non-loopback ``host`` without tokens."""
    if (tokens is None or len(tokens) == 0) and not is_loopback(host):
        raise ConfigError(
            f"--host {host} would let anyone on the network write lineage: without tokens "
            f"faucet lineage serve listens on loopback only (127.0.0.1, ::1). Set "
            f"{ENV_TOKENS}=name:ingest:<token> or pass --tokens FILE"
        )


def ingest_endpoint(gate: Guard, catalog: Catalog, rules: BrowserRules | None = None) -> Endpoint:
    """``POST /api/v1/lineage`` behind ``gate`` (ingest, operator or admin), each post
    audited as ``lineage.ingest`` with what the receiver accepted or refused. ``rules``
    (default: :func:`rules_for` the gate's tokens) refuse what a web page sends, first,
    audited as ``denied`` with repeats bounded."""
    (receiver,) = lineage_routes(catalog)
    browser = rules or rules_for(gate.tokens is not None)

    @gate.route(Role.OPERATOR, "lineage.ingest", ingest=True)
    async def lineage(request: Request, who: Principal) -> Response:
        response: Response = await receiver.endpoint(request)
        status = response.status_code
        try:
            body = json.loads(bytes(response.body))
        except (ValueError, AttributeError):
            body = {}
        await gate.audit(
            who,
            "lineage.ingest",
            outcome_of(status),
            status,
            LINEAGE_PATH,
            accepted=body.get("accepted"),
            error=body.get("error"),
        )
        return response

    async def checked(request: Request) -> Response:
        refused = browser.refuse(request.url.scheme, request.headers)
        if refused is not None:
            await gate.refusal(request, "lineage.ingest", refused.status_code)
            return refused
        return await lineage(request)

    return checked


def create_lineage_app(
    catalog: Catalog,
    tokens: TokenTable | None,
    *,
    host: str = "127.0.0.1",
    allowed_hosts: Iterable[str] = (),
) -> Starlette:
    """The receiver with ``GET /healthz``; ``tokens`` None or empty: no authentication, and
    only ``Host`` names of the loopback address ``host`` (plus ``allowed_hosts``)."""
    table = tokens if tokens is not None and len(tokens) else None
    gate = Guard(table, catalog.engine)
    lineage = ingest_endpoint(gate, catalog, rules_for(table is not None, host, allowed_hosts))

    async def health(_request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await gate.flush()

    app = Starlette(
        routes=[Route(LINEAGE_PATH, lineage, methods=["POST"]), Route("/healthz", health)],
        lifespan=lifespan,
        exception_handlers=http_error_handlers(),
    )
    app.add_middleware(ResponseHeaders)
    return app
