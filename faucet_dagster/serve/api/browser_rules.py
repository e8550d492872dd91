"""What keeps a web page from writing lineage: the ``Host``, ``Origin`` and ``Content-Type``
rules of ``POST /api/v1/lineage``.

A page on any site can make the visitor's browser send a POST to 127.0.0.1 (``fetch`` with
``mode: "no-cors"``, a form). Without tokens nothing else stops it, so the receiver refuses

- a ``Host`` that does not name the address it listens on (DNS rebinding: the page's own
  name resolved to 127.0.0.1): 421, unless the operator listed that name
  (``--allowed-host``);
- an ``Origin`` that is present and is not this server (``null`` included): 403. No
  OpenLineage client sends one; browsers always do on a cross-site POST;
- a body that is not declared as JSON: 415. A page can only send ``text/plain``,
  ``multipart/form-data`` or ``application/x-www-form-urlencoded`` (or nothing) without
  asking first, and the receiver answers no CORS preflight.

With tokens a page cannot send the bearer token, so the token check refuses it anyway; the
``Origin`` rule still applies (see :func:`rules_for`).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from starlette.responses import JSONResponse

from faucet_dagster.serve.api.guard import error

__all__ = [
    "JSON_TYPES",
    "BrowserRules",
    "host_name",
    "loopback_names",
    "rules_for",
]

JSON_TYPES = frozenset(
    {
        "application/json",
        "application/x-ndjson",
        "application/jsonl",
        "application/x-jsonlines",
    }
)
"""The media types a lineage body may declare (with any parameters, e.g. ``charset``);
``application/<anything>+json`` is accepted too."""

_NAME = re.compile(r"[a-z0-9._-]{1,253}")
_PORT = re.compile(r"[0-9]{1,5}")


def _shown(value: str) -> str:
    return repr(value) if len(value) <= 80 else repr(value[:80]) + "..."


def host_name(value: str) -> str | None:
    """The host of a ``Host`` header (``name``, ``name:port``, ``[v6]:port``), lowercased;
    None when it is not one."""
    text = value.strip().lower()
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            return None
        name, rest = text[1:end], text[end + 1 :]
        if rest and not (rest.startswith(":") and _PORT.fullmatch(rest[1:])):
            return None
        try:
            return str(ipaddress.IPv6Address(name))
        except ValueError:
            return None
    name, colon, port = text.partition(":")
    if colon and not _PORT.fullmatch(port):
        return None
    return name if _NAME.fullmatch(name) else None


def _normal(host: str) -> str:
    """A bind address or an allowed name as :func:`host_name` gives it."""
    name = host.strip().lower().strip("[]")
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        return name


def loopback_names(bind: str) -> frozenset[str]:
    """The ``Host`` names that reach a server listening on loopback ``bind``: the address
    itself and ``localhost`` (``localhost`` binds both loopback addresses)."""
    name = _normal(bind)
    names = {name, "localhost"}
    if name == "localhost":
        names |= {"127.0.0.1", "::1"}
    return frozenset(names)


def _media_type(value: str) -> str:
    return value.split(";", 1)[0].strip().lower()


def _is_json(value: str) -> bool:
    media = _media_type(value)
    return media in JSON_TYPES or (media.startswith("application/") and media.endswith("+json"))


@dataclass(frozen=True)
class BrowserRules:
    """``hosts``: the ``Host`` names accepted (None: any); ``json_only``: refuse a body not
    declared as JSON."""

    hosts: frozenset[str] | None
    json_only: bool

    def refuse(self, scheme: str, headers: Mapping[str, str]) -> JSONResponse | None:
        """The refusal of a request with these headers, or None when it may go on."""
        host = headers.get("host", "")
        if self.hosts is not None and host_name(host) not in self.hosts:
            allowed = ", ".join(sorted(self.hosts))
            return error(
                421,
                f"Host {_shown(host)} does not name this receiver (it answers to {allowed}): "
                "a page whose name resolves to this machine is refused; post to the address "
                "it listens on, or start it with --allowed-host NAME",
                field="Host",
            )
        origin = headers.get("origin")
        if origin is not None and origin.strip().lower() != f"{scheme}://{host}".lower():
            return error(
                403,
                f"Origin {_shown(origin)} is not this receiver ({scheme}://{host[:80]}): "
                "lineage is not accepted from web pages; post from an OpenLineage client, "
                "which sends no Origin",
                field="Origin",
            )
        declared = headers.get("content-type", "")
        if self.json_only and not _is_json(declared):
            shown = _shown(declared) if declared else "none"
            return error(
                415,
                f"Content-Type {shown} is not JSON: send the events as application/json "
                "(or application/x-ndjson for JSON lines), as OpenLineage clients do",
                field="Content-Type",
            )
        return None


def rules_for(
    tokens: bool, bind: str | None = None, allowed_hosts: Iterable[str] = ()
) -> BrowserRules:
    """Without ``tokens``: every rule, the hosts those of the loopback address ``bind``
    plus ``allowed_hosts``. With tokens: the ``Origin`` rule only, and a ``Host`` check
    only when ``allowed_hosts`` names some."""
    extra = frozenset(_normal(h) for h in allowed_hosts if h.strip())
    if tokens:
        return BrowserRules(hosts=extra or None, json_only=False)
    return BrowserRules(hosts=loopback_names(bind or "127.0.0.1") | extra, json_only=True)
