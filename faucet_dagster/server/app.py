"""The ``faucet serve`` Starlette app.

=========================================  ==================  ==============================
route                                      role                audited as
=========================================  ==================  ==============================
``POST /v1/plan``                          viewer              ``plan``
``GET  /v1/catalog/datasets``              viewer              -
``GET  /v1/catalog/datasets/{id}``         viewer              -
``POST /v1/catalog/datasets/{id}/consumers``  operator         ``catalog.annotate``
``POST /api/v1/lineage``                   operator or ingest  ``lineage.ingest``
``GET  /v1/audit``                         admin               -
``GET  /metrics``                          viewer              -
``GET  /healthz``                          none                -
=========================================  ==================  ==============================

401 without a valid bearer token, 403 below the role (audited as ``denied`` on audited
routes). Bodies are JSON objects validated by pydantic models with ``extra="forbid"``: a
malformed body or a wrong field is a 400 naming the field; past :data:`MAX_BODY_BYTES`
a 413. A change and its audit entry commit in one transaction.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from faucet_core.catalog import Catalog, Consumer, DatasetDetail
from faucet_core.errors import CatalogError, FaucetError, StoreError
from faucet_core.impact import DEFAULT_DEPTH
from faucet_core.lineage.receiver import LINEAGE_PATH, lineage_routes
from faucet_core.store import ProfileStore
from faucet_core.store.audit import Outcome, list_audit, record_audit, write_audit
from faucet_dagster.location import CodeLocation
from faucet_dagster.server.auth import Principal, Role, TokenTable

__all__ = [
    "ENV_SERVE",
    "MAX_BODY_BYTES",
    "MAX_DEPTH",
    "AnnotateRequest",
    "PlanRequest",
    "app_from_env",
    "create_app",
]

MAX_BODY_BYTES = 1024 * 1024
MAX_DEPTH = 50
_ANONYMOUS = Principal("-", Role.INGEST)  # the actor of a request without a valid token

Handler = Callable[[Request, Principal], Awaitable[Response]]
Endpoint = Callable[[Request], Awaitable[Response]]
M = TypeVar("M", bound=BaseModel)


# -- request models ------------------------------------------------------------------------
class PlanRequest(BaseModel):
    """``POST /v1/plan``: the body of ``faucet plan --impact --select ... [--sample ...]``."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    select: str | None = Field(None, min_length=1)
    asset: str | None = Field(None, min_length=1)
    sample: list[dict[str, Any]] | None = None
    impact: bool = True
    depth: int = Field(DEFAULT_DEPTH, ge=0, le=MAX_DEPTH)

    @model_validator(mode="after")
    def _one_asset(self) -> PlanRequest:
        if (self.select is None) == (self.asset is None):
            raise ValueError("give exactly one of `select` or `asset` (an asset key, a/b)")
        if not self.impact:
            raise ValueError("`impact` must be true: the impact plan is the only plan")
        return self

    @property
    def key(self) -> str:
        return self.select or self.asset or ""


class ConsumerIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    name: str = Field(min_length=1, max_length=256)
    kind: str = ""
    contact: str = ""
    columns: list[str] = Field(default_factory=list)


class AnnotateRequest(BaseModel):
    """``POST /v1/catalog/datasets/{id}/consumers``: as ``faucet catalog annotate``."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    owners: list[str] | None = None
    consumers: list[ConsumerIn] = Field(default_factory=list)
    replace: bool = False

    @model_validator(mode="after")
    def _something(self) -> AnnotateRequest:
        if self.owners is None and not self.consumers and not self.replace:
            raise ValueError("nothing to annotate: give `owners`, `consumers` or `replace`")
        names = [c.name for c in self.consumers]
        if len(set(names)) != len(names):
            raise ValueError("`consumers` names a consumer twice: names are unique")
        return self


# -- helpers -------------------------------------------------------------------------------
def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


class _BadRequest(Exception):
    def __init__(self, response: JSONResponse) -> None:
        self.response = response


def _field_error(exc: ValidationError) -> JSONResponse:
    first = exc.errors()[0]
    loc = ".".join(str(p) for p in first["loc"])
    msg = first["msg"].removeprefix("Value error, ")
    if first["type"] == "extra_forbidden":
        msg = "unknown field"
    field = loc or "body"
    return _error(400, f"{field}: {msg}", field=field)


async def _read_json(request: Request, model: type[M]) -> M:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise _BadRequest(_error(413, f"the request body exceeds {MAX_BODY_BYTES} bytes"))
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise _BadRequest(_error(413, f"the request body exceeds {MAX_BODY_BYTES} bytes"))
        chunks.append(chunk)
    try:
        data = json.loads(b"".join(chunks))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _BadRequest(
            _error(400, f"body: malformed JSON ({exc}); send one JSON object", field="body")
        ) from None
    if not isinstance(data, dict):
        raise _BadRequest(_error(400, "body: send one JSON object", field="body"))
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise _BadRequest(_field_error(exc)) from None


@dataclass(frozen=True)
class _Server:
    location: CodeLocation
    store: ProfileStore
    catalog: Catalog
    tokens: TokenTable

    def authorize(
        self, request: Request, required: Role, *, ingest: bool = False
    ) -> Principal | JSONResponse:
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        principal = self.tokens.lookup(token.strip()) if scheme.lower() == "bearer" else None
        if principal is None:
            return JSONResponse(
                {"error": "a valid bearer token is required: Authorization: Bearer <token>"},
                status_code=401,
                headers={"WWW-Authenticate": 'Bearer realm="faucet"'},
            )
        if principal.role.allows(required) or (ingest and principal.role is Role.INGEST):
            return principal
        needed = f"{required.value} or ingest" if ingest else required.value
        return _error(
            403,
            f"{principal.name} ({principal.role.value}) may not {request.method} "
            f"{request.url.path}: it needs {needed} or above",
        )

    async def audit(
        self,
        principal: Principal,
        action: str,
        outcome: Outcome,
        status: int,
        target: str = "",
        **detail: Any,
    ) -> None:
        await run_in_threadpool(
            write_audit,
            self.catalog.engine,
            actor=principal.name,
            role=principal.role.value if principal is not _ANONYMOUS else "-",
            action=action,
            outcome=outcome,
            status=status,
            target=target,
            detail=detail,
        )

    def guard(
        self, required: Role, action: str | None = None, *, ingest: bool = False
    ) -> Callable[[Handler], Endpoint]:
        """Wrap a handler: authorize, audit a denial, turn bad input into its response."""

        def wrap(handler: Handler) -> Endpoint:
            async def endpoint(request: Request) -> Response:
                found = self.authorize(request, required, ingest=ingest)
                if isinstance(found, JSONResponse):
                    if action is not None:
                        who = _ANONYMOUS if found.status_code == 401 else None
                        if who is None:
                            header = request.headers.get("authorization", "")
                            who = self.tokens.lookup(header.partition(" ")[2].strip())
                        await self.audit(
                            who or _ANONYMOUS,
                            action,
                            Outcome.DENIED,
                            found.status_code,
                            request.url.path,
                        )
                    return found
                try:
                    return await handler(request, found)
                except _BadRequest as bad:
                    if action is not None:
                        await self.audit(
                            found,
                            action,
                            Outcome.REJECTED,
                            bad.response.status_code,
                            request.url.path,
                            error=json.loads(bytes(bad.response.body)).get("error", ""),
                        )
                    return bad.response

            return endpoint

        return wrap


# -- the app -------------------------------------------------------------------------------
def create_app(
    location: CodeLocation,
    tokens: TokenTable,
    store_url: str | None = None,
) -> Starlette:
    """The API over ``location`` and the store at ``store_url`` (default: the location's
    FaucetResource store, else ``FAUCET_STORE_URL``, else the default SQLite file)."""
    store = ProfileStore(store_url or location.store_url())
    server = _Server(location, store, Catalog(store.engine), tokens)
    catalog = server.catalog

    @server.guard(Role.VIEWER, "plan")
    async def plan(request: Request, who: Principal) -> Response:
        body = await _read_json(request, PlanRequest)
        started = time.perf_counter()
        try:
            report = await run_in_threadpool(_plan, server, body)
        except StoreError as exc:
            await server.audit(who, "plan", Outcome.ERROR, 503, body.key, error=str(exc))
            return _error(503, str(exc))
        except FaucetError as exc:
            raise _BadRequest(_error(400, str(exc), field="select")) from None
        await server.audit(
            who,
            "plan",
            Outcome.OK,
            200,
            body.key,
            severity=report.get("impact", {}).get("severity"),
            depth=body.depth,
            sample_rows=None if body.sample is None else len(body.sample),
            ms=round((time.perf_counter() - started) * 1000, 1),
        )
        return JSONResponse(report)

    @server.guard(Role.VIEWER)
    async def datasets(_request: Request, _who: Principal) -> Response:
        try:
            found = await run_in_threadpool(catalog.datasets)
        except StoreError as exc:
            return _error(503, str(exc))
        return JSONResponse({"datasets": [e.to_dict() for e in found]})

    @server.guard(Role.VIEWER)
    async def dataset(request: Request, _who: Principal) -> Response:
        ref = request.path_params["id"]
        try:
            detail = await run_in_threadpool(catalog.detail, ref)
        except StoreError as exc:
            return _error(503, str(exc))
        except CatalogError as exc:
            return _error(404, str(exc))
        return Response(json.dumps(detail.to_dict(), default=str), media_type="application/json")

    @server.guard(Role.OPERATOR, "catalog.annotate")
    async def consumers(request: Request, who: Principal) -> Response:
        ref = request.path_params["id"]
        body = await _read_json(request, AnnotateRequest)
        try:
            detail = await run_in_threadpool(_annotate, server, ref, body, who)
        except StoreError as exc:
            await server.audit(who, "catalog.annotate", Outcome.ERROR, 503, ref, error=str(exc))
            return _error(503, str(exc))
        except CatalogError as exc:
            raise _BadRequest(_error(404, str(exc))) from None
        return Response(json.dumps(detail.to_dict(), default=str), media_type="application/json")

    (receiver,) = lineage_routes(catalog)

    @server.guard(Role.OPERATOR, "lineage.ingest", ingest=True)
    async def lineage(request: Request, who: Principal) -> Response:
        response: Response = await receiver.endpoint(request)
        status = response.status_code
        try:
            outcome_body = json.loads(bytes(response.body))
        except (ValueError, AttributeError):
            outcome_body = {}
        outcome = Outcome.OK if status < 400 else Outcome.ERROR if status >= 500 else None
        await server.audit(
            who,
            "lineage.ingest",
            outcome or Outcome.REJECTED,
            status,
            LINEAGE_PATH,
            accepted=outcome_body.get("accepted"),
            error=outcome_body.get("error"),
        )
        return response

    @server.guard(Role.ADMIN)
    async def audit(request: Request, _who: Principal) -> Response:
        raw = request.query_params.get("limit", "100")
        if not raw.isdigit() or not 1 <= int(raw) <= 10_000:
            return _error(400, f"limit: {raw!r} is not a number from 1 to 10000", field="limit")
        entries = await run_in_threadpool(
            list_audit,
            catalog.engine,
            limit=int(raw),
            action=request.query_params.get("action"),
            actor=request.query_params.get("actor"),
        )
        return JSONResponse({"entries": [e.to_dict() for e in entries]})

    @server.guard(Role.VIEWER)
    async def metrics(_request: Request, _who: Principal) -> Response:
        from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

        from faucet_core.store.metrics import StoreCollector

        registry = CollectorRegistry()
        registry.register(StoreCollector(store))
        text = await run_in_threadpool(generate_latest, registry)
        return Response(text, media_type=CONTENT_TYPE_LATEST)

    async def health(_request: Request) -> Response:
        return JSONResponse({"status": "ok", "location": location.name})

    routes = [
        Route("/v1/plan", plan, methods=["POST"]),
        Route("/v1/catalog/datasets", datasets, methods=["GET"]),
        Route("/v1/catalog/datasets/{id}", dataset, methods=["GET"]),
        Route("/v1/catalog/datasets/{id}/consumers", consumers, methods=["POST"]),
        Route(LINEAGE_PATH, lineage, methods=["POST"]),
        Route("/v1/audit", audit, methods=["GET"]),
        Route("/metrics", metrics, methods=["GET"]),
        Route("/healthz", health, methods=["GET"]),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            catalog.close()
            store.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.store = store
    app.state.catalog = catalog
    return app


def _plan(server: _Server, body: PlanRequest) -> dict[str, Any]:
    from faucet_dagster.plan import plan_asset_impact

    defs = server.location.defs
    if body.sample is None:
        report = plan_asset_impact(server.catalog, defs, body.key, depth=body.depth)
        return report.to_dict()
    with tempfile.TemporaryDirectory(prefix="faucet-plan-") as folder:
        path = Path(folder) / "sample.jsonl"
        with path.open("w") as out:
            for record in body.sample:
                out.write(json.dumps(record) + "\n")
        report = plan_asset_impact(server.catalog, defs, body.key, sample=path, depth=body.depth)
        return report.to_dict()


def _annotate(server: _Server, ref: str, body: AnnotateRequest, who: Principal) -> DatasetDetail:
    """Annotate and audit in one transaction: both are written or neither."""
    catalog = server.catalog
    consumers = [Consumer(c.name, c.kind, c.contact, tuple(c.columns)) for c in body.consumers]
    with catalog._write("annotate a dataset in") as conn:
        key = catalog._resolve(conn, ref)
        catalog._annotate(conn, key, body.owners, consumers, body.replace)
        record_audit(
            conn,
            actor=who.name,
            role=who.role.value,
            action="catalog.annotate",
            outcome=Outcome.OK,
            status=200,
            target=key,
            detail={
                "owners": body.owners,
                "consumers": [c.name for c in body.consumers],
                "replace": body.replace,
            },
        )
    return catalog.detail(key)


ENV_SERVE = "FAUCET_SERVE_LOCATION"
"""For ``faucet serve --workers N``: each uvicorn worker builds its app from the
environment (``-m``/``-f`` target, store URL, tokens file) with :func:`app_from_env`."""


def app_from_env() -> Starlette:
    """The app described by ``$FAUCET_SERVE_LOCATION`` (JSON: module, file, store, tokens)."""
    import os

    from faucet_dagster.location import load_code_location
    from faucet_dagster.server.auth import load_tokens

    spec = json.loads(os.environ[ENV_SERVE])
    location = load_code_location(spec.get("module"), spec.get("file"))
    return create_app(location, load_tokens(spec.get("tokens")), spec.get("store"))
