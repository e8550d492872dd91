"""The code location: everything under ``defs/`` (assets in Python, profiling in YAML)."""

from pathlib import Path

import dagster as dg


@dg.definitions
def defs() -> dg.Definitions:
    loaded = dg.load_from_defs_folder(path_within_project=Path(__file__).parent)
    # One process per run: the steps are small, process start-up would dominate.
    return dg.Definitions.merge(loaded, dg.Definitions(executor=dg.in_process_executor))
