"""The exceptions faucet raises.

Every error derives from :class:`FaucetError`, so callers can catch one type.
Messages name the bad value, the rule it broke and how to fix it.
"""

from __future__ import annotations

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
