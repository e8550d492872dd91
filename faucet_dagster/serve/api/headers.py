"""The headers every answer of ``faucet serve`` carries, whichever part of it answered.

API answers (``/v1``, ``/api/v1/lineage``, ``/metrics``, ``/healthz``, the router's
404 / 405) get ``X-Content-Type-Options: nosniff`` (a browser never reads JSON as a page
or a script) and ``Cache-Control: no-store`` (catalog and audit data stay out of shared
and browser caches). Answers under ``/ui`` (the ``/ui`` -> ``/ui/`` redirect of the router
included) get the console's :data:`~faucet_dagster.serve.console.render.SECURITY_HEADERS`.
A header the route set itself is kept.
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["API_HEADERS", "ResponseHeaders"]

API_HEADERS = {"x-content-type-options": "nosniff", "cache-control": "no-store"}


class ResponseHeaders:
    """ASGI middleware: ``console`` headers on paths under ``prefix``, :data:`API_HEADERS`
    on every other path (on every path when there is no ``console``)."""

    def __init__(
        self, app: ASGIApp, console: Mapping[str, str] | None = None, prefix: str = "/ui"
    ) -> None:
        self.app = app
        self.console = dict(console) if console is not None else None
        self.prefix = prefix

    def _for(self, path: str) -> Mapping[str, str]:
        under = path == self.prefix or path.startswith(self.prefix + "/")
        if self.console is not None and under:
            return self.console
        return API_HEADERS

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        wanted = self._for(str(scope.get("path", "")))

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.decode("latin-1").lower() for name, _ in headers}
                for name, value in wanted.items():
                    if name not in present:
                        headers.append((name.encode("latin-1"), value.encode("latin-1")))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)
