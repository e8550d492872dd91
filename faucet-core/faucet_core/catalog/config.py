"""The ``catalog:`` block: declared owners and consumers of datasets.

.. code-block:: yaml

    catalog:
      url: sqlite:./faucet-catalog.db      # optional; default: the faucet store
      datasets:
        - dataset: file://./out/records.jsonl   # canonical URI, or the id
          owners: [data-platform]
          consumers:
            - {name: records-dashboard, kind: dashboard, contact: "#analytics", columns: [id]}

Merged into the catalog after every run that touches the dataset: owners replace the
list when given; consumers are upserted by name.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from faucet_core.catalog.model import Consumer
from faucet_core.catalog.uri import ID_LENGTH, MIN_ID_PREFIX, is_id_prefix, looks_like_uri
from faucet_core.errors import ConfigError, format_validation_error

__all__ = ["CatalogConfig", "ConsumerConfig", "DatasetAnnotation", "load_catalog_config"]


class ConsumerConfig(BaseModel):
    """A declared consumer: what the catalog cannot see (dashboards, models, exports)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=256)
    kind: str = Field(default="", max_length=64, description="free-form: dashboard, model, ...")
    contact: str = Field(default="", max_length=512)
    columns: list[str] = Field(default_factory=list, description="what it reads; empty = all")

    def to_consumer(self) -> Consumer:
        return Consumer(self.name, self.kind, self.contact, tuple(self.columns))


class DatasetAnnotation(BaseModel):
    """Owners and consumers of one dataset."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    dataset: str = Field(description="canonical URI as `faucet catalog datasets` prints it, or id")
    owners: list[str] | None = None
    consumers: list[ConsumerConfig] = Field(default_factory=list)

    @field_validator("dataset")
    @classmethod
    def _ref(cls, value: str) -> str:
        value = value.strip()
        if looks_like_uri(value) or is_id_prefix(value):
            return value
        raise ValueError(
            f"{value!r} is neither a dataset URI (scheme://..., e.g. dagster://orders) nor an "
            f"id ({MIN_ID_PREFIX} to {ID_LENGTH} hex digits, as `faucet catalog datasets` "
            "prints it)"
        )

    @field_validator("consumers")
    @classmethod
    def _unique(cls, value: list[ConsumerConfig]) -> list[ConsumerConfig]:
        names = [c.name for c in value]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"consumer name(s) {', '.join(dupes)} listed twice: names are unique")
        return value


class CatalogConfig(BaseModel):
    """The ``catalog:`` block."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    url: str | None = Field(default=None, description="store URL; default: the faucet store")
    datasets: list[DatasetAnnotation] = Field(default_factory=list)


def load_catalog_config(value: Any, *, where: str = "catalog") -> CatalogConfig:
    """A :class:`CatalogConfig` from a mapping (or one already built); ConfigError if invalid."""
    if value is None:
        return CatalogConfig()
    if isinstance(value, CatalogConfig):
        return value
    try:
        return CatalogConfig.model_validate(value)
    except ValidationError as exc:
        raise ConfigError(format_validation_error(exc, where)) from None
