"""A ``dagster/column_lineage`` declared in code takes effect with ``faucet catalog sync``,
also on an edge an earlier run recorded without it; a sync that writes no edge says why."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import dagster as dg
import pytest

from faucet_core.catalog import Catalog
from faucet_dagster.cli import main
from faucet_dagster.lineage.record import asset_run_record
from faucet_dagster.location import load_code_location

BEFORE = """
import dagster as dg

@dg.asset
def orders() -> None: ...

@dg.asset(deps=[orders])
def report() -> None: ...

defs = dg.Definitions(assets=[orders, report])
"""
AFTER = BEFORE.replace(
    "@dg.asset(deps=[orders])",
    """@dg.asset(
    deps=[orders],
    metadata={
        "dagster/column_lineage": dg.TableColumnLineage(
            deps_by_column={"total": [dg.TableColumnDep(dg.AssetKey("orders"), "amount")]}
        )
    },
)""",
)


def _sync(capsys: pytest.CaptureFixture[str], location: Path, store: str) -> str:
    code = main(["catalog", "sync", "-f", str(location), "--store", store])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    return out


def test_declared_lineage_replaces_what_a_run_recorded_without_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    location = tmp_path / "defs.py"
    location.write_text(BEFORE)
    store = f"sqlite:///{tmp_path / 'catalog.db'}"
    graph = load_code_location(file=str(location)).defs.resolve_asset_graph()
    with Catalog(store) as catalog:  # report's last run, before the code declared lineage
        run = asset_run_record(
            graph,
            dg.AssetKey("report"),
            run_id="run-1",
            when=dt.datetime.now(dt.timezone.utc),
        )
        catalog.record([run])
    (tmp_path / "after").mkdir()
    changed = tmp_path / "after" / "defs.py"
    changed.write_text(AFTER)
    out = _sync(capsys, changed, store)
    assert out.endswith("1 edge(s) written\n")
    with Catalog(store) as catalog:
        (edge,) = catalog.detail("dagster://report").upstream
    assert edge.run_id == "run-1"  # the run stays; its lineage is the code's now
    assert edge.column_lineage is not None
    assert {k: [i.field for i in v] for k, v in edge.column_lineage.fields.items()} == {
        "total": ["amount"]
    }
    again = _sync(capsys, changed, store)
    assert again == (
        f"synced 2 asset(s) from {changed} into {store}: 2 dataset(s) (0 new), 0 edge(s) "
        "written: every dependency it declares (1) is in the catalog already, with the column "
        "lineage the code declares (1 with dagster/column_lineage; the others keep what their "
        "last run recorded)\n"
    )


def test_a_sync_of_assets_without_dependencies_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    location = tmp_path / "defs.py"
    location.write_text(BEFORE.replace("@dg.asset(deps=[orders])", "@dg.asset"))
    store = f"sqlite:///{tmp_path / 'catalog.db'}"
    assert _sync(capsys, location, store) == (
        f"synced 2 asset(s) from {location} into {store}: 2 dataset(s) (2 new), 0 edge(s) "
        "written: the location's assets declare no dependencies on one another (deps=, "
        "AssetIn), so there is no edge to record\n"
    )
