"""DuckDB warehouse files that dbt-duckdb's adapter still holds open in this process.

dagster-dbt's ``fetch_column_metadata()`` opens the warehouse through dbt's adapter in the
Dagster step's process and leaves that connection open. DuckDB refuses a second connection
to the same file with another configuration in one process, and another process (the next
``dbt build``) cannot take the file's lock while it is open. Before a check reads a DuckDB
file, :func:`release_dbt_duckdb` closes the adapter's connection to that file; dbt-duckdb
opens a new one when it next needs it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["release_dbt_duckdb"]


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def release_dbt_duckdb(database: str | None, project_dir: Path | None) -> bool:
    """Close dbt-duckdb's in-process connection to ``database`` (a DuckDB file path);
    ``project_dir`` resolves the relative path of the dbt profile. True if one was closed."""
    module = sys.modules.get("dbt.adapters.duckdb.connections")
    if module is None or not database or database == ":memory:":
        return False
    manager = getattr(module, "DuckDBConnectionManager", None)
    env = getattr(manager, "_ENV", None)
    path = getattr(getattr(env, "creds", None), "path", None)
    if manager is None or env is None or not path:
        return False
    held = Path(path)
    if not held.is_absolute() and project_dir is not None:
        held = project_dir / held
    if not _same_file(held, Path(database)):
        return False
    manager.close_all_connections()  # forgets the environment (dbt makes a new one on demand)
    env.close()
    return True
