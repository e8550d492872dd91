"""The exceptions faucet raises.

Every error derives from :class:`FaucetError`, so callers can catch one type.
Messages name the bad value, the rule it broke and how to fix it. The helpers below
write someone else's exception into one of ours: its first line (:func:`first_line`,
:func:`typed_line`) and a pydantic validation error as one line per problem
(:func:`format_validation_error`); :func:`faucet_core.text.clip` cuts a line to a length.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pydantic is imported by whoever validates
    from pydantic import ValidationError

__all__ = [
    "CatalogError",
    "ConfigError",
    "FaucetError",
    "ImpactError",
    "LineageError",
    "NotifyError",
    "ProfilingInputError",
    "SketchError",
    "StoreCorruptError",
    "StoreError",
    "StoreSchemaError",
    "first_line",
    "format_validation_error",
    "message_line",
    "typed_line",
]


class FaucetError(Exception):
    """Root of every error faucet raises on purpose."""


class ConfigError(FaucetError, ValueError):
    """A configuration value is invalid (names the field, the value and the rule)."""


class ProfilingInputError(FaucetError, TypeError):
    """The data handed to the profiler cannot be profiled as given."""


class SketchError(FaucetError, ValueError):
    """Serialized sketches are unreadable, or two profiles cannot be merged."""


class StoreError(FaucetError):
    """The profile/catalog store failed to read or write."""


class StoreSchemaError(StoreError):
    """The store's schema version is unknown or newer than this faucet."""


class StoreCorruptError(StoreError):
    """A stored row cannot be decoded; the message names its key."""


class CatalogError(FaucetError):
    """A catalog lookup or annotation failed."""


class LineageError(FaucetError, ValueError):
    """An OpenLineage event is malformed."""


class ImpactError(FaucetError):
    """An impact plan cannot be computed."""


class NotifyError(FaucetError):
    """A notification could not be built or delivered."""


# -- another library's exception, as a line of ours ------------------------------------------


def message_line(exc: BaseException) -> str:
    """The first line of ``exc``'s message once its surrounding blanks are stripped; ``''``
    when it has no message."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else ""


def first_line(exc: BaseException) -> str:
    """:func:`message_line`, or the exception's type name when it has no message."""
    return message_line(exc) or type(exc).__name__


def typed_line(exc: BaseException) -> str:
    """``Type: first line`` (:func:`message_line`; ``Type: `` when there is none)."""
    return f"{type(exc).__name__}: {message_line(exc)}"


# -- pydantic -----------------------------------------------------------------------------


def _describe(error: Mapping[str, Any], where: str) -> str:
    loc = ".".join(str(part) for part in error.get("loc", ()) if part != "__root__")
    path = f"{where}.{loc}" if loc and where else (loc or where or "config")
    message = str(error.get("msg", "invalid value"))
    message = message.removeprefix("Value error, ")
    if error.get("type") == "extra_forbidden":
        return f"{path}: unknown field; remove it or check its spelling"
    if error.get("type") == "missing":
        return f"{path}: required field is missing"
    value = error.get("input")
    if isinstance(value, Mapping):
        return f"{path}: {message}"
    try:
        shown = json.dumps(value, default=str)
    except (TypeError, ValueError):
        shown = repr(value)
    return f"{path}: {shown} is invalid: {message}"


def format_validation_error(exc: ValidationError, where: str = "profiling") -> str:
    """Render a pydantic error as one line per problem: path, value and rule."""
    return "\n".join(_describe(e, where) for e in exc.errors())
