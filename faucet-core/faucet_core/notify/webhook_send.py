"""Posting JSON to a generic webhook with the standard library (no extra dependency).

Any 2xx is a delivery. 429 waits ``Retry-After``; 408, 425 and 5xx are retried; 400, 413
and 422 reject the message; other 4xx mean the destination is broken (wrong URL, missing
authorization). Error texts give the status, never the URL or header values: a header
name or value that HTTP cannot carry is refused when the sender is built, naming the header
only.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from typing import Any

from faucet_core.errors import NotifyError
from faucet_core.notify.delivery import DeliveryError, DeliveryProblem

__all__ = ["JsonWebhookSender", "parse_retry_after"]

_RETRYABLE = frozenset({408, 425, 429})
_REJECTED = frozenset({400, 413, 422})
_USER_AGENT = "faucet-dagster (drift notifications)"
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
"""An HTTP header name (RFC 9110 token)."""
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
"""Characters a header value cannot hold (tab is allowed)."""


def _checked_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """``headers`` as a dict; a name or value HTTP cannot carry is refused without
    repeating the value (it may be a secret)."""
    out: dict[str, str] = {}
    for name, value in headers.items():
        if not isinstance(name, str) or not _TOKEN.fullmatch(name):
            raise NotifyError(
                f"webhook header name {name!r} is not a valid HTTP header name: use letters, "
                "digits and '-' (e.g. 'Authorization', 'X-Api-Key')"
            )
        if not isinstance(value, str) or _CONTROL.search(value):
            raise NotifyError(
                f"the value of webhook header {name!r} holds a line break or another control "
                "character, which HTTP cannot send: check where the value comes from (its "
                "environment variable)"
            )
        out[name] = value
    return out


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """``Retry-After`` in seconds: a number of seconds or an HTTP date."""
    if value is None:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


class JsonWebhookSender:
    """POSTs a JSON body to ``url`` with optional extra headers (e.g. an Authorization)."""

    def __init__(self, url: str, headers: Mapping[str, str] | None = None) -> None:
        if not url.lower().startswith(("http://", "https://")):
            raise NotifyError(
                "the webhook URL is not an http(s) URL: check its environment variable"
            )
        self._url = url
        self._headers = {
            "Content-Type": "application/json; charset=utf-8",
            "User-Agent": _USER_AGENT,
            **_checked_headers(headers or {}),
        }

    def __repr__(self) -> str:
        return "JsonWebhookSender(url=***)"

    def send(self, message: Mapping[str, Any], *, timeout: float) -> None:
        body = json.dumps(message, ensure_ascii=False, allow_nan=False).encode("utf-8")
        request = urllib.request.Request(self._url, data=body, headers=self._headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                response.read()
                return
        except urllib.error.HTTPError as exc:
            status = exc.code
            retry_after = parse_retry_after(exc.headers.get("Retry-After") if exc.headers else None)
            exc.close()
        except ValueError as exc:  # the request could not be built; its text may quote it
            raise DeliveryError(
                DeliveryProblem.BROKEN,
                f"the webhook request could not be built ({type(exc).__name__}): check the "
                "URL's and the headers' environment variables",
            ) from None
        except (OSError, http.client.HTTPException) as exc:
            reason = getattr(exc, "reason", None) or exc
            raise DeliveryError(
                DeliveryProblem.RETRYABLE,
                f"could not reach the webhook: {type(exc).__name__}: {reason}",
            ) from None
        if status == 429:
            problem = DeliveryProblem.RATE_LIMITED
        elif status >= 500 or status in _RETRYABLE:
            problem = DeliveryProblem.RETRYABLE
        elif status in _REJECTED:
            problem = DeliveryProblem.REJECTED
        else:
            problem = DeliveryProblem.BROKEN
        raise DeliveryError(
            problem, f"the webhook answered HTTP {status}", status=status, retry_after=retry_after
        )
