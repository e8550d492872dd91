"""Options shared by the faucet commands: code location and store."""

from __future__ import annotations

import argparse

from faucet_core.store import ProfileStore, default_store_url
from faucet_dagster.location import CodeLocation, load_code_location

__all__ = ["add_location_args", "location_of", "open_store"]


def add_location_args(parser: argparse.ArgumentParser, *, required: bool = False) -> None:
    group = parser.add_mutually_exclusive_group(required=required)
    group.add_argument("-m", "--module-name", dest="module", help="Dagster code location module")
    group.add_argument("-f", "--python-file", dest="file", help="Dagster code location file")
    parser.add_argument(
        "--store",
        help="store URL (default: the location's FaucetResource, else $FAUCET_STORE_URL, "
        "else the embedded SQLite file)",
    )


def location_of(args: argparse.Namespace) -> CodeLocation | None:
    if getattr(args, "module", None) or getattr(args, "file", None):
        return load_code_location(args.module, args.file)
    return None


def open_store(args: argparse.Namespace, location: CodeLocation | None) -> ProfileStore:
    url = args.store or (location.store_url() if location else default_store_url())
    return ProfileStore(url)
