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
objects, checked for depth and number size before they are parsed
(:mod:`faucet_core.json_limits`), then validated by pydantic models with
``extra="forbid"`` and the store's column sizes: a malformed body or a wrong field is a
400 naming the field; past :data:`MAX_BODY_BYTES` a 413. A change and its audit entry
commit in one transaction. Unknown routes and methods are JSON 404 / 405; any 5xx is
audited as ``error`` (see :mod:`faucet_dagster.serve.api.guard`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from faucet_core.catalog import Catalog, Consumer, DatasetDetail
from faucet_core.errors import CatalogError, FaucetError, StoreError
from faucet_core.impact import DEFAULT_DEPTH
from faucet_core.json_limits import JsonLimitError, check_json
from faucet_core.lineage.receiver import LINEAGE_PATH
from faucet_core.store import ProfileStore
from faucet_core.store.audit import Outcome, list_audit
from faucet_core.store.schema import audit_log, catalog_consumers, catalog_datasets
from faucet_dagster.location import CodeLocation
from faucet_dagster.serve.api.actions import annotate_audited, plan_change, plan_json
from faucet_dagster.serve.api.auth import Principal, Role, TokenTable
from faucet_dagster.serve.api.fields import field_error
from faucet_dagster.serve.api.guard import (
    BadRequest,
    Endpoint,
    Guard,
    Handler,
    error,
    http_error_handlers,
)
from faucet_dagster.serve.api.headers import ResponseHeaders
from faucet_dagster.serve.api.lineage_app import ingest_endpoint
from faucet_dagster.serve.api.public import public_message
from faucet_dagster.serve.api.refs import AssetRefs

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
MAX_NAME = 1024  # an owner or a column name (stored inside JSON text, so no column size)
MAX_SELECTIONS = 100
"""Selections one ``POST /v1/plan`` may list (one change set)."""
M = TypeVar("M", bound=BaseModel)


def _width(column: Any) -> int:
    return int(column.type.length)


def _no_nul(value: str) -> str:
    if "\x00" in value:
        raise ValueError("holds a NUL character (\\u0000): remove it")
    return value


_NoNul = AfterValidator(_no_nul)
# strings as long as the store's columns hold them, and no NUL (PostgreSQL refuses it)
_Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME), _NoNul]
_ConsumerName = Annotated[
    str, Field(min_length=1, max_length=_width(catalog_consumers.c.name)), _NoNul
]
_Kind = Annotated[str, Field(max_length=_width(catalog_consumers.c.kind)), _NoNul]
_Contact = Annotated[str, Field(max_length=_width(catalog_consumers.c.contact)), _NoNul]


# -- request models ------------------------------------------------------------------------
class PlanRequest(BaseModel):
    """``POST /v1/plan``: the body of ``faucet plan --impact --select ... [--sample ...]``."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    select: _Name | list[_Name] | None = None
    asset: _Name | None = None
    sample: list[dict[str, Any]] | None = None
    impact: bool = True
    depth: int = Field(DEFAULT_DEPTH, ge=0, le=MAX_DEPTH)

    @model_validator(mode="after")
    def _one_asset(self) -> PlanRequest:
        if (self.select is None) == (self.asset is None):
            raise ValueError(
                "give exactly one of `select` (an asset key a/b, a Dagster selection such as "
                "group:crm, or a list of them) or `asset` (an asset key)"
            )
        if isinstance(self.select, list) and not 1 <= len(self.select) <= MAX_SELECTIONS:
            raise ValueError(f"`select` lists 1 to {MAX_SELECTIONS} selections")
        if not self.impact:
            raise ValueError("`impact` must be true: the impact plan is the only plan")
        return self

    @property
    def selections(self) -> list[str]:
        if isinstance(self.select, list):
            return list(self.select)
        return [self.select or self.asset or ""]

    @property
    def key(self) -> str:
        """What the audit log names: the selection(s), comma-separated."""
        return ",".join(self.selections)[: _width(audit_log.c.target)]


class ConsumerIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    name: _ConsumerName
    kind: _Kind = ""
    contact: _Contact = ""
    columns: list[_Name] = Field(default_factory=list)


class AnnotateRequest(BaseModel):
    """``POST /v1/catalog/datasets/{id}/consumers``: as ``faucet catalog annotate``."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    owners: list[_Name] | None = None
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
_error = error
_BadRequest = BadRequest
_MAX_REF = _width(catalog_datasets.c.uri)
_LIMIT = re.compile(r"[0-9]{1,5}")


def _field_error(model: type[BaseModel], exc: ValidationError) -> JSONResponse:
    field, msg = field_error(model, exc)
    return _error(400, f"{field}: {msg}", field=field)


def _bad_body(message: str) -> _BadRequest:
    return _BadRequest(_error(400, f"body: {message}", field="body"))


async def _read_json(request: Request, model: type[M]) -> M:
    declared = request.headers.get("content-length", "")
    too_large = _error(413, f"the request body exceeds {MAX_BODY_BYTES} bytes")
    if declared.isascii() and declared.isdigit() and int(declared[:20]) > MAX_BODY_BYTES:
        raise _BadRequest(too_large)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise _BadRequest(too_large)
        chunks.append(chunk)
    try:
        text = b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _bad_body(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    try:
        check_json(text)
        data = json.loads(text)
    except JsonLimitError as exc:
        raise _bad_body(str(exc)) from None
    except json.JSONDecodeError as exc:
        raise _bad_body(f"malformed JSON ({exc}); send one JSON object") from None
    if not isinstance(data, dict):
        raise _bad_body("send one JSON object")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise _BadRequest(_field_error(model, exc)) from None


def _dataset_ref(request: Request) -> str:
    """The ``{id}`` of the path: a dataset id, an id prefix or a dataset URI."""
    ref = str(request.path_params["id"])
    if len(ref) > _MAX_REF or "\x00" in ref:
        shown = repr(ref) if len(ref) <= 40 else repr(ref[:40]) + "..."
        rule = f"is longer than {_MAX_REF} characters" if len(ref) > _MAX_REF else "holds a NUL"
        raise _BadRequest(_error(400, f"id: {shown} {rule}: give a dataset id or URI", field="id"))
    return ref


@dataclass(frozen=True)
class _Server:
    location: CodeLocation
    store: ProfileStore
    catalog: Catalog
    tokens: TokenTable
    gate: Guard
    refs: AssetRefs

    def guard(
        self, required: Role, action: str, *, ingest: bool = False, audited: bool = True
    ) -> Callable[[Handler], Endpoint]:
        """Authorize, audit, turn bad input into its response (:meth:`Guard.route`)."""
        return self.gate.route(required, action, ingest=ingest, audited=audited)

    async def audit(
        self,
        principal: Principal,
        action: str,
        outcome: Outcome,
        status: int,
        target: str = "",
        **detail: Any,
    ) -> None:
        await self.gate.audit(principal, action, outcome, status, target, **detail)

    def public(self, exc: Exception) -> str:
        """``exc``'s message without the store's location (:func:`public_message`)."""
        return public_message(exc, self.store.engine)


# -- the app -------------------------------------------------------------------------------
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
    from faucet_dagster.serve import console
    from faucet_dagster.serve.console.render import SECURITY_HEADERS

    store = ProfileStore(store_url or location.store_url())
    engine = store.engine
    server = _Server(
        location, store, Catalog(engine), tokens, Guard(tokens, engine), AssetRefs(location.defs)
    )
    catalog = server.catalog

    @server.guard(Role.VIEWER, "plan")
    async def plan(request: Request, who: Principal) -> Response:
        body = await _read_json(request, PlanRequest)
        started = time.perf_counter()
        try:
            report = await run_in_threadpool(_plan, server, body)
        except StoreError as exc:
            await server.audit(who, "plan", Outcome.ERROR, 503, body.key, error=str(exc))
            return _error(503, server.public(exc))
        except FaucetError as exc:
            raise _BadRequest(_error(400, server.public(exc), field="select")) from None
        await server.audit(
            who,
            "plan",
            Outcome.OK,
            200,
            body.key,
            severity=(report.get("impact") or report.get("change") or {}).get("severity"),
            depth=body.depth,
            sample_rows=None if body.sample is None else len(body.sample),
            ms=round((time.perf_counter() - started) * 1000, 1),
        )
        return JSONResponse(report)

    @server.guard(Role.VIEWER, "catalog.datasets", audited=False)
    async def datasets(_request: Request, _who: Principal) -> Response:
        try:
            found = await run_in_threadpool(catalog.datasets)
        except StoreError as exc:
            return _error(503, server.public(exc))
        return JSONResponse({"datasets": [e.to_dict() for e in found]})

    @server.guard(Role.VIEWER, "catalog.show", audited=False)
    async def dataset(request: Request, _who: Principal) -> Response:
        ref = _dataset_ref(request)
        try:
            detail = await run_in_threadpool(lambda: catalog.detail(_known_ref(server, ref)))
        except StoreError as exc:
            return _error(503, server.public(exc))
        except CatalogError as exc:
            return _error(404, server.public(exc))
        return Response(json.dumps(detail.to_dict(), default=str), media_type="application/json")

    @server.guard(Role.OPERATOR, "catalog.annotate")
    async def consumers(request: Request, who: Principal) -> Response:
        ref = _dataset_ref(request)
        body = await _read_json(request, AnnotateRequest)
        try:
            detail = await run_in_threadpool(_annotate, server, ref, body, who)
        except StoreError as exc:
            await server.audit(who, "catalog.annotate", Outcome.ERROR, 503, ref, error=str(exc))
            return _error(503, server.public(exc))
        except CatalogError as exc:
            raise _BadRequest(_error(404, server.public(exc))) from None
        return Response(json.dumps(detail.to_dict(), default=str), media_type="application/json")

    lineage = ingest_endpoint(server.gate, catalog)

    @server.guard(Role.ADMIN, "audit.list", audited=False)
    async def audit(request: Request, _who: Principal) -> Response:
        raw = request.query_params.get("limit", "100")
        if _LIMIT.fullmatch(raw) is None or not 1 <= int(raw) <= 10_000:
            shown = raw if len(raw) <= 20 else raw[:20] + "..."
            return _error(400, f"limit: {shown!r} is not a number from 1 to 10000", field="limit")
        found: dict[str, str | None] = {}
        for name, column in (("action", audit_log.c.action), ("actor", audit_log.c.actor)):
            value = found[name] = request.query_params.get(name)
            if value is not None and (len(value) > _width(column) or "\x00" in value):
                too_long = len(value) > _width(column)
                rule = f"is longer than {_width(column)} characters" if too_long else "holds a NUL"
                shown = repr(value) if len(value) <= 40 else repr(value[:40]) + "..."
                return _error(400, f"{name}: {shown} {rule}", field=name)
        try:
            entries = await run_in_threadpool(
                list_audit,
                catalog.engine,
                limit=int(raw),
                action=found["action"],
                actor=found["actor"],
            )
        except StoreError as exc:
            return _error(503, server.public(exc))
        return JSONResponse({"entries": [e.to_dict() for e in entries]})

    @server.guard(Role.VIEWER, "metrics", audited=False)
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
        Route("/v1/catalog/datasets/{id:path}/consumers", consumers, methods=["POST"]),
        Route("/v1/catalog/datasets/{id:path}", dataset, methods=["GET"]),
        Route(LINEAGE_PATH, lineage, methods=["POST"]),
        Route("/v1/audit", audit, methods=["GET"]),
        Route("/metrics", metrics, methods=["GET"]),
        Route("/healthz", health, methods=["GET"]),
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


def _plan(server: _Server, body: PlanRequest) -> dict[str, Any]:
    """The same JSON as ``faucet plan --impact --json`` (:func:`plan_json`)."""
    with tempfile.TemporaryDirectory(prefix="faucet-plan-") as folder:
        path = None
        if body.sample is not None:
            path = Path(folder) / "sample.jsonl"
            with path.open("w") as out:
                for record in body.sample:
                    out.write(json.dumps(record) + "\n")
        change = plan_change(
            server.location, server.catalog, body.selections, sample=path, depth=body.depth
        )
    return plan_json(change)


def _known_ref(server: _Server, ref: str) -> str:
    """``ref``, or for ``dagster://<key>`` of an asset whose dataset has another URI, that
    URI (:class:`AssetRefs`). Raises :class:`CatalogError` when neither is in the catalog."""
    try:
        server.catalog.resolve(ref)
        return ref
    except CatalogError:
        alias = server.refs.dataset_of(ref)
        if alias is None:
            raise
    try:
        server.catalog.resolve(alias)
    except CatalogError:
        raise CatalogError(
            f"no dataset {ref!r} in the catalog: that asset writes the dataset {alias!r}, "
            "which the catalog does not hold yet; `faucet catalog sync` records the code "
            "location's assets"
        ) from None
    return alias


def _annotate(server: _Server, ref: str, body: AnnotateRequest, who: Principal) -> DatasetDetail:
    """Annotate and audit in one transaction: both are written or neither."""
    consumers = [Consumer(c.name, c.kind, c.contact, tuple(c.columns)) for c in body.consumers]
    return annotate_audited(
        server.catalog,
        _known_ref(server, ref),
        who,
        owners=body.owners,
        consumers=consumers,
        replace=body.replace,
    )


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
