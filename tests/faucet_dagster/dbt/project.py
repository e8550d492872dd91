"""The example dbt project, copied into a temporary folder and run for real (dbt-duckdb
through dagster-dbt), so tests never write into the repository."""

from __future__ import annotations

import csv
import io
import os
import shutil
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import dagster as dg

from faucet_core.catalog import Catalog

REPO = Path(__file__).resolve().parents[3]
EXAMPLE = REPO / "example_project" / "dbt_example"
BIN = Path(sys.executable).parent
_ARTEFACTS = ("target", "logs", ".user.yml")


def copy_example(dest: Path) -> Path:
    """A copy of the example project at ``dest`` without dbt's artefacts."""
    shutil.copytree(
        EXAMPLE,
        dest,
        ignore=shutil.ignore_patterns(*_ARTEFACTS, "*.duckdb", "__pycache__"),
    )
    return dest


@contextmanager
def dbt_on_path(folder: Path) -> Iterator[None]:
    """The venv's ``dbt`` on PATH (DbtCliResource runs ``dbt``) and the example's package
    importable from the copy at ``folder``; both restored afterwards."""
    old_path = os.environ.get("PATH", "")
    os.environ["PATH"] = f"{BIN}{os.pathsep}{old_path}"
    sys.path.insert(0, str(folder))
    try:
        yield
    finally:
        os.environ["PATH"] = old_path
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m.split(".")[0] == "faucet_dbt_example"]:
            del sys.modules[name]


def example_module() -> Any:
    """``faucet_dbt_example.project`` (a factory: importing it does no work)."""
    import faucet_dbt_example.project as module

    return module


@dataclass
class BuiltProject:
    """The example built once: its folder, definitions, Dagster instance and faucet store."""

    folder: Path
    project: Any
    defs: dg.Definitions
    instance: dg.DagsterInstance
    store_url: str
    cursor: str | None = None
    first: dg.ExecuteInProcessResult | None = None
    """The first run: every seed and model and every check."""

    @property
    def assets(self) -> dg.AssetsDefinition:
        (assets,) = [a for a in self.defs.assets or () if isinstance(a, dg.AssetsDefinition)]
        return assets

    def run(self, keys: Sequence[str] | None = None) -> dg.ExecuteInProcessResult:
        """Materialize ``keys`` (all when None) and their profile checks, in process."""
        job = self.defs.resolve_implicit_global_asset_job_def()
        if keys is not None:
            selected = {dg.AssetKey.from_user_string(k) for k in keys}
            checks = {
                c for c in job.asset_layer.asset_graph.asset_check_keys if c.asset_key in selected
            }
            job = job.get_subset(asset_selection=selected, asset_check_selection=checks)
        cwd = os.getcwd()
        try:
            return job.execute_in_process(instance=self.instance, raise_on_error=False)
        finally:
            # dagster-dbt's column-metadata threads each pushd the project folder: racing,
            # they can leave the process there (the tests after would run in it at random)
            os.chdir(cwd)

    def record_lineage(self) -> str:
        """One tick of the example's lineage sensor: the runs' materializations into the
        catalog (with dagster-dbt's column lineage). Returns the sensor's message."""
        (sensor,) = self.defs.sensors or ()
        resources = dict(self.defs.resources or {})
        with dg.build_sensor_context(
            instance=self.instance, cursor=self.cursor, definitions=self.defs, resources=resources
        ) as context:
            data = sensor.evaluate_tick(context)
        self.cursor = data.cursor
        return str(data.skip_message)

    def catalog(self) -> Catalog:
        return Catalog(self.store_url)


def blank_countries(seed: Path) -> None:
    """Half the customers of a customers seed lose their country (empty CSV cells load as
    NULL)."""
    rows = list(csv.DictReader(io.StringIO(seed.read_text())))
    for row in rows:
        if int(row["id"]) % 2 == 0:
            row["country"] = ""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    seed.write_text(out.getvalue())
