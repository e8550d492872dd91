"""``FaucetResource``: where profiles, baselines and the catalog are stored."""

from __future__ import annotations

from typing import Any

import dagster as dg
from pydantic import ConfigDict, Field, PrivateAttr, field_validator

from faucet_core.catalog import CatalogConfig, load_catalog_config
from faucet_core.errors import ConfigError
from faucet_core.store import ENV_VAR, ProfileStore, default_store_url, redact, validate_store_url

__all__ = ["FaucetResource", "check_store_url"]


def check_store_url(value: Any) -> Any:
    """Validate a ``store_url`` when the code location loads (a ``dg.EnvVar`` by the value
    it has now, if any; ``None`` by ``FAUCET_STORE_URL`` or the default file), so an
    unsupported database fails at load, naming the supported ones, not at the first check.
    Raises ValueError with the password replaced by ``***``."""
    if isinstance(value, dg.EnvVar):
        current = value.get_value()
        if current is None:
            return value  # Dagster reports an unset variable when it resolves it
        url: Any = current
    else:
        url = value
    if url is not None and not isinstance(url, str):
        raise ValueError(f"store_url must be a string URL, not a {type(url).__name__}")
    try:
        validate_store_url(url)
    except ConfigError as exc:
        raise ValueError(str(exc)) from None
    return value


class FaucetResource(dg.ConfigurableResource):
    """The faucet store, bound under the resource key ``"faucet"``.

    ``store_url`` is any SQLAlchemy URL of SQLite or PostgreSQL. Left empty it is
    read from ``FAUCET_STORE_URL``, else an embedded SQLite file next to the
    Dagster instance (``$DAGSTER_HOME/faucet.db``). Pass ``dg.EnvVar("...")``
    to keep a PostgreSQL password out of code. The URL is checked when the code
    location loads; no message or repr ever shows its password.
    """

    # Validation errors must not echo the URL they reject (it may hold a password).
    model_config = ConfigDict(hide_input_in_errors=True)

    store_url: str | None = Field(
        default=None,
        validate_default=True,
        description=f"SQLAlchemy URL of the store; default: ${ENV_VAR} or $DAGSTER_HOME/faucet.db",
    )
    catalog: dict[str, Any] | None = Field(
        default=None,
        description="The catalog: block (url, datasets: owners and consumers), merged into the "
        "catalog after every run that touches a listed dataset; see docs/catalog.md",
    )
    _store: ProfileStore | None = PrivateAttr(default=None)
    _url: str | None = PrivateAttr(default=None)

    @field_validator("store_url", mode="before")
    @classmethod
    def _valid_store_url(cls, value: Any) -> Any:
        return check_store_url(value)

    @field_validator("catalog")
    @classmethod
    def _valid_catalog(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        try:
            load_catalog_config(value)
        except ConfigError as exc:
            raise ValueError(redact(str(exc))) from None
        return value

    def __repr_args__(self) -> Any:
        for name, value in super().__repr_args__():
            yield name, redact(value) if isinstance(value, str) else value

    def catalog_config(self) -> CatalogConfig:
        """The validated ``catalog:`` block (empty when not set)."""
        return load_catalog_config(self.catalog)

    def resolved_url(self) -> str:
        """``store_url``, else the default (``FAUCET_STORE_URL``, the nearest
        ``faucet.toml``, the default SQLite file), as it stood when the run's resources
        were set up."""
        if self.store_url:
            return self.store_url
        return self._url or default_store_url()

    def setup_for_execution(self, context: Any) -> None:
        """Pin the default store when the run starts. The default reads the working
        directory (the nearest ``faucet.toml``, ``./.faucet/faucet.db``), and a step may
        move it in process: dagster-dbt's column-metadata threads each ``pushd`` the dbt
        project and can leave the process there, so a check after a dbt asset would open
        another store and find no baseline."""
        if not self.store_url:
            self._url = default_store_url()

    def get_store(self) -> ProfileStore:
        """The store (opened and migrated on first use, then reused)."""
        if self._store is None:
            self._store = ProfileStore(self.resolved_url())
        return self._store

    def teardown_after_execution(self, context: Any) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None
        self._url = None
