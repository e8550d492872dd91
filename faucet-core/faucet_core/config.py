"""Configuration models: ``ProfilingConfig`` and the policy that classifies columns.

The field names, defaults and rules follow the profiling spec. The models are
strict (``extra="forbid"``) so a misspelt key fails loudly, and frozen so a
config handed to a check cannot change under it.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from faucet_core.errors import ConfigError, format_validation_error

__all__ = [
    "DEFAULT_SENSITIVITY",
    "DriftMethod",
    "OnDrift",
    "PolicyConfig",
    "PolicyRule",
    "ProfilingConfig",
    "ValueDetector",
    "format_validation_error",
    "load_profiling_config",
    "profiling_json_schema",
]


class DriftMethod(str, Enum):
    """How the numeric metrics are compared with their baseline series."""

    ZSCORE = "zscore"
    IQR = "iqr"


class OnDrift(str, Enum):
    """What a drifting run does."""

    WARN = "warn"
    NOTIFY = "notify"
    FAIL = "fail"


class ValueDetector(str, Enum):
    """Built-in detectors that recognise sensitive values by their shape."""

    EMAIL = "email"
    PHONE = "phone"
    PAYMENT_CARD = "payment_card"
    IBAN = "iban"
    IP_ADDRESS = "ip_address"
    US_SSN = "us_ssn"


DEFAULT_SENSITIVITY: dict[DriftMethod, float] = {DriftMethod.ZSCORE: 3.0, DriftMethod.IQR: 1.5}

# allow_inf_nan=False: an infinite or NaN sensitivity (or share) would silence or break detection.
_STRICT = ConfigDict(extra="forbid", frozen=True, use_enum_values=False, allow_inf_nan=False)


class PolicyRule(BaseModel):
    """One classification: columns that match it publish no top values."""

    model_config = _STRICT

    label: str = Field(min_length=1, description="Name of the class, e.g. 'pii.email'.")
    columns: list[str] = Field(
        default=[], description="Top-level column names; 'prefix*' and other globs allowed."
    )
    fields: list[str] = Field(
        default=[],
        description="Field names inside nested objects (any depth); globs allowed.",
    )
    detectors: list[ValueDetector] = Field(
        default=[], description="Value detectors that classify a column by its values."
    )
    min_share: float = Field(
        default=0.5,
        gt=0.0,
        le=1.0,
        description="Share of sampled non-null values a detector must match.",
    )

    @model_validator(mode="after")
    def _needs_a_matcher(self) -> PolicyRule:
        if not (self.columns or self.fields or self.detectors):
            raise ValueError(
                f"policy rule {self.label!r} matches nothing: give columns, fields or detectors"
            )
        return self


class PolicyConfig(BaseModel):
    """The ``policy:`` block: how columns are classified as sensitive."""

    model_config = _STRICT

    rules: list[PolicyRule] = Field(default=[], description="Classification rules.")

    @classmethod
    def pii(cls) -> PolicyConfig:
        """A ready-made policy: every built-in detector plus common PII column names."""
        return cls(
            rules=[
                PolicyRule(
                    label="pii",
                    columns=["*email*", "*phone*", "ssn", "*_ssn", "iban", "card_number"],
                    fields=["*email*", "*phone*", "ssn", "iban", "card_number"],
                    detectors=list(ValueDetector),
                ),
            ]
        )


class ProfilingConfig(BaseModel):
    """The ``profiling:`` block: what to profile and how drift is judged."""

    model_config = _STRICT

    columns: list[str] | None = Field(
        default=None, description="Only these top-level columns (default: all)."
    )
    exclude: list[str] = Field(
        default=["_faucet_*"], description="Exact names or 'prefix*' globs to skip."
    )
    max_columns: int = Field(
        default=200, ge=1, description="Cap on profiled columns per run; the rest are counted."
    )
    top_values: int = Field(
        default=10, ge=0, le=1000, description="Frequent values kept per column; 0 disables."
    )
    categorical_max_distinct: int = Field(
        default=100,
        ge=1,
        le=100_000,
        description="Distinct estimate above which a column publishes no values.",
    )
    window: int = Field(default=20, ge=2, le=1000, description="Rolling baseline size in runs.")
    min_history: int = Field(default=5, ge=2, description="Baseline runs before detection starts.")
    memory: int = Field(
        default=365,
        ge=0,
        le=100_000,
        description=(
            "Runs before the window that can explain a finding: a change two of them "
            "made as well is the column's own past (0: none)."
        ),
    )
    method: DriftMethod = Field(
        default=DriftMethod.ZSCORE, description="zscore or iqr, for the numeric metrics."
    )
    sensitivity: float | None = Field(
        default=None,
        gt=0.0,
        description="z-score threshold (default 3.0) or IQR fence multiplier (default 1.5).",
    )
    new_value_min_share: float = Field(
        default=0.05,
        gt=0.0,
        le=1.0,
        description="Share a new value or JSON type must reach to be reported.",
    )
    psi_threshold: float = Field(
        default=0.2, gt=0.0, description="PSI above which the value distribution drifted."
    )
    on_drift: OnDrift = Field(default=OnDrift.WARN, description="warn | notify | fail")
    policy: PolicyConfig | None = Field(
        default=None, description="Column classification; classified columns publish no values."
    )

    @model_validator(mode="after")
    def _check_window(self) -> ProfilingConfig:
        if self.window < self.min_history:
            raise ValueError(
                f"window ({self.window}) must be >= min_history ({self.min_history}): "
                f"raise window or lower min_history"
            )
        if self.columns is not None and len(self.columns) == 0:
            raise ValueError("columns is empty: leave it out to profile every column")
        return self

    @property
    def effective_sensitivity(self) -> float:
        """The sensitivity in force: the configured one or the method's default."""
        if self.sensitivity is not None:
            return self.sensitivity
        return DEFAULT_SENSITIVITY[self.method]


def load_profiling_config(
    data: Mapping[str, Any] | ProfilingConfig | None, *, where: str = "profiling"
) -> ProfilingConfig:
    """Validate a ``profiling:`` mapping, raising :class:`ConfigError` on a bad value."""
    if data is None:
        return ProfilingConfig()
    if isinstance(data, ProfilingConfig):
        return data
    if not isinstance(data, Mapping):
        raise ConfigError(
            f"{where}: expected a mapping of profiling fields, got {type(data).__name__}"
        )
    try:
        return ProfilingConfig.model_validate(dict(data))
    except ValidationError as exc:
        raise ConfigError(format_validation_error(exc, where)) from None


def profiling_json_schema() -> dict[str, Any]:
    """The JSON Schema of the ``profiling:`` block."""
    schema = ProfilingConfig.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "faucet profiling"
    return schema
