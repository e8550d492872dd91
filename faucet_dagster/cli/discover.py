"""Finding the code location when neither ``-m`` nor ``-f`` is given, as the ``dagster``
CLI does, in the working directory:

1. ``pyproject.toml``: ``[tool.dagster] module_name`` (or a ``modules`` list of one), else
   ``[tool.dg.project]``: ``code_location_target_module``, default
   ``<root_module>.definitions`` (read by Dagster's own parser of that file);
2. ``workspace.yaml``: one ``load_from`` entry, ``python_module`` or ``python_file``.

A module of a ``src/`` layout is imported from ``src``.

Nothing found is ``None`` (a command that needs a location says how to give one); a
file that names several locations, or one faucet cannot load, is an error naming it.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from faucet_core.errors import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["FOUND_NOWHERE", "Discovered", "discover_location"]

FOUND_NOWHERE = (
    "give -m MODULE or -f FILE, or run it in a project folder whose pyproject.toml has "
    "[tool.dagster] module_name or [tool.dg.project] root_module, or that has a "
    "workspace.yaml (as the dagster CLI finds it)"
)


@dataclass(frozen=True)
class Discovered:
    """A code location named by a project file: a module or a file, and where it was said."""

    module: str | None
    file: str | None
    source: str
    """``pyproject.toml [tool.dagster]``, ``workspace.yaml``...: shown in errors."""
    working_directory: str | None = None


def _toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as f:
            return dict(tomllib.load(f))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path}: not readable TOML ({exc}); fix the file") from None


def _from_pyproject(path: Path) -> Discovered | None:
    data = _toml(path)
    tool = data.get("tool", {})
    if not isinstance(tool, dict) or not ({"dagster", "dg"} & set(tool)):
        return None
    block = tool.get("dagster") or {}
    where = f"{path.name} [tool.dagster]" if block else f"{path.name} [tool.dg.project]"
    if isinstance(block, dict) and "modules" in block and "module_name" not in block:
        modules = [m.get("name") for m in block["modules"] if isinstance(m, dict)]
        if len(modules) != 1:
            raise ConfigError(
                f"{where} names {len(modules)} modules ({', '.join(map(str, modules))}); "
                "faucet plans one code location: pass -m MODULE"
            )
        return Discovered(str(modules[0]), None, where)
    from dagster._core.workspace.load_target import ModuleTarget, get_target_from_toml_data

    try:
        target = get_target_from_toml_data(data)
    except (AssertionError, KeyError, TypeError) as exc:
        raise ConfigError(f"{where}: not a code location Dagster can read ({exc!r})") from None
    if isinstance(target, ModuleTarget):
        return Discovered(target.module_name, None, where)
    if target is not None:  # dg's autoloaded defs folder
        raise ConfigError(
            f"{where} autoloads a defs folder (autoload_defs = true), which faucet does not "
            "load itself yet: pass -m with the module holding your Definitions"
        )
    return None


def _entry(item: Any, base: Path) -> Discovered:
    if not isinstance(item, dict) or len(item) != 1:
        raise ConfigError(f"workspace.yaml load_from entry {item!r}: give python_module or file")
    ((kind, value),) = item.items()
    spec = value if isinstance(value, dict) else {}
    workdir = spec.get("working_directory")
    workdir = str(base / workdir) if workdir else str(base)
    if kind == "python_module":
        module = spec.get("module_name") if spec else value
        return Discovered(str(module), None, "workspace.yaml", workdir)
    if kind == "python_file":
        file = spec.get("relative_path") if spec else value
        return Discovered(None, str(base / str(file)), "workspace.yaml", workdir)
    raise ConfigError(
        f"workspace.yaml load_from entry {kind!r}: faucet loads python_module or python_file "
        "entries; pass -m MODULE or -f FILE"
    )


def _from_workspace(path: Path) -> Discovered:
    import yaml  # type: ignore[import-untyped]

    try:
        data = yaml.safe_load(path.read_text()) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"{path}: not readable YAML ({exc}); fix the file") from None
    entries = data.get("load_from") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not entries:
        raise ConfigError(f"{path}: no load_from entries; list the code location there")
    if len(entries) != 1:
        raise ConfigError(
            f"{path} lists {len(entries)} code locations; faucet works on one: pass -m "
            "MODULE or -f FILE"
        )
    return _entry(entries[0], path.parent)


def _src_layout(found: Discovered, here: Path) -> Discovered:
    """A module of a ``src/`` layout (``src/<package>``, not beside pyproject.toml) is
    imported from ``src``, as an editable install of the project would."""
    package = (found.module or "").split(".")[0]
    if package and not (here / package).exists() and (here / "src" / package).is_dir():
        return Discovered(found.module, None, found.source, str(here / "src"))
    return found


def discover_location(folder: str | None = None) -> Discovered | None:
    """The code location the project files in ``folder`` (default: the working directory)
    name, or None."""
    here = Path(folder or os.getcwd())
    pyproject = here / "pyproject.toml"
    if pyproject.is_file():
        found = _from_pyproject(pyproject)
        if found is not None:
            return _src_layout(found, here)
    workspace = here / "workspace.yaml"
    if workspace.is_file():
        return _from_workspace(workspace)
    return None
