"""Where the store lives: ``FAUCET_STORE_URL`` wins, then the ``store_url`` of the nearest
``faucet.toml`` (working directory or a parent, see :mod:`faucet_core.db.project`), else an
embedded SQLite file.

Default place of the SQLite file, first match wins:

1. ``$FAUCET_HOME/faucet.db``
2. ``$DAGSTER_HOME/faucet.db`` (next to the Dagster instance)
3. ``./.faucet/faucet.db`` (relative to the working directory)

:func:`validate_store_url` checks a URL without touching the disk or the network (code
locations call it when they load); :func:`normalize_url` also makes the SQLite folder.
Every message shows the URL with its password replaced by ``***``.
"""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from faucet_core.errors import ConfigError
from faucet_core.redact import redact

__all__ = [
    "ENV_VAR",
    "SUPPORTED_DRIVERS",
    "default_sqlite_path",
    "default_store_url",
    "normalize_url",
    "shown_url",
    "validate_store_url",
]

ENV_VAR = "FAUCET_STORE_URL"
SUPPORTED_DRIVERS = (
    "sqlite",
    "sqlite+pysqlite",
    "postgresql",
    "postgresql+psycopg",
    "postgresql+psycopg2",
)
"""The URL schemes faucet accepts (``postgresql`` means psycopg 3)."""
_EXAMPLES = "e.g. sqlite:////abs/path/faucet.db or postgresql+psycopg://user@host:5432/db"


def default_sqlite_path() -> Path:
    for var in ("FAUCET_HOME", "DAGSTER_HOME"):
        home = os.environ.get(var)
        if home:
            return Path(home) / "faucet.db"
    return Path.cwd() / ".faucet" / "faucet.db"


def default_store_url() -> str:
    """``FAUCET_STORE_URL`` if set, else the ``store_url`` of the nearest ``faucet.toml``
    (:mod:`faucet_core.db.project`), else the default SQLite file."""
    configured = os.environ.get(ENV_VAR, "").strip()
    if configured:
        return configured
    from faucet_core.db.project import find_project_store

    project = find_project_store()
    if project is not None:
        return project.url
    return f"sqlite:///{default_sqlite_path()}"


def shown_url(url: str | URL) -> str:
    """A URL as messages show it: the password (parsed or not) replaced by ``***``."""
    if isinstance(url, URL):
        return redact(url.render_as_string(hide_password=True))
    return redact(str(url))


def validate_store_url(url: str | URL | None) -> URL:
    """Parse a store URL and check it names a supported database and driver; nothing is
    opened or created. ``None`` or blank: ``FAUCET_STORE_URL`` or the default SQLite file.
    ``postgresql://`` becomes ``postgresql+psycopg://``. Raises :class:`ConfigError`."""
    if url is None or (isinstance(url, str) and not url.strip()):
        url = default_store_url()
    try:
        parsed = make_url(url.strip() if isinstance(url, str) else url)
    except (ArgumentError, ValueError, TypeError):
        raise ConfigError(
            f"store URL {shown_url(str(url))!r} is not a SQLAlchemy URL ({_EXAMPLES})"
        ) from None
    backend = parsed.get_backend_name()
    if backend == "postgresql" and parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    supported = ", ".join(SUPPORTED_DRIVERS)
    if backend not in ("sqlite", "postgresql"):
        raise ConfigError(
            f"store URL {shown_url(parsed)!r}: backend {backend!r} is not supported; use "
            f"SQLite or PostgreSQL (supported schemes: {supported}; {_EXAMPLES})"
        )
    if parsed.drivername not in SUPPORTED_DRIVERS:
        raise ConfigError(
            f"store URL {shown_url(parsed)!r}: driver {parsed.drivername!r} is not supported "
            f"(supported schemes: {supported}); use postgresql+psycopg://"
        )
    return parsed


def normalize_url(url: str | URL | None) -> URL:
    """:func:`validate_store_url`, then make the folder of a SQLite file. Raises ConfigError
    if the URL is unusable."""
    parsed = validate_store_url(url)
    database = parsed.database
    if parsed.get_backend_name() == "sqlite" and database and database != ":memory:":
        folder = Path(database).expanduser().parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(
                f"store URL {shown_url(parsed)!r}: cannot create the folder {str(folder)!r} for "
                f"the SQLite file ({exc.strerror or exc}); point the URL at a writable place"
            ) from None
    return parsed
