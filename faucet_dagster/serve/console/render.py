"""Jinja2 pages of the console, with the security headers every ``/ui`` answer carries.

Templates and the stylesheet ship as package data; autoescape is on for every template,
so whatever the catalog holds (names, owners, URIs) is shown as text, never as markup.
"""

from __future__ import annotations

import re
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "SECURITY_HEADERS",
    "SecurityHeaders",
    "error_page",
    "page",
    "redirect",
    "without_cli",
]

SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
    ),
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    "x-content-type-options": "nosniff",
    "cache-control": "no-store",
}

_ENV = Environment(
    loader=PackageLoader("faucet_dagster.serve.console", "templates"),
    autoescape=select_autoescape(default=True, default_for_string=True),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)

_TITLES = {
    400: "Bad request",
    401: "Sign-in needed",
    403: "Not allowed",
    404: "Not found",
    405: "Method not allowed",
    413: "Too large",
    429: "Too many attempts",
    500: "Server error",
    503: "Store unavailable",
}


def page(template: str, status: int = 200, **context: Any) -> HTMLResponse:
    context.setdefault("who", None)
    context.setdefault("csrf", "")
    who = context["who"]
    context.setdefault("is_admin", who is not None and who.role.value == "admin")
    html = _ENV.get_template(template).render(**context)
    return HTMLResponse(html, status_code=status, headers=SECURITY_HEADERS)


_CLI = re.compile(r"[;:,]?\s*(?:\(|(?:run|use|see|try|as)\s+)?`faucet[^`]*`\)?[^;.()]*")


def without_cli(message: str) -> str:
    """``message`` without the command-line advice the same error gives in a terminal
    (``run `faucet doctor` ...``): a page's reader has no shell on the server."""
    return _CLI.sub("", message).strip()


def error_page(status: int, message: str, **context: Any) -> HTMLResponse:
    """The HTML answer of every console error: a title, one line in words (no command
    line advice, no traceback)."""
    title = _TITLES.get(status, "Error")
    shown = without_cli(message)
    return page("error.html", status, title=title, message=shown, code=status, **context)


def redirect(url: str, status: int = 303) -> Response:
    return RedirectResponse(url, status_code=status, headers=SECURITY_HEADERS)


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every answer of the wrapped app (the
    console's static files too), without replacing a header the app set."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.decode("latin-1").lower() for name, _ in headers}
                for name, value in SECURITY_HEADERS.items():
                    if name not in present:
                        headers.append((name.encode("latin-1"), value.encode("latin-1")))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)
