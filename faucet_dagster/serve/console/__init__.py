"""The web console of ``faucet serve``: server-rendered pages under ``/ui/`` (datasets,
a dataset's profile and owners & consumers, impact, audit) behind a browser sign-in with
the API's tokens and roles. See docs/serve.md, "Web console"."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Router

from faucet_dagster.serve.console.assets import ENV_DAGSTER_URL, dagster_url
from faucet_dagster.serve.console.pages import ConsoleContext, console_routes
from faucet_dagster.serve.console.render import SecurityHeaders, error_page
from faucet_dagster.serve.console.session import (
    COOKIE,
    ENV_SESSION_SECRET,
    SESSION_SECONDS,
    Sessions,
    session_secret,
)
from faucet_dagster.serve.console.sparkline import svg_sparkline

__all__ = [
    "COOKIE",
    "ENV_DAGSTER_URL",
    "ENV_SESSION_SECRET",
    "PREFIX",
    "SESSION_SECONDS",
    "ConsoleContext",
    "Sessions",
    "console_mount",
    "dagster_url",
    "http_error_page",
    "session_secret",
    "svg_sparkline",
]

PREFIX = "/ui"


def console_mount(ctx: ConsoleContext) -> Mount:
    """The console as one mount at ``/ui``, every answer with the security headers."""
    return Mount(PREFIX, app=SecurityHeaders(Router(routes=console_routes(ctx))))


def http_error_page(request: Request, status: int, allow: str = "") -> Response | None:
    """The HTML page of a router 404 / 405 under ``/ui`` (None elsewhere: the API keeps
    its JSON errors)."""
    path = request.url.path
    if path != PREFIX and not path.startswith(PREFIX + "/"):
        return None
    if status == 404:
        return error_page(404, f"no page {path[:200]!r}: see the Datasets page")
    if status == 405:
        response = error_page(405, f"{request.method} is not allowed on {path[:200]!r}")
        if allow:
            response.headers["allow"] = allow
        return response
    return None
