"""``faucet.toml``: a project folder names its store once, for every faucet command run there.

The file is looked for in the working directory, then in each parent folder; the first one
found is used. It holds one setting::

    # faucet.toml
    store_url = "sqlite:///.dagster_home/faucet.db"

A relative SQLite path is relative to the folder of ``faucet.toml`` (not to the working
directory), so the file works from any subfolder. ``FAUCET_STORE_URL`` still wins over it;
it wins over ``FAUCET_HOME`` and ``DAGSTER_HOME`` (see :mod:`faucet_core.db.url`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from faucet_core.errors import ConfigError
from faucet_core.redact import redact

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["PROJECT_FILE", "ProjectStore", "find_project_store"]

PROJECT_FILE = "faucet.toml"
_KEYS = ("store_url",)


@dataclass(frozen=True)
class ProjectStore:
    """The store a ``faucet.toml`` names: its URL (relative SQLite paths made absolute) and
    the file it came from."""

    url: str
    path: Path


def find_project_store(start: Path | None = None) -> ProjectStore | None:
    """The store of the nearest ``faucet.toml`` at or above ``start`` (default: the working
    directory), else ``None``. Raises :class:`ConfigError` naming the file, the problem and
    the fix when the file is unreadable or its ``store_url`` is not a usable URL."""
    try:
        folder = (start or Path.cwd()).resolve()
    except OSError:  # the working directory was deleted under us
        return None
    for candidate in (folder, *folder.parents):
        path = candidate / PROJECT_FILE
        if path.is_file():
            return _read(path)
    return None


def _read(path: Path) -> ProjectStore:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror}); fix its permissions") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(
            f'{path}: not valid TOML ({exc}); write store_url = "sqlite:///path/faucet.db"'
        ) from None
    unknown = sorted(set(data) - set(_KEYS))
    if unknown:
        raise ConfigError(
            f"{path}: unknown setting {unknown[0]!r}; the file holds only store_url (a typo?)"
        )
    url = data.get("store_url")
    if not isinstance(url, str) or not url.strip():
        raise ConfigError(
            f"{path}: store_url must be a non-empty string, e.g. "
            'store_url = "sqlite:///.dagster_home/faucet.db" or a postgresql+psycopg:// URL'
        )
    return ProjectStore(url=_anchored(url.strip(), path), path=path)


def _anchored(url: str, path: Path) -> str:
    """A relative SQLite path made relative to the folder of ``faucet.toml``."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        # An unparsed URL's credentials cannot be found reliably: show only what follows '@'.
        shown = f"***@{url.rsplit('@', 1)[1]}" if "@" in url else redact(url)
        raise ConfigError(
            f"{path}: store_url {shown!r} is not a SQLAlchemy URL; write e.g. "
            "sqlite:///.dagster_home/faucet.db or postgresql+psycopg://user@host:5432/db"
        ) from None
    database = parsed.database
    if not parsed.drivername.startswith("sqlite") or not database or database == ":memory:":
        return url
    if Path(database).is_absolute():
        return url
    absolute = (path.parent / database).resolve()
    return parsed.set(database=str(absolute)).render_as_string(hide_password=False)
