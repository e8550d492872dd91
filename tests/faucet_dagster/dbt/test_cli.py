"""The example as a user runs it: ``dagster asset materialize`` on its module, in a copy."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import dagster as dg

from tests.faucet_dagster.dbt.project import BIN, copy_example
from tests.faucet_dagster.processes import make_home


def test_dagster_asset_materialize_builds_the_example_and_runs_its_checks(
    tmp_path: Path,
) -> None:
    folder = copy_example(tmp_path / "dbt_example")
    home = make_home(tmp_path)
    env = home.env(PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    done = subprocess.run(
        [
            str(BIN / "dagster"),
            *("asset", "materialize", "-m", "faucet_dbt_example.definitions", "--select", "*"),
        ],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=400,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (folder / "target" / "warehouse.duckdb").is_file()
    with home.instance() as instance:
        runs = instance.get_runs()
        assert [r.status for r in runs] == [dg.DagsterRunStatus.SUCCESS]
        key = dg.AssetCheckKey(dg.AssetKey(["marts", "dim_customers"]), "faucet_profile")
        (record,) = instance.event_log_storage.get_asset_check_execution_history(key, limit=5)
        evaluation = record.event.dagster_event.asset_check_evaluation_data
        assert evaluation.passed
        assert evaluation.metadata["faucet/status"].value == "warming"
