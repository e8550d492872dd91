"""The database under the store and the catalog: where it lives (URL), engines, tables,
migrations, the one write transaction (with its writer lock) and chunked ``IN`` lists."""

from faucet_core.db.chunks import CHUNK, chunks
from faucet_core.db.engine import (
    DEFAULT_BUSY_TIMEOUT,
    database_error,
    make_engine,
    reader,
    reason_of,
)
from faucet_core.db.migrations import LATEST, current_version, migrate
from faucet_core.db.transaction import CATALOG_LOCK, MIGRATION_LOCK, Transaction, take_lock
from faucet_core.db.url import (
    ENV_VAR,
    SUPPORTED_DRIVERS,
    default_sqlite_path,
    default_store_url,
    normalize_url,
    shown_url,
    validate_store_url,
)

__all__ = [
    "CATALOG_LOCK",
    "CHUNK",
    "DEFAULT_BUSY_TIMEOUT",
    "ENV_VAR",
    "LATEST",
    "MIGRATION_LOCK",
    "SUPPORTED_DRIVERS",
    "Transaction",
    "chunks",
    "current_version",
    "database_error",
    "default_sqlite_path",
    "default_store_url",
    "make_engine",
    "migrate",
    "normalize_url",
    "reader",
    "reason_of",
    "shown_url",
    "take_lock",
    "validate_store_url",
]
