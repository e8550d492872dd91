"""The ``faucet`` command."""

from faucet_dagster.cli.main import main

__all__ = ["main"]
