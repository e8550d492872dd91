"""Loading a Dagster code location (``-m module`` / ``-f file``) for the faucet CLI."""

from __future__ import annotations

import json
import os
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import dagster as dg

import faucet_dagster.metadata as md
from faucet_core.config import ProfilingConfig
from faucet_core.errors import ConfigError, FaucetError
from faucet_core.store import default_store_url

__all__ = ["CodeLocation", "ProfiledAsset", "load_code_location"]


class CodeLocationError(FaucetError):
    """The code location cannot be loaded."""


@dataclass(frozen=True)
class ProfiledAsset:
    """An asset with a faucet profile check, and the check's configuration."""

    key: dg.AssetKey
    check_name: str
    config: ProfilingConfig
    partitioned: bool


@dataclass(frozen=True)
class CodeLocation:
    defs: dg.Definitions
    name: str

    def store_url(self, resource_key: str = "faucet") -> str:
        """The store the location's FaucetResource writes to (else the default)."""
        resource = (self.defs.resources or {}).get(resource_key)
        url = getattr(resource, "store_url", None)
        if isinstance(url, dg.EnvVar):
            url = url.get_value()
        return str(url) if url else default_store_url()

    def profiled_assets(self) -> list[ProfiledAsset]:
        graph = self.defs.resolve_asset_graph()
        found = []
        for check_key in sorted(graph.asset_check_keys, key=lambda k: k.to_user_string()):
            spec = graph.get_check_spec(check_key)
            raw = spec.metadata.get(md.CONFIG)
            if raw is None:
                continue
            data = getattr(raw, "data", raw)
            if isinstance(data, str):
                data = json.loads(data)
            node = graph.get(check_key.asset_key) if graph.has(check_key.asset_key) else None
            found.append(
                ProfiledAsset(
                    key=check_key.asset_key,
                    check_name=check_key.name,
                    config=ProfilingConfig.model_validate(data),
                    partitioned=bool(node is not None and node.partitions_def is not None),
                )
            )
        return found


@contextmanager
def _working_directory_first(cwd: str) -> Iterator[None]:
    """``cwd`` at ``sys.path[0]`` while Dagster imports the location.

    Dagster's loaders drop ``sys.path[0]`` for the import (in a CLI it is the console
    script's folder) and put the working directory first. In process (``main()`` called from
    Python: a test, a CI script, a server worker), ``sys.path[0]`` is an entry the caller
    imports from, and the location's own package may be importable through it alone: with
    ``cwd`` there, the entry Dagster drops is ``cwd``, which it adds back itself. The copy
    put here goes afterwards (``cwd`` stays where it was on ``sys.path``)."""
    added = not sys.path or sys.path[0] != cwd
    if added:
        sys.path.insert(0, cwd)
    try:
        yield
    finally:
        # Dagster restores the sys.path it found (with this copy first)
        if added and sys.path and sys.path[0] == cwd and cwd in sys.path[1:]:
            del sys.path[0]


def load_code_location(
    module: str | None = None,
    file: str | None = None,
    *,
    working_directory: str | None = None,
    source: str | None = None,
) -> CodeLocation:
    """Import a module or file and find its ``Definitions`` (or ``@dg.definitions`` function).

    ``working_directory`` (default: the working directory) goes on ``sys.path``; ``source``
    names the project file that named the location (errors say so)."""
    from dagster._core.workspace.autodiscovery import (
        loadable_targets_from_python_file,
        loadable_targets_from_python_module,
    )

    if bool(module) == bool(file):
        raise ConfigError("give exactly one code location: -m MODULE or -f FILE")
    warnings.filterwarnings("ignore", category=dg.BetaWarning)  # Dagster's own component loading
    warnings.filterwarnings("ignore", category=dg.PreviewWarning)
    cwd = working_directory or os.getcwd()
    if cwd not in sys.path:
        sys.path.insert(0, cwd)
    try:
        if module:
            with _working_directory_first(cwd):
                targets = loadable_targets_from_python_module(module, working_directory=cwd)
        else:
            assert file is not None
            if not os.path.isfile(file):
                raise CodeLocationError(f"-f {file!r}: no such file")
            with _working_directory_first(cwd):
                targets = loadable_targets_from_python_file(file, working_directory=cwd)
    except FaucetError:
        raise
    except Exception as exc:
        where = f"-m {module}" if module else f"-f {file}"
        if source:
            where = f"{where} (from {source})"
        raise CodeLocationError(
            f"cannot load the code location {where}: {type(exc).__name__}: {exc}"
        ) from None
    target: Any = targets[0].target_definition
    if callable(target) and not isinstance(target, dg.Definitions):
        target = target()
    if not isinstance(target, dg.Definitions):
        raise CodeLocationError(
            f"{module or file} holds no Definitions object (found {type(target).__name__}); "
            "define `defs = dg.Definitions(...)` at module scope"
        )
    return CodeLocation(defs=target, name=module or file or "")
