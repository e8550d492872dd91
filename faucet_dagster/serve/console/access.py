"""Who may see a console page and send its forms: the session, the CSRF token, the
``Origin`` and the role, checked in that order before a page runs; sign-in and sign-out.

A page without a session redirects to ``/ui/signin?next=<the page>`` (a form post gets a
401 page). A refused post is an HTML 403 audited as ``denied`` (repeats bounded as the
API's); a page's own refusal (:class:`PageError`) is its status as a page, audited as
``rejected`` on a post; a store failure a 503 page; anything else a 500 page, the
traceback only in the server log.

Signing out ends the session in the store (:mod:`faucet_core.store.revoked`), so the old
cookie is refused by every worker from then on, as an expired one is.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from faucet_core.catalog import Catalog
from faucet_core.errors import StoreError
from faucet_core.store.audit import Outcome
from faucet_core.store.revoked import is_revoked, revoke_session
from faucet_dagster.location import CodeLocation
from faucet_dagster.serve.api.auth import Principal, Role
from faucet_dagster.serve.api.guard import Guard, target_of
from faucet_dagster.serve.api.public import public_message
from faucet_dagster.serve.console.forms import Form, FormError, read_form
from faucet_dagster.serve.console.render import error_page, page, redirect
from faucet_dagster.serve.console.session import (
    COOKIE,
    SIGNIN_COOKIE,
    SIGNIN_SECONDS,
    Session,
    Sessions,
    safe_next,
    same_origin,
)
from faucet_dagster.serve.console.throttle import SigninThrottle

__all__ = [
    "ConsoleContext",
    "Endpoint",
    "PageError",
    "PageHandler",
    "Visit",
    "page_guard",
    "signin_routes",
]

_log = logging.getLogger("faucet.serve")

Endpoint = Callable[[Request], Awaitable[Response]]


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
    throttle: SigninThrottle = field(default_factory=SigninThrottle)


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


async def current_session(ctx: ConsoleContext, request: Request) -> Session | None:
    """The request's session: signed, unexpired, its token still known, not signed out.
    Raises :class:`StoreError` when the store cannot say whether it was signed out."""
    session = ctx.sessions.check(request.cookies.get(COOKIE))
    if session is None:
        return None
    if await run_in_threadpool(is_revoked, ctx.catalog.engine, session.sid):
        return None
    return session


def _unavailable(exc: StoreError) -> Response:
    _log.warning("cannot check a console session: %s", exc)
    return error_page(503, "the store cannot be read, so no session can be checked: retry soon")


def page_guard(ctx: ConsoleContext) -> Callable[..., Callable[[PageHandler], Endpoint]]:
    """``route(required, action)``: wraps a page handler with the checks above."""
    sessions = ctx.sessions

    async def refuse(request: Request, who: Principal, action: str, message: str) -> Response:
        await ctx.gate.refusal(request, action, 403, who)
        return error_page(403, message, who=who)

    def route(required: Role, action: str = "ui") -> Callable[[PageHandler], Endpoint]:
        """Session, then (on POST) Origin, form and CSRF token, then role; errors as pages."""

        def wrap(handler: PageHandler) -> Endpoint:
            async def endpoint(request: Request) -> Response:
                try:
                    session = await current_session(ctx, request)
                except StoreError as exc:
                    return _unavailable(exc)
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
                    shown = public_message(exc, ctx.catalog.engine)
                    return error_page(503, shown, **visit.context())
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

    return route


def signin_routes(
    ctx: ConsoleContext, route: Callable[..., Callable[[PageHandler], Endpoint]]
) -> list[Route]:
    """``/signin`` (GET the form, POST a token) and ``/signout`` (POST)."""
    sessions = ctx.sessions

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
            try:
                signed_in = await current_session(ctx, request) is not None
            except StoreError:
                signed_in = False  # the form still shows; signing in checks the store again
            if signed_in:
                return redirect(safe_next(request.query_params.get("next")))
            return signin_form(request)
        client = request.client.host if request.client else "-"
        wait = ctx.throttle.retry_after(client, sessions.clock())
        if wait is not None:
            await ctx.gate.refusal(request, "ui.signin", 429)
            limited = error_page(
                429,
                f"too many failed sign-ins from {client}: {ctx.throttle.limit} in "
                f"{ctx.throttle.window:g} s is the most; try again in {wait} s",
            )
            limited.headers["retry-after"] = str(wait)
            return limited
        if not same_origin(request.headers, request.url.scheme, request.headers.get("host", "")):
            await ctx.gate.refusal(request, "ui.signin", 403)
            return error_page(403, "the sign-in form was not sent from this server's own page")
        try:
            form = await read_form(request, ctx.max_body)
        except FormError as exc:
            return error_page(exc.status, exc.message)
        if not sessions.signin_ok(request.cookies.get(SIGNIN_COOKIE), form.get("csrf") or None):
            ctx.throttle.failed(client, sessions.clock())
            await ctx.gate.refusal(request, "ui.signin", 403)
            return signin_form(
                request, 403, "the sign-in form had expired or was forged: sign in again"
            )
        found = sessions.sign_in(form.get("token").strip())
        if found is None:
            ctx.throttle.failed(client, sessions.clock())
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
    async def signout(request: Request, visit: Visit) -> Response:
        session = visit.session
        audit = {
            "actor": session.principal.name,
            "role": session.principal.role.value,
            "action": "ui.signout",
            "outcome": Outcome.OK,
            "status": 303,
            "target": "/ui/signout",
        }
        expires = dt.datetime.fromtimestamp(session.expires, dt.timezone.utc)
        # a StoreError here is the guard's 503 page: the session then stays valid, say so
        await run_in_threadpool(
            revoke_session, ctx.catalog.engine, session.sid, expires, audit=audit
        )
        response = redirect("/ui/signin")
        secure = request.url.scheme == "https"
        response.delete_cookie(COOKIE, path="/ui", samesite="strict", httponly=True, secure=secure)
        return response

    return [
        Route("/signin", signin, methods=["GET", "POST"]),
        Route("/signout", signout, methods=["POST"]),
    ]
