"""The column profiler: per-column statistics from bounded-memory sketches.

The public names are imported on first use (PEP 562): profiling a SQL table where it lives
never loads pyarrow or the sketches, and streaming a file never loads SQLAlchemy.

``faucet_core.profile`` is this package, and calling it profiles: ``faucet_core.profile(df)``
and ``from faucet_core import profile; profile(df)`` run
:func:`faucet_core.profile.dispatch.profile`, which is also ``faucet_core.profile.profile``.

The layers, each importing only those above it: the shared core (``model``, ``table``,
``state``, ``sketches``, ``policy``, ``jsontext``, ``jsonvalues``, ``names``, ``columns``,
``inputs``, ``sql_table``), the in-memory engine (``profiler`` with ``arrow_path`` and
``values``; ``files`` streams files into it), Spark (``spark``: the in-memory engine on the
executors), SQL (``sql`` and its ``sql_*`` modules: the core only), and ``dispatch``, which
picks one and which nothing imports back.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from faucet_core.config import ProfilingConfig
    from faucet_core.profile.arrow_path import json_type_of
    from faucet_core.profile.dispatch import profile
    from faucet_core.profile.model import (
        ColumnProfile,
        JsonType,
        NumericStats,
        StringStats,
        TopValue,
    )
    from faucet_core.profile.profiler import Profiler
    from faucet_core.profile.sketches import SketchParams
    from faucet_core.profile.sql import SqlTable, is_sql_table, profile_sql
    from faucet_core.profile.table import TableProfile

_SOURCES = {
    "faucet_core.profile.arrow_path": ("json_type_of",),
    "faucet_core.profile.model": (
        "ColumnProfile",
        "JsonType",
        "NumericStats",
        "StringStats",
        "TopValue",
    ),
    "faucet_core.profile.dispatch": ("profile",),
    "faucet_core.profile.profiler": ("Profiler",),
    "faucet_core.profile.sketches": ("SketchParams",),
    "faucet_core.profile.sql": ("SqlTable", "is_sql_table", "profile_sql"),
    "faucet_core.profile.table": ("TableProfile",),
}
_MODULE_OF = {name: module for module, names in _SOURCES.items() for name in names}

__all__ = [
    "ColumnProfile",
    "JsonType",
    "NumericStats",
    "Profiler",
    "SketchParams",
    "SqlTable",
    "StringStats",
    "TableProfile",
    "TopValue",
    "is_sql_table",
    "json_type_of",
    "profile",
    "profile_sql",
]


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'faucet_core.profile' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _ProfilePackage(types.ModuleType):
    """This package's type: a module that profiles when called."""

    def __call__(
        self, data: Any, config: ProfilingConfig | None = None, *, threads: int | None = None
    ) -> TableProfile:
        from faucet_core.profile.dispatch import profile

        return profile(data, config, threads=threads)


sys.modules[__name__].__class__ = _ProfilePackage
