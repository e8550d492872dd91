"""The request bodies of ``faucet serve``'s API and how a request is read: JSON objects,
checked for depth and number size before they are parsed
(:mod:`faucet_core.json_limits`), then validated by pydantic models with
``extra="forbid"`` and the store's column sizes. A malformed body or a wrong field is a
400 naming the field; past :data:`MAX_BODY_BYTES` a 413.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)
from starlette.requests import Request
from starlette.responses import JSONResponse

from faucet_core.db.schema import audit_log, catalog_consumers, catalog_datasets
from faucet_core.impact import DEFAULT_DEPTH
from faucet_core.json_limits import JsonLimitError, check_json
from faucet_dagster.serve.api.fields import field_error
from faucet_dagster.serve.api.guard import BadRequest, error

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_DEPTH",
    "AnnotateRequest",
    "ConsumerIn",
    "PlanRequest",
    "dataset_ref",
    "read_json",
    "width",
]

MAX_BODY_BYTES = 1024 * 1024
MAX_DEPTH = 50
MAX_NAME = 1024  # an owner or a column name (stored inside JSON text, so no column size)
MAX_SELECTIONS = 100
"""Selections one ``POST /v1/plan`` may list (one change set)."""
M = TypeVar("M", bound=BaseModel)


def width(column: Any) -> int:
    """The size of a store column (a string's longest value)."""
    return int(column.type.length)


def _no_nul(value: str) -> str:
    if "\x00" in value:
        raise ValueError("holds a NUL character (\\u0000): remove it")
    return value


_NoNul = AfterValidator(_no_nul)
# strings as long as the store's columns hold them, and no NUL (PostgreSQL refuses it)
_Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME), _NoNul]
_ConsumerName = Annotated[
    str, Field(min_length=1, max_length=width(catalog_consumers.c.name)), _NoNul
]
_Kind = Annotated[str, Field(max_length=width(catalog_consumers.c.kind)), _NoNul]
_Contact = Annotated[str, Field(max_length=width(catalog_consumers.c.contact)), _NoNul]


# -- request models ------------------------------------------------------------------------
class PlanRequest(BaseModel):
    """``POST /v1/plan``: the body of ``faucet plan --impact --select ... [--sample ...]``."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    select: _Name | list[_Name] | None = None
    asset: _Name | None = None
    sample: list[dict[str, Any]] | None = None
    impact: bool = True
    depth: int = Field(DEFAULT_DEPTH, ge=0, le=MAX_DEPTH)

    @model_validator(mode="after")
    def _one_asset(self) -> PlanRequest:
        if (self.select is None) == (self.asset is None):
            raise ValueError(
                "give exactly one of `select` (an asset key a/b, a Dagster selection such as "
                "group:crm, or a list of them) or `asset` (an asset key)"
            )
        if isinstance(self.select, list) and not 1 <= len(self.select) <= MAX_SELECTIONS:
            raise ValueError(f"`select` lists 1 to {MAX_SELECTIONS} selections")
        if not self.impact:
            raise ValueError("`impact` must be true: the impact plan is the only plan")
        return self

    @property
    def selections(self) -> list[str]:
        if isinstance(self.select, list):
            return list(self.select)
        return [self.select or self.asset or ""]

    @property
    def key(self) -> str:
        """What the audit log names: the selection(s), comma-separated."""
        return ",".join(self.selections)[: width(audit_log.c.target)]


class ConsumerIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    name: _ConsumerName
    kind: _Kind = ""
    contact: _Contact = ""
    columns: list[_Name] = Field(default_factory=list)


class AnnotateRequest(BaseModel):
    """``POST /v1/catalog/datasets/{id}/consumers``: as ``faucet catalog annotate``."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    owners: list[_Name] | None = None
    consumers: list[ConsumerIn] = Field(default_factory=list)
    replace: bool = False

    @model_validator(mode="after")
    def _something(self) -> AnnotateRequest:
        if self.owners is None and not self.consumers and not self.replace:
            raise ValueError("nothing to annotate: give `owners`, `consumers` or `replace`")
        names = [c.name for c in self.consumers]
        if len(set(names)) != len(names):
            raise ValueError("`consumers` names a consumer twice: names are unique")
        return self


# -- reading a request ---------------------------------------------------------------------
_MAX_REF = width(catalog_datasets.c.uri)


def _field_error(model: type[BaseModel], exc: ValidationError) -> JSONResponse:
    field, msg = field_error(model, exc)
    return error(400, f"{field}: {msg}", field=field)


def _bad_body(message: str) -> BadRequest:
    return BadRequest(error(400, f"body: {message}", field="body"))


async def read_json(request: Request, model: type[M]) -> M:
    declared = request.headers.get("content-length", "")
    too_large = error(413, f"the request body exceeds {MAX_BODY_BYTES} bytes")
    if declared.isascii() and declared.isdigit() and int(declared[:20]) > MAX_BODY_BYTES:
        raise BadRequest(too_large)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise BadRequest(too_large)
        chunks.append(chunk)
    try:
        text = b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _bad_body(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    try:
        check_json(text)
        data = json.loads(text)
    except JsonLimitError as exc:
        raise _bad_body(str(exc)) from None
    except json.JSONDecodeError as exc:
        raise _bad_body(f"malformed JSON ({exc}); send one JSON object") from None
    if not isinstance(data, dict):
        raise _bad_body("send one JSON object")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise BadRequest(_field_error(model, exc)) from None


def dataset_ref(request: Request) -> str:
    """The ``{id}`` of the path: a dataset id, an id prefix or a dataset URI."""
    ref = str(request.path_params["id"])
    if len(ref) > _MAX_REF or "\x00" in ref:
        shown = repr(ref) if len(ref) <= 40 else repr(ref[:40]) + "..."
        rule = f"is longer than {_MAX_REF} characters" if len(ref) > _MAX_REF else "holds a NUL"
        raise BadRequest(error(400, f"id: {shown} {rule}: give a dataset id or URI", field="id"))
    return ref
