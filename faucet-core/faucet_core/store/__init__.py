"""The faucet store: profile baselines (and later the catalog) in SQLite or PostgreSQL."""

from faucet_core.db.migrations import LATEST as SCHEMA_VERSION
from faucet_core.db.url import (
    ENV_VAR,
    SUPPORTED_DRIVERS,
    default_sqlite_path,
    default_store_url,
    validate_store_url,
)
from faucet_core.redact import redact
from faucet_core.store.models import (
    BaselineKey,
    ProfileRun,
    ProfilingOutcome,
    RunStatus,
    SkippedRun,
)
from faucet_core.store.profiles import HistoryRead, InTransaction, ProfileStore

__all__ = [
    "ENV_VAR",
    "SCHEMA_VERSION",
    "SUPPORTED_DRIVERS",
    "BaselineKey",
    "HistoryRead",
    "InTransaction",
    "ProfileRun",
    "ProfileStore",
    "ProfilingOutcome",
    "RunStatus",
    "SkippedRun",
    "default_sqlite_path",
    "default_store_url",
    "redact",
    "validate_store_url",
]
