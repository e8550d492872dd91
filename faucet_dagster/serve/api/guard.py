"""What wraps every route of the HTTP surfaces: bearer-token authorization, the audit
log, and turning every failure into a JSON answer.

:meth:`Guard.route` wraps a handler so that

- a request without a valid token is 401, below the role 403 (audited as ``denied``,
  repeats bounded by :class:`~faucet_dagster.serve.api.refusals.RefusalLimiter`);
- a :class:`BadRequest` raised by the handler becomes its 4xx answer (audited as
  ``rejected``);
- a client that closes the connection mid-body is logged in one line and audited as
  ``aborted`` (status 499);
- a database error that escaped the store unwrapped is a 503, any other exception a
  500: logged with its traceback, answered in JSON with no detail but the exception's
  type, and audited as ``error``.

Audit writes that fail (the store is down) are logged, never raised: the answer to the
client stays the one the request earned.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from faucet_core.errors import StoreError
from faucet_core.lineage.receiver import CLIENT_CLOSED
from faucet_core.store.audit import Outcome, write_audit
from faucet_dagster.serve.api.auth import Principal, Role, TokenTable
from faucet_dagster.serve.api.refusals import RefusalGroup, RefusalLimiter, Repeats

__all__ = [
    "ANONYMOUS",
    "BadRequest",
    "Guard",
    "error",
    "http_error_handlers",
    "outcome_of",
    "target_of",
]

ANONYMOUS = Principal("-", Role.INGEST)
"""The actor of a request without a valid token (audited with role ``-``)."""

Handler = Callable[[Request, Principal], Awaitable[Response]]
Endpoint = Callable[[Request], Awaitable[Response]]

_log = logging.getLogger("faucet.serve")


def error(status: int, message: str, **extra: Any) -> JSONResponse:
    """The JSON error answer: ``{"error": message, ...extra}``."""
    return JSONResponse({"error": message, **extra}, status_code=status)


def target_of(request: Request) -> str:
    """The request path as an audit target: NUL escaped (PostgreSQL text refuses it), cut
    to the column's 512 characters."""
    return request.url.path.replace("\x00", "\\x00")[:512]


class BadRequest(Exception):
    """Raised by a handler: answer with ``response`` (a 4xx), audited as rejected."""

    def __init__(self, response: JSONResponse) -> None:
        self.response = response


def outcome_of(status: int) -> Outcome:
    """How a request that ended with ``status`` is audited."""
    if status == CLIENT_CLOSED:
        return Outcome.ABORTED
    if status in (401, 403):
        return Outcome.DENIED
    if status >= 500:
        return Outcome.ERROR
    return Outcome.OK if status < 400 else Outcome.REJECTED


def _message(response: Response) -> str:
    try:
        found = json.loads(bytes(response.body)).get("error", "")
    except (ValueError, AttributeError):
        return ""
    return str(found)


class Guard:
    """Authorization and auditing for one app. ``tokens`` None: no authentication at all
    (``faucet lineage serve`` on a loopback address without tokens)."""

    def __init__(
        self,
        tokens: TokenTable | None,
        engine: Engine,
        *,
        limiter: RefusalLimiter | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.tokens = tokens
        self.engine = engine
        self.limiter = limiter or RefusalLimiter()
        self.clock = clock

    # -- who -------------------------------------------------------------------------------
    def principal(self, request: Request) -> Principal | None:
        if self.tokens is None:
            return ANONYMOUS
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        return self.tokens.lookup(token.strip()) if scheme.lower() == "bearer" else None

    def authorize(
        self, request: Request, required: Role, *, ingest: bool = False
    ) -> Principal | JSONResponse:
        principal = self.principal(request)
        if principal is None:
            return JSONResponse(
                {"error": "a valid bearer token is required: Authorization: Bearer <token>"},
                status_code=401,
                headers={"WWW-Authenticate": 'Bearer realm="faucet"'},
            )
        if principal is ANONYMOUS:
            return principal
        if principal.role.allows(required) or (ingest and principal.role is Role.INGEST):
            return principal
        needed = f"{required.value} or ingest" if ingest else required.value
        return error(
            403,
            f"{principal.name} ({principal.role.value}) may not {request.method} "
            f"{request.url.path}: it needs {needed} or above",
        )

    # -- the audit log ---------------------------------------------------------------------
    async def audit(
        self,
        principal: Principal,
        action: str,
        outcome: Outcome,
        status: int,
        target: str = "",
        **detail: Any,
    ) -> None:
        """Write one entry; a store failure is logged, not raised."""
        await run_in_threadpool(self._write, principal, action, outcome, status, target, detail)

    def _write(
        self,
        principal: Principal,
        action: str,
        outcome: Outcome,
        status: int,
        target: str,
        detail: dict[str, Any],
    ) -> None:
        try:
            write_audit(
                self.engine,
                actor=principal.name,
                role=principal.role.value if principal is not ANONYMOUS else "-",
                action=action,
                outcome=outcome,
                status=status,
                target=target,
                detail=detail,
            )
        except StoreError as exc:
            _log.warning(
                "audit entry (%s %s %s) not written: %s", action, outcome.value, status, exc
            )

    def _write_repeats(self, found: list[Repeats]) -> None:
        for repeats in found:
            group = repeats.group
            try:
                write_audit(
                    self.engine,
                    actor=group.actor,
                    role=group.role,
                    action=group.action,
                    outcome=Outcome.DENIED,
                    status=group.status,
                    detail=repeats.detail(),
                )
            except StoreError as exc:
                _log.warning("refusal summary (%s) not written: %s", group.action, exc)

    async def flush(self) -> None:
        """Write the counts of every open refusal group (when the app stops)."""
        await run_in_threadpool(self._write_repeats, self.limiter.drain())

    async def _refused(self, request: Request, action: str, response: JSONResponse) -> None:
        who = ANONYMOUS
        if response.status_code == 403:
            who = self.principal(request) or ANONYMOUS
        await self.refusal(request, action, response.status_code, who)

    async def refusal(
        self, request: Request, action: str, status: int, who: Principal = ANONYMOUS
    ) -> None:
        """Audit a refused request (401/403) of ``who`` as ``denied``, repeats bounded (see
        :mod:`faucet_dagster.serve.api.refusals`)."""
        role = who.role.value if who is not ANONYMOUS else "-"
        client = request.client.host if request.client else "-"
        now = self.clock()
        await run_in_threadpool(self._write_repeats, self.limiter.closed(now))
        first, group = self.limiter.note(RefusalGroup(client, who.name, role, action, status), now)
        if first:
            await self.audit(
                who,
                action,
                Outcome.DENIED,
                status,
                target_of(request),
                client=group.client,
            )

    # -- the wrapper -----------------------------------------------------------------------
    def route(
        self,
        required: Role,
        action: str,
        *,
        ingest: bool = False,
        audited: bool = True,
    ) -> Callable[[Handler], Endpoint]:
        """Wrap a handler (see the module doc). ``audited=False``: a read whose success and
        refusals are not audited; its 5xx and aborts still are, as ``action``."""

        def wrap(handler: Handler) -> Endpoint:
            async def endpoint(request: Request) -> Response:
                found = self.authorize(request, required, ingest=ingest)
                if isinstance(found, JSONResponse):
                    if audited:
                        await self._refused(request, action, found)
                    return found
                target = target_of(request)
                try:
                    response = await handler(request, found)
                except BadRequest as bad:
                    if audited:
                        status = bad.response.status_code
                        await self.audit(
                            found,
                            action,
                            outcome_of(status),
                            status,
                            target,
                            error=_message(bad.response),
                        )
                    return bad.response
                except ClientDisconnect:
                    client = request.client.host if request.client else "-"
                    _log.warning(
                        "client %s closed the connection before its %s %s body was complete",
                        client,
                        request.method,
                        request.url.path,
                    )
                    await self.audit(found, action, Outcome.ABORTED, CLIENT_CLOSED, target)
                    return error(CLIENT_CLOSED, "the client closed the connection")
                except SQLAlchemyError as exc:  # a store read that raised unwrapped
                    _log.exception("%s %s: the store failed", request.method, request.url.path)
                    name = type(exc).__name__
                    await self.audit(found, action, Outcome.ERROR, 503, target, error=name)
                    return error(
                        503, f"the store could not answer ({name}): the server log has the details"
                    )
                except Exception as exc:  # the last line: log, audit, answer 500
                    _log.exception("%s %s failed", request.method, request.url.path)
                    await self.audit(
                        found, action, Outcome.ERROR, 500, target, error=type(exc).__name__
                    )
                    return error(500, "internal error: the server log has the details")
                if not audited and response.status_code >= 500:
                    status = response.status_code
                    message = _message(response)
                    await self.audit(found, action, Outcome.ERROR, status, target, error=message)
                return response

            return endpoint

        return wrap


ErrorPages = Callable[[Request, int, str], "Response | None"]


async def _http_error(request: Request, exc: Exception, pages: ErrorPages | None) -> Response:
    assert isinstance(exc, HTTPException)
    if pages is not None:  # e.g. the web console answers its own paths in HTML
        html = pages(request, exc.status_code, (exc.headers or {}).get("Allow", ""))
        if html is not None:
            return html
    if exc.status_code == 404:
        message = f"no route {request.url.path[:200]!r}: see the API's routes in docs/serve.md"
    elif exc.status_code == 405:
        allow = (exc.headers or {}).get("Allow", "")
        allowed = ", ".join(sorted(m.strip() for m in allow.split(",") if m.strip()))
        message = f"{request.method} is not allowed on {request.url.path[:200]!r}; use {allowed}"
    else:
        message = str(exc.detail)
    return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)


def http_error_handlers(
    pages: ErrorPages | None = None,
) -> dict[Any, Callable[[Request, Exception], Awaitable[Response]]]:
    """Starlette ``exception_handlers`` that answer the router's 404 / 405 in JSON, or
    with ``pages`` (request, status, Allow header) where it gives an answer."""

    async def handler(request: Request, exc: Exception) -> Response:
        return await _http_error(request, exc, pages)

    return {HTTPException: handler}
