"""What the check profiles: a custom loader streaming the file an asset wrote, or the value the
IO manager stored for an asset given by key only or for each output of a multi-asset."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dagster as dg
import duckdb
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from faucet_dagster import FaucetResource, ProfileLoadContext, build_profile_checks
from tests.faucet_dagster.helpers import (
    ROWS,
    evaluation,
    evaluations_by_asset,
    failures,
    meta,
    orders,
    orders_frame,
    todays_frame,
)

BATCH = 100


class Warehouse(dg.ConfigurableResource):
    """Where assets write their Parquet files."""

    base_dir: str


def _write(frame: pd.DataFrame, path: Path) -> dg.MaterializeResult:
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), path, row_group_size=BATCH)
    return dg.MaterializeResult(
        metadata={"path": dg.MetadataValue.path(str(path)), "dagster/uri": str(path)}
    )


@dg.asset
def big_orders(warehouse: Warehouse) -> dg.MaterializeResult:
    return _write(todays_frame(), Path(warehouse.base_dir) / "big_orders.parquet")


@dg.asset(partitions_def=dg.StaticPartitionsDefinition(["eu", "us"]))
def regional_files(context, warehouse: Warehouse) -> dg.MaterializeResult:
    return _write(
        todays_frame(), Path(warehouse.base_dir) / f"regional_{context.partition_key}.parquet"
    )


class Recorder:
    """A loader that streams the Parquet file named in the materialization's metadata."""

    def __init__(self) -> None:
        self.batches: list[int] = []
        self.contexts: list[ProfileLoadContext] = []

    def __call__(self, ctx: ProfileLoadContext) -> Iterator[pa.RecordBatch]:
        self.contexts.append(ctx)
        return self._stream(pq.ParquetFile(ctx.metadata["path"]))

    def _stream(self, file: pq.ParquetFile) -> Iterator[pa.RecordBatch]:
        for batch in file.iter_batches(batch_size=BATCH):
            self.batches.append(batch.num_rows)
            yield batch


def duckdb_reader(ctx: ProfileLoadContext) -> pa.RecordBatchReader:
    """DuckDB reads the file the asset wrote and hands over a RecordBatchReader."""
    connection = duckdb.connect()
    query = "SELECT amount, region FROM read_parquet(?)"
    relation = connection.sql(query, params=[ctx.metadata["dagster/uri"]])
    to_reader = getattr(relation, "to_arrow_reader", None) or relation.fetch_arrow_reader  # 1.x
    reader: pa.RecordBatchReader = to_reader(BATCH)
    return reader


def _run(assets: list[Any], checks: list, instance, url: str, base_dir: Path, **kw: Any):  # type: ignore[no-untyped-def]
    return dg.materialize(
        [*assets, *checks],
        instance=instance,
        resources={
            "faucet": FaucetResource(store_url=url),
            "warehouse": Warehouse(base_dir=str(base_dir)),
        },
        raise_on_error=False,
        **kw,
    )


def test_a_loader_streams_the_parquet_file_the_asset_wrote(instance, feed, sqlite_url, tmp_path):
    recorder = Recorder()
    checks = build_profile_checks(
        [big_orders], loader=recorder, required_resource_keys=["warehouse"]
    )
    assert checks[0].node_def.required_resource_keys == {"faucet", "warehouse"}  # no IO manager
    feed.null_share = 0.2
    result = _run([big_orders], checks, instance, sqlite_url, tmp_path)
    assert result.success, failures(result)

    assert recorder.batches == [BATCH] * (ROWS // BATCH)  # read batch by batch, all of it
    ctx = recorder.contexts[0]
    assert ctx.asset_key == dg.AssetKey("big_orders")
    assert ctx.partition_key is None
    assert ctx.metadata["path"] == str(tmp_path / "big_orders.parquet")
    assert ctx.resources.warehouse.base_dir == str(tmp_path)
    ev = evaluation(result)
    expected = orders_frame(0, null_share=0.2)
    assert meta(ev, "faucet/row_count") == ROWS
    assert meta(ev, "amount.null_rate") == round(float(expected["amount"].isna().mean()), 6)


def test_a_loader_can_hand_over_a_duckdb_record_batch_reader(instance, feed, sqlite_url, tmp_path):
    checks = build_profile_checks([big_orders], loader=duckdb_reader)
    assert checks[0].node_def.required_resource_keys == {"faucet"}
    result = _run([big_orders], checks, instance, sqlite_url, tmp_path)
    assert result.success, failures(result)
    ev = evaluation(result)
    assert meta(ev, "faucet/row_count") == ROWS
    assert sorted(k for k in ev.metadata if k.endswith(".null_rate")) == [
        "amount.null_rate",
        "region.null_rate",
    ]


def test_a_loader_gets_the_partition_it_profiles(instance, feed, sqlite_url, tmp_path):
    recorder = Recorder()
    checks = build_profile_checks([regional_files], loader=recorder)
    result = _run([regional_files], checks, instance, sqlite_url, tmp_path, partition_key="us")
    assert result.success, failures(result)
    ctx = recorder.contexts[0]
    assert ctx.partition_key == "us"
    assert ctx.metadata["path"] == str(tmp_path / "regional_us.parquet")
    assert meta(evaluation(result), "faucet/baseline_key") == "regional_files::us"


@pytest.mark.parametrize(
    "target", ["orders", dg.AssetKey("orders")], ids=["key-string", "asset-key"]
)
def test_an_asset_given_by_key_is_loaded_through_the_io_manager(instance, feed, sqlite_url, target):
    checks = build_profile_checks([target], config={"min_history": 3})
    assert checks[0].node_def.required_resource_keys == {"faucet", "io_manager"}
    defs = dg.Definitions(
        assets=[orders],
        asset_checks=checks,
        resources={"faucet": FaucetResource(store_url=sqlite_url)},
    )
    result = defs.resolve_implicit_global_asset_job_def().execute_in_process(
        instance=instance, raise_on_error=False
    )
    assert result.success, failures(result)
    ev = evaluation(result)
    assert ev.asset_key == dg.AssetKey("orders")
    assert meta(ev, "faucet/row_count") == ROWS


@dg.multi_asset(outs={"wide": dg.AssetOut(), "narrow": dg.AssetOut()})
def split_orders() -> tuple[pd.DataFrame, pd.DataFrame]:
    frame = todays_frame()
    return frame, frame[["region"]].head(ROWS // 4)


def test_each_output_of_a_multi_asset_is_profiled(instance, feed, sqlite_url, tmp_path):
    checks = build_profile_checks([split_orders])
    result = _run([split_orders], checks, instance, sqlite_url, tmp_path)
    assert result.success, failures(result)
    by_asset = evaluations_by_asset(result)
    assert sorted(by_asset) == ["narrow", "wide"]
    assert meta(by_asset["wide"], "faucet/row_count") == ROWS
    assert meta(by_asset["narrow"], "faucet/row_count") == ROWS // 4
    assert "amount.null_rate" in by_asset["wide"].metadata
    assert "amount.null_rate" not in by_asset["narrow"].metadata
