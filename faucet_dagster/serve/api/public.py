"""Messages fit for a response: the store's location taken out.

The engine's errors name the store (``no dataset 'x' in the catalog sqlite:////srv/...``,
``cannot read the catalog postgresql://faucet:***@db/...``) because on the command line
that tells the user which store they read. Over HTTP any viewer would learn where the
store lives, so each answer's message goes through :func:`public_message`: the store's
URL (in each form it is written) and the database file's path are dropped, with the
``at`` / ``in`` / ``of`` that led to them. Dataset URIs (``postgres://warehouse/...``)
are the catalog's content and stay.
"""

from __future__ import annotations

import re

from sqlalchemy import Engine

from faucet_core.redact import redact

__all__ = ["public_message"]


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
    return text
