"""The routes of ``faucet serve``'s API (see :mod:`faucet_dagster.serve.app` for the table
of routes, roles and audit actions)."""

from __future__ import annotations

import json
import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from faucet_core.catalog import Catalog, Consumer, DatasetDetail
from faucet_core.db.schema import audit_log
from faucet_core.errors import CatalogError, FaucetError, StoreError
from faucet_core.lineage.receiver import LINEAGE_PATH
from faucet_core.store import ProfileStore
from faucet_core.store.audit import Outcome, list_audit
from faucet_dagster.location import CodeLocation
from faucet_dagster.serve.api.actions import annotate_audited, plan_change, plan_json
from faucet_dagster.serve.api.auth import Principal, Role, TokenTable
from faucet_dagster.serve.api.guard import BadRequest, Endpoint, Guard, Handler, error
from faucet_dagster.serve.api.lineage_app import ingest_endpoint
from faucet_dagster.serve.api.public import public_message
from faucet_dagster.serve.api.refs import AssetRefs
from faucet_dagster.serve.api.requests import (
    AnnotateRequest,
    PlanRequest,
    dataset_ref,
    read_json,
    width,
)

__all__ = ["ApiServer", "api_routes"]

_LIMIT = re.compile(r"[0-9]{1,5}")


@dataclass(frozen=True)
class ApiServer:
    """What the API's handlers share: the code location, the store and its catalog, the
    tokens, the guard (authorization and audit) and the asset aliases."""

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


def api_routes(server: ApiServer) -> list[Route]:
    """The API's routes over ``server`` (the console is mounted beside them)."""
    catalog, store, location = server.catalog, server.store, server.location

    @server.guard(Role.VIEWER, "plan")
    async def plan(request: Request, who: Principal) -> Response:
        body = await read_json(request, PlanRequest)
        started = time.perf_counter()
        try:
            report = await run_in_threadpool(_plan, server, body)
        except StoreError as exc:
            await server.audit(who, "plan", Outcome.ERROR, 503, body.key, error=str(exc))
            return error(503, server.public(exc))
        except FaucetError as exc:
            raise BadRequest(error(400, server.public(exc), field="select")) from None
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
            return error(503, server.public(exc))
        return JSONResponse({"datasets": [e.to_dict() for e in found]})

    @server.guard(Role.VIEWER, "catalog.show", audited=False)
    async def dataset(request: Request, _who: Principal) -> Response:
        ref = dataset_ref(request)
        try:
            detail = await run_in_threadpool(lambda: catalog.detail(_known_ref(server, ref)))
        except StoreError as exc:
            return error(503, server.public(exc))
        except CatalogError as exc:
            return error(404, server.public(exc))
        return Response(json.dumps(detail.to_dict(), default=str), media_type="application/json")

    @server.guard(Role.OPERATOR, "catalog.annotate")
    async def consumers(request: Request, who: Principal) -> Response:
        ref = dataset_ref(request)
        body = await read_json(request, AnnotateRequest)
        try:
            detail = await run_in_threadpool(_annotate, server, ref, body, who)
        except StoreError as exc:
            await server.audit(who, "catalog.annotate", Outcome.ERROR, 503, ref, error=str(exc))
            return error(503, server.public(exc))
        except CatalogError as exc:
            raise BadRequest(error(404, server.public(exc))) from None
        return Response(json.dumps(detail.to_dict(), default=str), media_type="application/json")

    lineage = ingest_endpoint(server.gate, catalog)

    @server.guard(Role.ADMIN, "audit.list", audited=False)
    async def audit(request: Request, _who: Principal) -> Response:
        raw = request.query_params.get("limit", "100")
        if _LIMIT.fullmatch(raw) is None or not 1 <= int(raw) <= 10_000:
            shown = raw if len(raw) <= 20 else raw[:20] + "..."
            return error(400, f"limit: {shown!r} is not a number from 1 to 10000", field="limit")
        found: dict[str, str | None] = {}
        for name, column in (("action", audit_log.c.action), ("actor", audit_log.c.actor)):
            value = found[name] = request.query_params.get(name)
            if value is not None and (len(value) > width(column) or "\x00" in value):
                too_long = len(value) > width(column)
                rule = f"is longer than {width(column)} characters" if too_long else "holds a NUL"
                shown = repr(value) if len(value) <= 40 else repr(value[:40]) + "..."
                return error(400, f"{name}: {shown} {rule}", field=name)
        try:
            entries = await run_in_threadpool(
                list_audit,
                catalog.engine,
                limit=int(raw),
                action=found["action"],
                actor=found["actor"],
            )
        except StoreError as exc:
            return error(503, server.public(exc))
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

    return [
        Route("/v1/plan", plan, methods=["POST"]),
        Route("/v1/catalog/datasets", datasets, methods=["GET"]),
        Route("/v1/catalog/datasets/{id:path}/consumers", consumers, methods=["POST"]),
        Route("/v1/catalog/datasets/{id:path}", dataset, methods=["GET"]),
        Route(LINEAGE_PATH, lineage, methods=["POST"]),
        Route("/v1/audit", audit, methods=["GET"]),
        Route("/metrics", metrics, methods=["GET"]),
        Route("/healthz", health, methods=["GET"]),
    ]


def _plan(server: ApiServer, body: PlanRequest) -> dict[str, Any]:
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


def _known_ref(server: ApiServer, ref: str) -> str:
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


def _annotate(server: ApiServer, ref: str, body: AnnotateRequest, who: Principal) -> DatasetDetail:
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
