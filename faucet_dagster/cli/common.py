"""Options shared by the faucet commands: code location and store."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from faucet_core.db.url import shown_url
from faucet_core.errors import ConfigError
from faucet_core.store import ProfileStore, default_store_url
from faucet_dagster.cli.discover import FOUND_NOWHERE, discover_location
from faucet_dagster.location import CodeLocation, load_code_location

__all__ = [
    "add_location_args",
    "announce_new_store",
    "location_from",
    "location_of",
    "location_target",
    "open_store",
]


def add_location_args(parser: argparse.ArgumentParser) -> None:
    """``-m`` / ``-f``; with neither, the location the working directory's pyproject.toml
    or workspace.yaml names (as the dagster CLI finds it)."""
    group = parser.add_mutually_exclusive_group()
    where = " (default: from pyproject.toml or workspace.yaml, as the dagster CLI finds it)"
    group.add_argument(
        "-m", "--module-name", dest="module", help="Dagster code location module" + where
    )
    group.add_argument("-f", "--python-file", dest="file", help="Dagster code location file")
    parser.add_argument(
        "-d",
        "--working-directory",
        dest="working_directory",
        help="folder to import the code location from, as the dagster CLI's -d (default: "
        "the working directory)",
    )
    parser.add_argument(
        "--store",
        help="store URL (default: the location's FaucetResource, else $FAUCET_STORE_URL, "
        "else the embedded SQLite file)",
    )


def location_target(args: argparse.Namespace) -> dict[str, str | None] | None:
    """Where the command's code location comes from: ``module``, ``file``,
    ``working_directory`` and ``source`` (the project file that named it), from ``-m`` /
    ``-f`` / ``-d``, else the project files of the working directory (or of ``-d``);
    None when nothing names one. What :func:`load_code_location` takes, so another
    process (a ``faucet serve`` worker) loads the same location."""
    folder = _working_directory(getattr(args, "working_directory", None))
    if getattr(args, "module", None) or getattr(args, "file", None):
        return {
            "module": args.module,
            "file": args.file,
            "working_directory": folder,
            "source": None,
        }
    found = discover_location(folder)
    if found is None:
        return None
    return {
        "module": found.module,
        "file": found.file,
        "working_directory": found.working_directory or folder,
        "source": found.source,
    }


def location_of(args: argparse.Namespace, *, needed_by: str | None = None) -> CodeLocation | None:
    """The location ``-m`` / ``-f`` give, else the one the working directory's project
    files name, else None; ``needed_by`` (a command) makes None an error saying how to
    give one."""
    return location_from(location_target(args), needed_by=needed_by)


def location_from(
    target: dict[str, str | None] | None, *, needed_by: str | None = None
) -> CodeLocation | None:
    """The location :func:`location_target` found (None: see :func:`location_of`)."""
    if target is not None:
        return load_code_location(
            target["module"],
            target["file"],
            working_directory=target["working_directory"],
            source=target["source"],
        )
    if needed_by:
        raise ConfigError(f"{needed_by} needs a code location: {FOUND_NOWHERE}")
    return None


def _working_directory(folder: str | None) -> str | None:
    """``-d``, checked and made absolute (None: the working directory)."""
    if folder is None:
        return None
    path = Path(folder).expanduser()
    if not path.is_dir():
        raise ConfigError(
            f"-d {folder!r}: no such folder; give the folder your code location's package "
            "is imported from (the project folder)"
        )
    return str(path.resolve())


def open_store(args: argparse.Namespace, location: CodeLocation | None) -> ProfileStore:
    url = args.store or (location.store_url() if location else default_store_url())
    announce_new_store(url)
    return ProfileStore(url)


def _is_new(url: str) -> bool:
    """Whether opening ``url`` would create a new, empty store (an absent or empty SQLite
    file, or a database without faucet's tables). Unknown (a bad URL, a database we cannot
    reach): ``False``, and opening the store reports the problem."""
    from sqlalchemy import create_engine, inspect

    from faucet_core.db.url import validate_store_url

    try:
        parsed = validate_store_url(url)
        if parsed.drivername.startswith("sqlite"):
            database = parsed.database or ""
            if database in ("", ":memory:"):
                return False
            path = Path(database)
            return not path.exists() or path.stat().st_size == 0
        engine = create_engine(parsed, connect_args={"connect_timeout": 5})
        try:
            with engine.connect() as conn:
                return not inspect(conn).has_table("faucet_meta")
        finally:
            engine.dispose()
    except Exception:  # unknown: say nothing here, the open names the problem
        return False


def announce_new_store(url: str) -> None:
    """Say on stderr when a command is about to create a new, empty store: the usual cause
    is running from a folder whose default store is not the one the pipeline writes."""
    if _is_new(url):
        print(
            f"faucet: no store at {shown_url(url)} yet: this command opens a new, empty one. "
            "If your store is elsewhere, pass --store URL, set FAUCET_STORE_URL or write "
            "store_url in a faucet.toml of your project folder",
            file=sys.stderr,
            flush=True,
        )
