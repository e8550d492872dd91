"""A real HTTP server on 127.0.0.1 standing in for Slack and for a JSON webhook.

Routes:

- ``/services/T0/B0/<secret>``: a Slack incoming webhook (answers ``ok``);
- ``/api/chat.postMessage``: Slack's Web API (checks the bearer token and the channel,
  answers ``{"ok": true, ...}`` or ``{"ok": false, "error": ...}`` like Slack);
- ``/hooks/<secret>``: a generic JSON webhook (answers 204).

A test scripts failures per path with :meth:`FakeHttp.script` (one-shot replies, used in
order) or :meth:`FakeHttp.outage` (every request fails until ``outage(path, None)``).
Every request is recorded; :attr:`FakeHttp.delivered` holds the ones answered with success.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SLACK_WEBHOOK_PATH = "/services/T0/B0/s3cr3tW3bh00kPath"
SLACK_API_PATH = "/api/chat.postMessage"
WEBHOOK_PATH = "/hooks/h00k-s3cr3t"
BOT_TOKEN = "xoxb-test-s3cr3t-t0ken"
CHANNEL = "#data-alerts"


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: Any = "ok"
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Received:
    path: str
    headers: Mapping[str, str]
    body: Any
    status: int
    ok: bool
    """Answered with success (2xx, and ``"ok": true`` from the Web API)."""


def slack_error(error: str, status: int = 200, **headers: str) -> Reply:
    return Reply(status, {"ok": False, "error": error}, headers)


class FakeHttp:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._scripts: dict[str, deque[Reply]] = {}
        self._outages: dict[str, Reply] = {}
        self.requests: list[Received] = []
        self.token = BOT_TOKEN
        self.channels = {CHANNEL}
        handler = _handler(self)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )

    # -- lifecycle --------------------------------------------------------------------
    def start(self) -> FakeHttp:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def base(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def url(self, path: str) -> str:
        return self.base + path

    # -- scripting --------------------------------------------------------------------
    def script(self, path: str, *replies: Reply) -> None:
        with self._lock:
            self._scripts.setdefault(path, deque()).extend(replies)

    def outage(self, path: str, reply: Reply | None) -> None:
        with self._lock:
            if reply is None:
                self._outages.pop(path, None)
            else:
                self._outages[path] = reply

    # -- what arrived -----------------------------------------------------------------
    def received(self, path: str) -> list[Received]:
        with self._lock:
            return [r for r in self.requests if r.path == path]

    def delivered(self, path: str) -> list[Any]:
        """Bodies of the requests to ``path`` that were answered with success."""
        return [r.body for r in self.received(path) if r.ok]

    # -- answering --------------------------------------------------------------------
    def _answer(self, path: str, headers: Mapping[str, str], body: Any) -> Reply:
        with self._lock:
            queued = self._scripts.get(path)
            if queued:
                return queued.popleft()
            if path in self._outages:
                return self._outages[path]
        if path == SLACK_WEBHOOK_PATH:
            return Reply(200, "ok")
        if path == SLACK_API_PATH:
            if headers.get("authorization") != f"Bearer {self.token}":
                return slack_error("invalid_auth")
            if not isinstance(body, dict) or body.get("channel") not in self.channels:
                return slack_error("channel_not_found")
            return Reply(200, {"ok": True, "channel": "C0001", "ts": "1700000000.000100"})
        if path == WEBHOOK_PATH:
            return Reply(204, "")
        return Reply(404, "no_service")


def _handler(server: FakeHttp) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode("utf-8")
            try:
                body = json.loads(raw)
            except ValueError:
                body = raw
            headers = {k.lower(): v for k, v in self.headers.items()}
            reply = server._answer(self.path, headers, body)
            payload = reply.body if isinstance(reply.body, str) else json.dumps(reply.body)
            data = payload.encode("utf-8")
            ok = 200 <= reply.status < 300 and not (
                isinstance(reply.body, dict) and reply.body.get("ok") is False
            )
            with server._lock:
                server.requests.append(Received(self.path, headers, body, reply.status, ok))
            self.send_response(reply.status)
            content_type = "text/plain" if isinstance(reply.body, str) else "application/json"
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for key, value in reply.headers.items():
                self.send_header(key, value)
            self.end_headers()
            if data:
                self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:  # silence
            return

    return Handler


@contextmanager
def fake_http() -> Iterator[FakeHttp]:
    server = FakeHttp().start()
    try:
        yield server
    finally:
        server.stop()
