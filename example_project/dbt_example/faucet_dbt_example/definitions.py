"""The example dbt project (the folder above this package) as Dagster assets, each seed and
model with a faucet profile check that profiles its table inside DuckDB (SQL pushdown)::

    cd example_project/dbt_example
    dagster asset materialize -m faucet_dbt_example.definitions --select '*'
"""

from __future__ import annotations

from pathlib import Path

from faucet_dbt_example.project import build_defs, prepare

__all__ = ["DBT_PROJECT_DIR", "defs"]

DBT_PROJECT_DIR = Path(__file__).resolve().parent.parent

defs = build_defs(prepare(DBT_PROJECT_DIR))
