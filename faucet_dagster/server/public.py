"""Messages fit for a response: the store's location taken out.

The engine's errors name the store (``no dataset 'x' in the catalog sqlite:////srv/...``,
``cannot read the catalog postgresql://faucet:***@db/...``) because on the command line
that tells the user which store they read. Over HTTP any viewer would learn where the
store lives, so each answer's message goes through :func:`public_message`: the URL (in
each form it is written), the database file's path, and any other SQLAlchemy URL are
dropped, with the ``at`` / ``in`` / ``of`` that led to them.
"""

from __future__ import annotations

import re

from sqlalchemy import Engine

from faucet_core.store.redact import redact

__all__ = ["public_message"]

# any SQLAlchemy-style URL (``dialect[+driver]://...``) up to whitespace, a quote or ``:``
# followed by a space (the end of the ``... in <url>: reason`` prefix)
_ANY_URL = re.compile(
    r"(?:\s+(?:at|in|of))?\s+(?:sqlite|postgres|postgresql|mysql|mssql|oracle|duckdb)"
    r"(?:\+\w+)?://\S*?(?=:\s|[\s'\"]|$)"
)


def _forms(engine: Engine) -> list[str]:
    url = engine.url
    forms = {
        url.render_as_string(hide_password=False),
        url.render_as_string(hide_password=True),
        redact(url.render_as_string(hide_password=False)),
    }
    if url.database and len(url.database) > 1 and url.database != ":memory:":
        forms.add(url.database)
    return sorted((f for f in forms if f), key=len, reverse=True)


def public_message(message: object, engine: Engine) -> str:
    """``message`` (an exception or text) without where ``engine``'s store lives."""
    text = str(message)
    for form in _forms(engine):
        text = re.sub(r"(?:\s+(?:at|in|of))?\s+" + re.escape(form), "", text)
        text = text.replace(form, "the store")
    return _ANY_URL.sub("", text)
