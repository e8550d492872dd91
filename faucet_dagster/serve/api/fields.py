"""A request body's validation error named by the request's own fields.

pydantic's error locations mix the request's names with its own: a union adds the member
it tried (``select.function-after[_no_nul(), constrained-str]``), a list its index. A
client should read ``select`` or ``consumers.0.name``: :func:`field_error` walks the
location through the request model and keeps only field names and list indexes (and, for
an unknown field, the name the client sent).
"""

from __future__ import annotations

import typing
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

__all__ = ["field_error", "request_field"]


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The pydantic model an annotation holds (``Model``, ``list[Model]``, ``Model | None``)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def request_field(model: type[BaseModel], loc: Sequence[int | str], *, unknown: bool) -> str:
    """``loc`` as the request's names, dot-joined (``""`` for the body itself). ``unknown``:
    the error is an unknown field, whose name (the last part) is the client's own."""
    parts: list[str] = []
    current: type[BaseModel] | None = model
    for i, part in enumerate(loc):
        if isinstance(part, int):
            parts.append(str(part))
        elif current is not None and part in current.model_fields:
            parts.append(part)
            current = _model_in(current.model_fields[part].annotation)
        elif unknown and i == len(loc) - 1:
            parts.append(part)
        # else: a union member's or a validator's tag, not a name of the request
    return ".".join(parts)


def field_error(model: type[BaseModel], exc: ValidationError) -> tuple[str, str]:
    """(field, message) of ``exc``: the first field it names; when the field is a union
    (several errors at it), the deepest of them, with the rule it breaks or else the
    types it may have."""
    errors = exc.errors()
    named = [
        (request_field(model, e["loc"], unknown=e["type"] == "extra_forbidden"), e) for e in errors
    ]
    top = named[0][0].split(".")[0]
    same = [(f, e) for f, e in named if f.split(".")[0] == top]
    field = max((f for f, _ in same), key=lambda f: f.count(".") + bool(f))
    at_field = [e for f, e in same if f == field]
    # a value of the right type that breaks a rule says so alone; wrong types are listed
    ruled = [e for e in at_field if not str(e["type"]).endswith("_type")]
    messages: list[str] = []
    for e in ruled[:1] or at_field:
        msg = "unknown field" if e["type"] == "extra_forbidden" else e["msg"]
        msg = msg.removeprefix("Value error, ")
        if msg not in messages:
            messages.append(msg)
    text = messages[0] + "".join(f", or {m[0].lower()}{m[1:]}" for m in messages[1:])
    return field or "body", text
