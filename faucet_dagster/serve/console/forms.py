"""Reading the console's form posts: URL-encoded fields, or one multipart file upload,
under the API's body cap (:data:`faucet_dagster.serve.app.MAX_BODY_BYTES`)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qsl

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.types import Message

__all__ = ["MAX_FIELDS", "Form", "FormError", "read_form"]

MAX_FIELDS = 50


class FormError(Exception):
    """A form that cannot be read: ``status`` (400 or 413) and a one-line ``message``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Form:
    fields: dict[str, str]
    file_name: str = ""
    file_data: bytes = b""

    def get(self, name: str, default: str = "") -> str:
        return self.fields.get(name, default)


async def _body(request: Request, limit: int) -> bytes:
    too_large = FormError(413, f"the form is larger than {limit:,} bytes: send a smaller one")
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared[:20]) > limit:
        raise too_large
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


async def read_form(request: Request, limit: int) -> Form:
    """The form of a POST: ``application/x-www-form-urlencoded`` or ``multipart/form-data``
    (at most one file); a body over ``limit`` bytes is a 413, anything unreadable a 400."""
    body = await _body(request, limit)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind == "application/x-www-form-urlencoded":
        try:
            pairs = parse_qsl(
                body.decode("utf-8"), keep_blank_values=True, max_num_fields=MAX_FIELDS
            )
        except (UnicodeDecodeError, ValueError):
            raise FormError(400, "the form is not UTF-8 URL-encoded text") from None
        return Form(dict(pairs))
    if kind != "multipart/form-data":
        shown = kind[:60] or "none"
        raise FormError(
            400,
            f"content type {shown!r} is not a form: post application/x-www-form-urlencoded "
            "or multipart/form-data",
        )
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    try:
        async with Request(request.scope, replay).form(
            max_files=1, max_fields=MAX_FIELDS, max_part_size=limit
        ) as data:
            fields: dict[str, str] = {}
            name, blob = "", b""
            for key, value in data.multi_items():
                if isinstance(value, UploadFile):
                    if value.filename:
                        name, blob = value.filename, await value.read()
                else:
                    fields[key] = value
    except FormError:
        raise
    except Exception as exc:  # the multipart parser's own refusal (malformed, too many parts)
        detail = getattr(exc, "detail", None) or type(exc).__name__
        raise FormError(400, f"the form cannot be read: {detail}") from None
    return Form(fields, name, blob)
