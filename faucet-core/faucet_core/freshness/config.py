"""``FreshnessConfig``: the few settings of a learned freshness check.

Nothing here is a threshold to tune by default: the cadence is learned from the asset's
materialization history. ``max_lag`` is the explicit override for a user who wants one.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from faucet_core.config import OnDrift
from faucet_core.errors import ConfigError, format_validation_error

__all__ = ["FreshnessConfig", "load_freshness_config"]


class FreshnessConfig(BaseModel):
    """The ``freshness:`` block of one asset (or of every asset of a factory call)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    min_history: int = Field(
        default=5,
        ge=2,
        le=10_000,
        description="Intervals between materializations needed before the cadence is judged.",
    )
    history: int = Field(
        default=200,
        ge=3,
        le=10_000,
        description="Newest materializations the cadence is learned from.",
    )
    max_lag: dt.timedelta | None = Field(
        default=None,
        description="Explicit override: overdue once the last update is older than this.",
    )
    timezone: str = Field(
        default="UTC",
        description="IANA zone of the schedule (e.g. 'Europe/Berlin'), for daily cadences.",
    )
    on_overdue: OnDrift = Field(default=OnDrift.WARN, description="warn | notify | fail")

    @field_validator("max_lag")
    @classmethod
    def _positive_lag(cls, value: dt.timedelta | None) -> dt.timedelta | None:
        if value is not None and value.total_seconds() <= 0:
            raise ValueError("max_lag must be a positive duration, e.g. '26h' as 93600 seconds")
        return value

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(
                "not a known IANA time zone: use a name such as 'UTC' or 'America/New_York'"
            ) from None
        return value

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)


def load_freshness_config(
    data: Mapping[str, Any] | FreshnessConfig | None, *, where: str = "freshness"
) -> FreshnessConfig:
    """Validate a ``freshness:`` mapping, raising :class:`ConfigError` on a bad value."""
    if data is None:
        return FreshnessConfig()
    if isinstance(data, FreshnessConfig):
        return data
    if not isinstance(data, Mapping):
        raise ConfigError(
            f"{where}: expected a mapping of freshness fields, got {type(data).__name__}"
        )
    try:
        return FreshnessConfig.model_validate(dict(data))
    except ValidationError as exc:
        raise ConfigError(format_validation_error(exc, where)) from None
