"""A profile check whose loader returns a SqlTable: the DuckDB table an asset wrote is
profiled by DuckDB itself, run after run, and a changed table is reported as drift."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
import duckdb
import pandas as pd

from faucet_core.profile import SqlTable
from faucet_core.store import ProfileStore
from faucet_dagster import FaucetResource, ProfileLoadContext, build_profile_checks
from tests.faucet_dagster.helpers import (
    Feed,
    evaluation,
    failures,
    finding_keys,
    meta,
    todays_frame,
)


class Warehouse(dg.ConfigurableResource):
    """The DuckDB file the asset writes its table into."""

    path: str


@dg.asset
def warehouse_orders(warehouse: Warehouse) -> None:
    frame: pd.DataFrame = todays_frame()
    with duckdb.connect(warehouse.path) as conn:
        conn.register("frame", frame)
        conn.execute('CREATE OR REPLACE TABLE main."Orders" AS SELECT * FROM frame')


def sql_loader(ctx: ProfileLoadContext) -> SqlTable:
    return SqlTable(f"duckdb:///{ctx.resources.warehouse.path}", "Orders", schema="main")


def _run(
    defs: list, instance: dg.DagsterInstance, store_url: str, warehouse: Warehouse
) -> dg.ExecuteInProcessResult:
    return dg.materialize(
        defs,
        instance=instance,
        resources={"faucet": FaucetResource(store_url=store_url), "warehouse": warehouse},
        raise_on_error=False,
    )


def test_a_sql_table_loader_reports_drift(
    instance: dg.DagsterInstance, feed: Feed, sqlite_url: str, tmp_path: Path
) -> None:
    checks = build_profile_checks(
        [warehouse_orders],
        config={"min_history": 3},
        loader=sql_loader,
        required_resource_keys=["warehouse"],
    )
    defs = [warehouse_orders, *checks]
    warehouse = Warehouse(path=str(tmp_path / "warehouse.db"))
    for day in range(3):
        feed.day = day
        result = _run(defs, instance, sqlite_url, warehouse)
        assert result.success, failures(result)
        assert meta(evaluation(result), "faucet/status") == "warming"
    feed.day, feed.null_share = 3, 0.5
    result = _run(defs, instance, sqlite_url, warehouse)
    assert result.success, failures(result)
    ev = evaluation(result)
    assert meta(ev, "faucet/status") == "drifted"
    assert finding_keys(ev) == ["amount.null_rate"]
    with ProfileStore(sqlite_url) as store:  # the recorded profiles carry no sketches
        (key,) = store.keys()
        runs = store.history(key.key, strict=True)
    assert len(runs) == 4
    assert all(c.sketches == {} for run in runs for c in run.profile.columns.values())
