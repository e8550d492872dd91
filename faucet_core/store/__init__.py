"""The faucet store: profile baselines (and later the catalog) in SQLite or PostgreSQL."""

from faucet_core.store.migrations import LATEST as SCHEMA_VERSION
from faucet_core.store.models import BaselineKey, ProfileRun, ProfilingOutcome, RunStatus
from faucet_core.store.profiles import ProfileStore
from faucet_core.store.url import ENV_VAR, default_sqlite_path, default_store_url

__all__ = [
    "ENV_VAR",
    "SCHEMA_VERSION",
    "BaselineKey",
    "ProfileRun",
    "ProfileStore",
    "ProfilingOutcome",
    "RunStatus",
    "default_sqlite_path",
    "default_store_url",
]
