"""Keep secrets out of messages: passwords inside URLs and ``password=``-style settings.

:func:`redact` works on any text, including URLs too malformed to parse (the ones most
likely to end up in an error message), so every message that can carry a store URL or a
driver's error text goes through it.
"""

from __future__ import annotations

import re

__all__ = ["MASK", "redact"]

MASK = "***"

# ``scheme://user:password@host``: the password is whatever sits between the first ``:``
# after ``//`` and the last ``@`` before the host (passwords may hold ``@``, ``/`` or ``:``).
_USERINFO = re.compile(
    r"(?P<head>://[^\s:/@'\"]*):(?P<secret>[^\s'\"]*)@(?=[^\s@'\"]*(?:[\s'\"]|$))"
)
# ``password=...`` in a query string or a libpq keyword DSN, ``Authorization: Bearer ...``.
_SETTING = re.compile(
    r"(?P<head>\b(?:password|passwd|pwd|secret|token|api_key|apikey|access_token)\s*[=:]\s*)"
    r"(?P<secret>'[^']*'|\"[^\"]*\"|[^\s&;'\",)]+)",
    re.IGNORECASE,
)
_BEARER = re.compile(r"(?P<head>\b(?:Bearer|Basic)\s+)(?P<secret>[A-Za-z0-9._~+/=-]{4,})")


def redact(text: str) -> str:
    """``text`` with every password, token and credential replaced by ``***``."""
    text = _USERINFO.sub(lambda m: f"{m['head']}:{MASK}@", text)
    text = _SETTING.sub(lambda m: f"{m['head']}{MASK}", text)
    return _BEARER.sub(lambda m: f"{m['head']}{MASK}", text)
