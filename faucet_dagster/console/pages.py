"""The console's routes under ``/ui``: sign-in, datasets, a dataset (with its owner and
consumer forms), impact, audit.

============================================  ========  ==================================
route                                         role      writes
============================================  ========  ==================================
``GET/POST /ui/signin``, ``POST /ui/signout``  -         audited ``ui.signin`` (ok/denied)
``GET /ui/datasets[?q=]``                     viewer    -
``GET /ui/datasets/{id}``                     viewer    -
``POST /ui/datasets/{id}/owners``             operator  ``catalog.annotate`` (the API's)
``POST /ui/datasets/{id}/consumers``          operator  ``catalog.annotate`` (the API's)
``GET/POST /ui/impact``                       viewer    audited ``plan`` (the API's)
``GET /ui/audit[?before=]``                   admin     -
============================================  ========  ==================================

Without a session a page redirects to ``/ui/signin?next=<the page>``. Every POST needs
the session's CSRF token and an ``Origin`` of this server; a refusal is an HTML 403
audited as ``denied`` (repeats bounded as the API's). Every error is an HTML page.
"""

from __future__ import annotations

import functools
import logging
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from faucet_core.catalog import Catalog, Consumer
from faucet_core.errors import CatalogError, FaucetError, StoreError
from faucet_core.impact import DEFAULT_DEPTH, render_markdown
from faucet_core.store.audit import Outcome, list_audit
from faucet_core.store.schema import audit_log, catalog_consumers, catalog_datasets
from faucet_dagster.console.assets import AssetIndex
from faucet_dagster.console.forms import Form, FormError, read_form
from faucet_dagster.console.render import error_page, page, redirect
from faucet_dagster.console.session import (
    COOKIE,
    SIGNIN_COOKIE,
    SIGNIN_SECONDS,
    Session,
    Sessions,
    safe_next,
    same_origin,
)
from faucet_dagster.console.views import (
    column_views,
    dataset_rows,
    edge_views,
    kind_of,
    matches,
    ts,
)
from faucet_dagster.location import CodeLocation
from faucet_dagster.server.actions import annotate_audited, plan_change, plan_json
from faucet_dagster.server.auth import Principal, Role
from faucet_dagster.server.guard import Guard, target_of

__all__ = ["AUDIT_PAGE", "ConsoleContext", "console_routes"]

AUDIT_PAGE = 50
"""Audit entries per page."""
SAMPLE_SUFFIXES = (".jsonl", ".ndjson", ".json", ".csv", ".parquet", ".arrow", ".feather")
MAX_QUERY = 200
MAX_NAME = 1024

_log = logging.getLogger("faucet.serve")


def _width(column: Any) -> int:
    return int(column.type.length)


class PageError(Exception):
    """Answer with an HTML error page (and, on a form post, audit it as rejected)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class ConsoleContext:
    """What the console reads and writes: the ``faucet serve`` app's own objects."""

    location: CodeLocation
    catalog: Catalog
    gate: Guard
    sessions: Sessions
    dagster_url: str | None
    max_body: int
    max_depth: int = 50


@dataclass(frozen=True)
class Visit:
    """One signed-in request: who, the CSRF token of its forms, the form it posted."""

    session: Session
    csrf: str
    form: Form | None

    @property
    def who(self) -> Principal:
        return self.session.principal

    def context(self) -> dict[str, Any]:
        return {"who": self.who, "csrf": self.csrf, "is_admin": self.who.role is Role.ADMIN}


PageHandler = Callable[[Request, Visit], Awaitable[Response]]


def _cookie_flags(request: Request) -> dict[str, Any]:
    return {
        "path": "/ui",
        "httponly": True,
        "samesite": "strict",
        "secure": request.url.scheme == "https",
    }


def _here(request: Request) -> str:
    path = request.url.path
    return path + (f"?{request.url.query}" if request.url.query else "")


def _checked(value: str, name: str, width: int, *, required: bool = True) -> str:
    """A form field stripped, held to ``width`` characters and no NUL."""
    value = value.strip()
    if required and not value:
        raise PageError(400, f"{name}: empty: fill it in")
    if len(value) > width:
        raise PageError(400, f"{name}: longer than {width:,} characters: shorten it")
    if "\x00" in value:
        raise PageError(400, f"{name}: holds a NUL character: remove it")
    return value


def console_routes(ctx: ConsoleContext) -> list[BaseRoute]:
    """The routes to mount at ``/ui``."""
    sessions = ctx.sessions
    catalog = ctx.catalog

    @functools.lru_cache(maxsize=1)
    def assets() -> AssetIndex:
        return AssetIndex.of(ctx.location.defs)

    async def refuse(request: Request, who: Principal, action: str, message: str) -> Response:
        await ctx.gate.refusal(request, action, 403, who)
        return error_page(403, message, who=who)

    def route(required: Role, action: str = "ui") -> Callable[[PageHandler], Any]:
        """Session, then (on POST) Origin, form and CSRF token, then role; errors as pages."""

        def wrap(handler: PageHandler) -> Callable[[Request], Awaitable[Response]]:
            async def endpoint(request: Request) -> Response:
                session = sessions.check(request.cookies.get(COOKIE))
                if session is None:
                    if request.method != "GET":
                        return error_page(401, "your session has ended: sign in again")
                    return redirect("/ui/signin?next=" + quote(_here(request), safe=""))
                who = session.principal
                form = None
                if request.method == "POST":
                    host = request.headers.get("host", "")
                    if not same_origin(request.headers, request.url.scheme, host):
                        return await refuse(
                            request,
                            who,
                            action,
                            "this form was not sent from this server's own page (Origin "
                            "header missing or foreign): open the page here and send it again",
                        )
                    try:
                        form = await read_form(request, ctx.max_body)
                    except FormError as exc:
                        return error_page(exc.status, exc.message, who=who)
                    if not sessions.csrf_ok(session, form.get("csrf") or None):
                        return await refuse(
                            request,
                            who,
                            action,
                            "the form's CSRF token is missing or wrong (an old or forged "
                            "form): reload the page and send it again",
                        )
                if not who.role.allows(required):
                    message = (
                        f"{who.name} ({who.role.value}) may not {request.method} "
                        f"{request.url.path}: it needs {required.value} or above"
                    )
                    if request.method == "POST":
                        return await refuse(request, who, action, message)
                    return error_page(403, message, who=who)
                visit = Visit(session, sessions.csrf(session), form)
                try:
                    return await handler(request, visit)
                except PageError as exc:
                    if request.method == "POST":
                        await ctx.gate.audit(
                            who,
                            action,
                            Outcome.REJECTED,
                            exc.status,
                            target_of(request),
                            error=exc.message,
                        )
                    return error_page(exc.status, exc.message, **visit.context())
                except StoreError as exc:
                    await ctx.gate.audit(
                        who, action, Outcome.ERROR, 503, target_of(request), error=str(exc)
                    )
                    return error_page(503, str(exc), **visit.context())
                except Exception as exc:  # the last line: log, audit, a page without traceback
                    _log.exception("%s %s failed", request.method, request.url.path)
                    name = type(exc).__name__
                    await ctx.gate.audit(
                        who, action, Outcome.ERROR, 500, target_of(request), error=name
                    )
                    return error_page(
                        500, "internal error: the server log has the details", **visit.context()
                    )

            return endpoint

        return wrap

    # -- sign-in / sign-out ----------------------------------------------------------------
    def signin_form(request: Request, status: int = 200, message: str = "") -> Response:
        nonce = sessions.signin_nonce()
        response = page(
            "signin.html",
            status,
            csrf=sessions.signin_csrf(nonce),
            next=safe_next(request.query_params.get("next")),
            message=message,
        )
        response.set_cookie(SIGNIN_COOKIE, nonce, max_age=SIGNIN_SECONDS, **_cookie_flags(request))
        return response

    async def signin(request: Request) -> Response:
        if request.method == "GET":
            if sessions.check(request.cookies.get(COOKIE)) is not None:
                return redirect(safe_next(request.query_params.get("next")))
            return signin_form(request)
        if not same_origin(request.headers, request.url.scheme, request.headers.get("host", "")):
            await ctx.gate.refusal(request, "ui.signin", 403)
            return error_page(403, "the sign-in form was not sent from this server's own page")
        try:
            form = await read_form(request, ctx.max_body)
        except FormError as exc:
            return error_page(exc.status, exc.message)
        if not sessions.signin_ok(request.cookies.get(SIGNIN_COOKIE), form.get("csrf") or None):
            await ctx.gate.refusal(request, "ui.signin", 403)
            return signin_form(
                request, 403, "the sign-in form had expired or was forged: sign in again"
            )
        found = sessions.sign_in(form.get("token").strip())
        if found is None:
            await ctx.gate.refusal(request, "ui.signin", 401)
            return signin_form(
                request,
                401,
                "that token is not valid for the console (unknown, or an ingest token): "
                "paste a viewer, operator or admin token",
            )
        principal, value = found
        await ctx.gate.audit(principal, "ui.signin", Outcome.OK, 303, "/ui/signin")
        response = redirect(safe_next(form.get("next")))
        flags = _cookie_flags(request)
        response.set_cookie(COOKIE, value, max_age=sessions.lifetime, **flags)
        response.delete_cookie(SIGNIN_COOKIE, path="/ui", samesite="strict", httponly=True)
        return response

    @route(Role.VIEWER, "ui.signout")
    async def signout(request: Request, _visit: Visit) -> Response:
        response = redirect("/ui/signin")
        secure = request.url.scheme == "https"
        response.delete_cookie(COOKIE, path="/ui", samesite="strict", httponly=True, secure=secure)
        return response

    # -- datasets ------------------------------------------------------------------------
    @route(Role.VIEWER)
    async def datasets(request: Request, visit: Visit) -> Response:
        query = request.query_params.get("q", "")
        if len(query) > MAX_QUERY or "\x00" in query:
            raise PageError(400, f"q: longer than {MAX_QUERY} characters or holds a NUL")
        entries = await run_in_threadpool(catalog.datasets)
        drifts = await run_in_threadpool(catalog.last_drift)
        index = await run_in_threadpool(assets)
        rows = dataset_rows(entries, drifts, index.by_dataset)
        shown = [r for r in rows if matches(r, query)] if query.strip() else rows
        return page("datasets.html", rows=shown, total=len(rows), q=query, **visit.context())

    def dataset_ref(request: Request) -> str:
        ref = str(request.path_params["id"])
        limit = _width(catalog_datasets.c.uri)
        if len(ref) > limit or "\x00" in ref:
            raise PageError(400, f"dataset id: longer than {limit:,} characters or holds a NUL")
        return ref

    @route(Role.VIEWER)
    async def dataset(request: Request, visit: Visit) -> Response:
        ref = dataset_ref(request)
        try:
            detail = await run_in_threadpool(catalog.detail, ref)
        except CatalogError as exc:
            raise PageError(404, str(exc)) from None
        index = await run_in_threadpool(assets)
        d = detail.dataset
        return page(
            "dataset.html",
            d=d,
            detail=detail,
            columns=column_views(detail),
            upstream=edge_views(detail.upstream, upstream=True),
            downstream=edge_views(detail.downstream, upstream=False),
            kind=kind_of(d, d.id in index.by_dataset),
            latest=detail.latest_profile,
            history=len(detail.profiles),
            dagster_link=index.link(ctx.dagster_url, d.id),
            asset_key=index.key_of(d.id),
            can_edit=visit.who.role.allows(Role.OPERATOR),
            ts=ts,
            **visit.context(),
        )

    async def annotate(request: Request, visit: Visit, **change: Any) -> Response:
        ref = dataset_ref(request)
        try:
            detail = await run_in_threadpool(
                functools.partial(annotate_audited, catalog, ref, visit.who, **change)
            )
        except CatalogError as exc:
            status = 404 if "no dataset" in str(exc) else 400
            raise PageError(status, str(exc)) from None
        return redirect(f"/ui/datasets/{quote(detail.dataset.id, safe='')}")

    @route(Role.OPERATOR, "catalog.annotate")
    async def owners(request: Request, visit: Visit) -> Response:
        assert visit.form is not None
        owner = _checked(visit.form.get("owner"), "owner", MAX_NAME)
        what = visit.form.get("action")
        if what not in ("add", "remove"):
            raise PageError(400, f"action: {what[:40]!r} is not add or remove")
        key = "add_owners" if what == "add" else "remove_owners"
        return await annotate(request, visit, **{key: [owner]})

    @route(Role.OPERATOR, "catalog.annotate")
    async def consumers(request: Request, visit: Visit) -> Response:
        assert visit.form is not None
        form = visit.form
        c = catalog_consumers.c
        name = _checked(form.get("name"), "consumer name", _width(c.name))
        what = form.get("action")
        if what == "remove":
            return await annotate(request, visit, remove_consumers=[name])
        if what != "add":
            raise PageError(400, f"action: {what[:40]!r} is not add or remove")
        kind = _checked(form.get("kind"), "kind", _width(c.kind), required=False)
        contact = _checked(form.get("contact"), "contact", _width(c.contact), required=False)
        columns = tuple(
            _checked(col, "column", MAX_NAME)
            for col in form.get("columns").split(",")
            if col.strip()
        )
        return await annotate(request, visit, consumers=[Consumer(name, kind, contact, columns)])

    # -- impact --------------------------------------------------------------------------
    @route(Role.VIEWER, "plan")
    async def impact(request: Request, visit: Visit) -> Response:
        index = await run_in_threadpool(assets)
        context: dict[str, Any] = {
            "assets": index.keys,
            "chosen": "",
            "depth": DEFAULT_DEPTH,
            "report": None,
            "impact": None,
            "markdown": "",
            "sample_text": "",
            **visit.context(),
        }
        if visit.form is None:
            context["chosen"] = request.query_params.get("asset", "")
            return page("impact.html", **context)
        form = visit.form
        asset = form.get("asset").strip()
        if asset not in index.keys:
            shown = asset[:80] or "none"
            raise PageError(400, f"asset: {shown!r} is not an asset of this code location")
        depth_text = form.get("depth", str(DEFAULT_DEPTH)).strip() or str(DEFAULT_DEPTH)
        if not depth_text.isdigit() or not 0 <= int(depth_text[:4]) <= ctx.max_depth:
            raise PageError(
                400, f"depth: {depth_text[:20]!r} is not a number from 0 to {ctx.max_depth}"
            )
        depth = int(depth_text)
        pasted = form.get("sample").strip()
        if pasted and form.file_name:
            raise PageError(400, "sample: paste one or upload a file, not both")
        started = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="faucet-plan-") as folder:
            path: Path | None = None
            shown_name = ""
            if form.file_name:
                suffix = Path(form.file_name).suffix.lower()
                if suffix not in SAMPLE_SUFFIXES:
                    raise PageError(
                        400,
                        f"sample file {form.file_name[:80]!r}: {suffix or 'no extension'} is not "
                        f"a sample format: upload {', '.join(SAMPLE_SUFFIXES)}",
                    )
                path = Path(folder) / f"sample{suffix}"
                path.write_bytes(form.file_data)
                shown_name = form.file_name[:80]
            elif pasted:
                path = Path(folder) / "sample.jsonl"
                path.write_text(pasted + "\n", encoding="utf-8")
                shown_name = "the pasted sample"
            try:
                change = await run_in_threadpool(
                    functools.partial(
                        plan_change, ctx.location, catalog, [asset], sample=path, depth=depth
                    )
                )
            except StoreError:
                raise
            except FaucetError as exc:
                message = str(exc).replace(str(path), shown_name) if path else str(exc)
                raise PageError(400, message) from None
        report = plan_json(change)
        await ctx.gate.audit(
            visit.who,
            "plan",
            Outcome.OK,
            200,
            asset,
            severity=change.severity.value,
            depth=depth,
            sample=shown_name or None,
            ms=round((time.perf_counter() - started) * 1000, 1),
            via="console",
        )
        context.update(
            chosen=asset,
            depth=depth,
            report=report,
            impact=report.get("impact"),
            severity=change.severity.value,
            markdown=render_markdown(change),
            sample_text=pasted,
            sample_name=shown_name,
        )
        return page("impact.html", **context)

    # -- audit ---------------------------------------------------------------------------
    @route(Role.ADMIN)
    async def audit(request: Request, visit: Visit) -> Response:
        raw = request.query_params.get("before", "")
        before = None
        if raw:
            if not (raw.isascii() and raw.isdigit() and len(raw) <= 18):
                raise PageError(400, f"before: {raw[:20]!r} is not an entry number")
            before = int(raw)
        entries = await run_in_threadpool(
            functools.partial(list_audit, catalog.engine, limit=AUDIT_PAGE + 1, before=before)
        )
        more = len(entries) > AUDIT_PAGE
        entries = entries[:AUDIT_PAGE]
        return page(
            "audit.html",
            entries=entries,
            next_before=entries[-1].id if more and entries else None,
            first=before is None,
            width=_width(audit_log.c.target),
            **visit.context(),
        )

    async def home(_request: Request) -> Response:
        return redirect("/ui/datasets")

    static = Path(__file__).parent / "static"
    return [
        Route("/", home, methods=["GET"]),
        Route("/signin", signin, methods=["GET", "POST"]),
        Route("/signout", signout, methods=["POST"]),
        Route("/datasets", datasets, methods=["GET"]),
        Route("/datasets/{id:path}/owners", owners, methods=["POST"]),
        Route("/datasets/{id:path}/consumers", consumers, methods=["POST"]),
        Route("/datasets/{id:path}", dataset, methods=["GET"]),
        Route("/impact", impact, methods=["GET", "POST"]),
        Route("/audit", audit, methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=static), name="static"),
    ]
