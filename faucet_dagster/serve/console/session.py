"""Browser sessions of the web console: a signed cookie, CSRF tokens, the ``next`` rule.

The session cookie holds ``name``, ``role``, an expiry, a random session id and a
fingerprint of the token that signed in (HMAC-SHA256 of the token under the server
secret), all signed with HMAC-SHA256. It never holds the token. On every request the
signature and expiry are checked, then the token table is asked whether that name still
has that role and a token with that fingerprint: a token removed or rotated (and the
server restarted with the same ``FAUCET_SESSION_SECRET``) ends its sessions.

CSRF: every form carries a synchronizer token, HMAC of the session id (bound to that
session); the sign-in form, before any session, one bound to a short-lived nonce cookie.
Every POST must also come with an ``Origin`` (or, lacking it, a ``Referer``) of this
server.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from faucet_core.errors import ConfigError
from faucet_dagster.serve.api.auth import Principal, Role, TokenTable

__all__ = [
    "COOKIE",
    "ENV_SESSION_SECRET",
    "SESSION_SECONDS",
    "SIGNIN_COOKIE",
    "SIGNIN_SECONDS",
    "Session",
    "Sessions",
    "safe_next",
    "same_origin",
    "session_secret",
]

ENV_SESSION_SECRET = "FAUCET_SESSION_SECRET"
COOKIE = "faucet_session"
SIGNIN_COOKIE = "faucet_signin"
SESSION_SECONDS = 8 * 3600
SIGNIN_SECONDS = 3600
MIN_SECRET = 32
DEFAULT_NEXT = "/ui/datasets"


def session_secret(env: Mapping[str, str] | None = None) -> bytes:
    """``$FAUCET_SESSION_SECRET`` (32+ characters), else a random per-process secret
    (sessions then end when the server restarts; every worker needs the variable)."""
    value = (os.environ if env is None else env).get(ENV_SESSION_SECRET, "")
    if not value:
        return secrets.token_bytes(32)
    if len(value) < MIN_SECRET:
        raise ConfigError(
            f"{ENV_SESSION_SECRET} is {len(value)} characters: give {MIN_SECRET} or more, e.g. "
            "`python -c 'import secrets; print(secrets.token_urlsafe(32))'`"
        )
    return value.encode()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class Session:
    principal: Principal
    sid: str
    expires: int


class Sessions:
    """Signs and checks session cookies and CSRF tokens with one secret."""

    def __init__(
        self,
        tokens: TokenTable,
        secret: bytes,
        *,
        lifetime: int = SESSION_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._secret = secret
        self._known = tokens.fingerprints(self._key("token"))
        self._tokens = tokens
        self.lifetime = lifetime
        self.clock = clock

    def _key(self, purpose: str) -> bytes:
        return hmac.new(self._secret, purpose.encode(), hashlib.sha256).digest()

    def _mac(self, purpose: str, data: bytes) -> bytes:
        return hmac.new(self._key(purpose), data, hashlib.sha256).digest()

    # -- sign-in ---------------------------------------------------------------------------
    def sign_in(self, token: str) -> tuple[Principal, str] | None:
        """The principal of ``token`` and its session cookie value; None for a token the
        table does not hold (or an ingest token: it has no console)."""
        principal = self._tokens.lookup(token)
        if principal is None or principal.role is Role.INGEST:
            return None
        fingerprint = hmac.new(self._key("token"), token.encode(), hashlib.sha256).digest()
        payload = {
            "n": principal.name,
            "r": principal.role.value,
            "e": int(self.clock()) + self.lifetime,
            "s": secrets.token_urlsafe(16),
            "t": _b64(fingerprint[:16]),
        }
        raw = json.dumps(payload, separators=(",", ":")).encode()
        return principal, f"{_b64(raw)}.{_b64(self._mac('session', raw))}"

    def check(self, value: str | None) -> Session | None:
        """The session a cookie value stands for, or None (absent, tampered, expired, or
        its token no longer in the table)."""
        if not value or len(value) > 1024 or value.count(".") != 1:
            return None
        body, _, mac = value.partition(".")
        try:
            raw, given = _unb64(body), _unb64(mac)
            data = json.loads(raw)
        except (binascii.Error, ValueError):
            return None
        if not hmac.compare_digest(given, self._mac("session", raw)):
            return None
        if not isinstance(data, dict) or not isinstance(data.get("e"), int):
            return None
        if data["e"] <= self.clock():
            return None
        known = self._known.get(str(data.get("n")))
        if known is None:
            return None
        principal, fingerprint = known
        if principal.role.value != data.get("r"):
            return None
        if not hmac.compare_digest(_b64(fingerprint[:16]), str(data.get("t", ""))):
            return None
        return Session(principal, str(data.get("s", "")), data["e"])

    # -- CSRF ------------------------------------------------------------------------------
    def csrf(self, session: Session) -> str:
        """The synchronizer token of every form of ``session``."""
        return _b64(self._mac("csrf", session.sid.encode()))

    def csrf_ok(self, session: Session, given: str | None) -> bool:
        return bool(given) and hmac.compare_digest(self.csrf(session), str(given))

    def signin_nonce(self) -> str:
        return secrets.token_urlsafe(16)

    def signin_csrf(self, nonce: str) -> str:
        return _b64(self._mac("signin", nonce.encode()))

    def signin_ok(self, nonce: str | None, given: str | None) -> bool:
        if not nonce or not given or len(nonce) > 64:
            return False
        return hmac.compare_digest(self.signin_csrf(nonce), given)


def same_origin(headers: Mapping[str, str], scheme: str, host: str) -> bool:
    """Whether a POST comes from this server's own pages: its ``Origin`` (else its
    ``Referer``) is ``scheme://host``."""
    origin = headers.get("origin")
    if origin is None or origin == "null":
        referer = headers.get("referer")
        if not referer:
            return False
        parts = urlsplit(referer)
        origin = f"{parts.scheme}://{parts.netloc}"
    return origin.lower() == f"{scheme}://{host}".lower()


def safe_next(value: str | None) -> str:
    """``next`` when it is a local console path, else the datasets page: never another
    host (``//evil``, ``/\\evil``, ``https://...``) nor the sign-in page itself."""
    if not value or len(value) > 2048:
        return DEFAULT_NEXT
    if any(ord(ch) < 0x20 or ch in "\\\x7f" for ch in value):
        return DEFAULT_NEXT
    parts = urlsplit(value)
    if parts.scheme or parts.netloc or value.startswith("//"):
        return DEFAULT_NEXT
    if not (parts.path == "/ui" or parts.path.startswith("/ui/")):
        return DEFAULT_NEXT
    if parts.path.startswith(("/ui/signin", "/ui/signout", "/ui//")) or ".." in parts.path:
        return DEFAULT_NEXT
    return value
