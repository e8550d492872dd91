"""Where the store lives: ``FAUCET_STORE_URL`` wins, else an embedded SQLite file.

Default place of the SQLite file, first match wins:

1. ``$FAUCET_HOME/faucet.db``
2. ``$DAGSTER_HOME/faucet.db`` (next to the Dagster instance)
3. ``./.faucet/faucet.db`` (relative to the working directory)
"""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from faucet_core.errors import ConfigError

__all__ = ["ENV_VAR", "default_sqlite_path", "default_store_url", "normalize_url"]

ENV_VAR = "FAUCET_STORE_URL"
_EXAMPLES = "e.g. sqlite:////abs/path/faucet.db or postgresql+psycopg://user@host:5432/db"


def default_sqlite_path() -> Path:
    for var in ("FAUCET_HOME", "DAGSTER_HOME"):
        home = os.environ.get(var)
        if home:
            return Path(home) / "faucet.db"
    return Path.cwd() / ".faucet" / "faucet.db"


def default_store_url() -> str:
    """``FAUCET_STORE_URL`` if set, else the default SQLite file."""
    configured = os.environ.get(ENV_VAR, "").strip()
    if configured:
        return configured
    return f"sqlite:///{default_sqlite_path()}"


def normalize_url(url: str | URL | None) -> URL:
    """Parse a store URL; ``postgresql://`` uses psycopg 3. Raises ConfigError if unusable."""
    if url is None or (isinstance(url, str) and not url.strip()):
        url = default_store_url()
    try:
        parsed = make_url(url) if isinstance(url, str) else url
    except ArgumentError:
        raise ConfigError(f"store URL {str(url)!r} is not a SQLAlchemy URL ({_EXAMPLES})") from None
    backend = parsed.get_backend_name()
    if backend == "postgresql" and parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    if backend not in ("sqlite", "postgresql"):
        raise ConfigError(
            f"store URL {parsed.render_as_string(hide_password=True)!r}: backend {backend!r} "
            f"is not supported; use SQLite or PostgreSQL ({_EXAMPLES})"
        )
    if backend == "sqlite" and parsed.database not in (None, "", ":memory:"):
        folder = Path(parsed.database).expanduser().parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(
                f"store URL {str(url)!r}: cannot create the folder {str(folder)!r} for the SQLite "
                f"file ({exc.strerror or exc}); point the URL at a writable place"
            ) from None
    return parsed
