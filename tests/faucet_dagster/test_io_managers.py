"""The profile check loads an asset through its IO manager as a downstream asset would: with
the output's Dagster type, its metadata, the partition and the IO manager's own resources.

Each IO manager here is a real one: a CSV manager that reads ``upstream_output`` the way
Dagster's example projects do, dagster-duckdb-pandas, and a ``UPathIOManager`` subclass."""

from __future__ import annotations

import datetime as dt
import inspect
import json
from pathlib import Path
from typing import Any, ClassVar

import dagster as dg
import pandas as pd
import pytest
from upath import UPath

from faucet_dagster import FaucetResource, build_profile_checks
from faucet_dagster.checks.io_context import accepted_kwargs
from tests.faucet_dagster.helpers import ROWS, evaluation, failures, meta, todays_frame

COLUMNS = {"amount": "float64", "region": "str"}


class Seen:
    """What the IO manager saw when it loaded (one entry per load_input call)."""

    loads: ClassVar[list[dict[str, Any]]] = []


class TypedCsvIOManager(dg.IOManager):
    """Writes CSV; reads it back only for a DataFrame-typed output, with the dtypes its
    definition metadata declares (as the Dagster example's IO manager does)."""

    def __init__(self, base_dir: str) -> None:
        self.base_dir = Path(base_dir)

    def _path(self, key: dg.AssetKey, partition: str | None) -> Path:
        return self.base_dir / ("_".join([*key.path, *([partition] if partition else [])]) + ".csv")

    def handle_output(self, context: dg.OutputContext, obj: pd.DataFrame) -> None:
        partition = context.partition_key if context.has_partition_key else None
        obj.to_csv(self._path(context.asset_key, partition), index=False)
        context.add_output_metadata({"written_rows": len(obj)})

    def load_input(self, context: dg.InputContext) -> pd.DataFrame:
        upstream = context.upstream_output
        assert upstream is not None
        if upstream.dagster_type.typing_type is not pd.DataFrame:
            raise TypeError(f"cannot read {upstream.dagster_type.display_name} from CSV")
        partition = context.partition_key if context.has_partition_key else None
        seen: dict[str, Any] = {
            "asset_key": context.asset_key,
            "input_type": context.dagster_type.display_name,
            "definition_metadata": dict(upstream.definition_metadata),
            "output_metadata": {
                k: getattr(v, "value", v) for k, v in upstream.output_metadata.items()
            },
            "run_id": upstream.run_id,
            "step_key": upstream.step_key,
            "output_name": upstream.name,
            "partition": partition,
            "resources": sorted(k for k in context.resources._asdict()),
            "warehouse": context.resources.warehouse.base_dir,
            "same_resources_upstream": upstream.resources is context.resources,
            "instance": context.instance is not None,
        }
        if partition is not None:
            seen["time_window"] = context.asset_partitions_time_window
            seen["upstream_partition"] = upstream.asset_partition_key
        Seen.loads.append(seen)
        dtypes = upstream.definition_metadata["dtypes"]
        return pd.read_csv(self._path(context.asset_key, partition), dtype=dtypes)


class Warehouse(dg.ConfigurableResource):
    base_dir: str


@dg.io_manager(required_resource_keys={"warehouse"})
def typed_csv_io_manager(init_context: dg.InitResourceContext) -> TypedCsvIOManager:
    return TypedCsvIOManager(init_context.resources.warehouse.base_dir)


@dg.asset(metadata={"dtypes": COLUMNS, "owner": "data@example.com"})
def typed_orders() -> pd.DataFrame:
    return todays_frame()


DAILY = dg.DailyPartitionsDefinition(start_date="2026-01-01")


@dg.asset(partitions_def=DAILY, metadata={"dtypes": COLUMNS})
def daily_orders() -> pd.DataFrame:
    return todays_frame()


@pytest.fixture(autouse=True)
def _clear_seen() -> None:
    Seen.loads = []


def _resources(sqlite_url: str, tmp_path: Path, io_manager: Any) -> dict[str, Any]:
    return {
        "faucet": FaucetResource(store_url=sqlite_url),
        "warehouse": Warehouse(base_dir=str(tmp_path)),
        "io_manager": io_manager,
    }


def test_the_io_manager_gets_the_outputs_type_metadata_and_run(
    instance, feed, sqlite_url, tmp_path
):
    checks = build_profile_checks([typed_orders], required_resource_keys=["warehouse"])
    result = dg.materialize(
        [typed_orders, *checks],
        instance=instance,
        resources=_resources(sqlite_url, tmp_path, typed_csv_io_manager),
        raise_on_error=False,
    )
    assert result.success, failures(result)
    ev = evaluation(result)
    assert meta(ev, "faucet/status") == "warming", ev.description
    assert meta(ev, "faucet/row_count") == ROWS
    [seen] = Seen.loads
    assert seen == {
        "asset_key": dg.AssetKey("typed_orders"),
        "input_type": "DataFrame",
        "definition_metadata": {"dtypes": COLUMNS, "owner": "data@example.com"},
        "output_metadata": {"written_rows": ROWS},
        "run_id": result.run_id,
        "step_key": "typed_orders",
        "output_name": "result",
        "partition": None,
        "resources": ["warehouse"],
        "warehouse": str(tmp_path),
        "same_resources_upstream": True,
        "instance": True,
    }


def test_loading_builds_no_instance_of_its_own(instance, feed, sqlite_url, tmp_path, monkeypatch):
    """The contexts get the run's instance and resources built on it: handed a plain mapping,
    Dagster builds each context's resources on a new in-memory instance (its storage's
    migrations run each time, ~0.14 s apiece, on every check)."""
    checks = build_profile_checks([typed_orders], required_resource_keys=["warehouse"])
    resources = _resources(sqlite_url, tmp_path, typed_csv_io_manager)
    dg.materialize([typed_orders, *checks], instance=instance, resources=resources)
    made: list[object] = []
    ephemeral = dg.DagsterInstance.ephemeral

    def counting(*args: Any, **kwargs: Any) -> dg.DagsterInstance:
        made.append(args)
        return ephemeral(*args, **kwargs)

    monkeypatch.setattr(dg.DagsterInstance, "ephemeral", counting)
    result = dg.materialize([typed_orders, *checks], instance=instance, resources=resources)
    assert meta(evaluation(result), "faucet/row_count") == ROWS
    assert len(Seen.loads) == 2
    assert made == []


def test_a_time_partition_reaches_the_io_manager_with_its_window(
    instance, feed, sqlite_url, tmp_path
):
    checks = build_profile_checks([daily_orders], required_resource_keys=["warehouse"])
    result = dg.materialize(
        [daily_orders, *checks],
        instance=instance,
        resources=_resources(sqlite_url, tmp_path, typed_csv_io_manager),
        partition_key="2026-03-02",
        raise_on_error=False,
    )
    assert result.success, failures(result)
    assert meta(evaluation(result), "faucet/row_count") == ROWS
    [seen] = Seen.loads
    assert seen["partition"] == "2026-03-02"
    assert seen["upstream_partition"] == "2026-03-02"
    utc = dt.timezone.utc
    assert seen["time_window"] == dg.TimeWindow(
        dt.datetime(2026, 3, 2, tzinfo=utc), dt.datetime(2026, 3, 3, tzinfo=utc)
    )


def test_a_resource_the_io_manager_needs_is_named_in_the_check_error(
    instance, feed, sqlite_url, tmp_path
):
    checks = build_profile_checks([typed_orders])  # no required_resource_keys=["warehouse"]
    result = dg.materialize(
        [typed_orders, *checks],
        instance=instance,
        resources=_resources(sqlite_url, tmp_path, typed_csv_io_manager),
        raise_on_error=False,
    )
    assert result.success, failures(result)  # a WARN: the run goes on
    assert meta(evaluation(result), "faucet/error") == (
        "IO manager 'io_manager' requires resource(s) warehouse, which the profile check does "
        "not have: pass required_resource_keys=['warehouse'] to build_profile_checks"
    )


def test_the_duckdb_pandas_io_manager_loads_the_table_it_wrote(
    instance, feed, sqlite_url, tmp_path
):
    from dagster_duckdb_pandas import DuckDBPandasIOManager

    @dg.asset(key_prefix=["sales"])
    def orders() -> pd.DataFrame:
        return todays_frame()

    checks = build_profile_checks([orders])
    manager = DuckDBPandasIOManager(database=str(tmp_path / "wh.duckdb"), schema="sales")
    result = dg.materialize(
        [orders, *checks],
        instance=instance,
        resources=_resources(sqlite_url, tmp_path, manager),
        raise_on_error=False,
    )
    assert result.success, failures(result)
    ev = evaluation(result)
    assert meta(ev, "faucet/status") == "warming", ev.description
    assert meta(ev, "faucet/row_count") == ROWS
    assert "amount.null_rate" in ev.metadata


def test_the_duckdb_pandas_io_manager_loads_one_static_partition(
    instance, feed, sqlite_url, tmp_path
):
    from dagster_duckdb_pandas import DuckDBPandasIOManager

    @dg.asset(
        partitions_def=dg.StaticPartitionsDefinition(["eu", "us"]),
        metadata={"partition_expr": "region_key"},
    )
    def regional(context) -> pd.DataFrame:  # type: ignore[no-untyped-def]
        return todays_frame().assign(region_key=context.partition_key)

    checks = build_profile_checks([regional])
    manager = DuckDBPandasIOManager(database=str(tmp_path / "wh.duckdb"))
    for key in ("eu", "us"):
        result = dg.materialize(
            [regional, *checks],
            instance=instance,
            resources=_resources(sqlite_url, tmp_path, manager),
            partition_key=key,
            raise_on_error=False,
        )
        assert result.success, failures(result)
        ev = evaluation(result)
        assert meta(ev, "faucet/row_count") == ROWS, ev.description  # one partition, not both
        assert meta(ev, "faucet/baseline_key") == f"regional::{key}"


class JsonLinesIOManager(dg.UPathIOManager):
    """A ``UPathIOManager`` storing records as JSON lines under ``base_path``."""

    extension = ".jsonl"

    def dump_to_path(self, context: dg.OutputContext, obj: list[dict[str, Any]], path: UPath):
        path.write_text("".join(json.dumps(r) + "\n" for r in obj))

    def load_from_path(self, context: dg.InputContext, path: UPath) -> list[dict[str, Any]]:
        return [json.loads(line) for line in path.read_text().splitlines()]


def _records() -> list[dict[str, Any]]:
    return [
        {k: (None if pd.isna(v) else v) for k, v in r.items()}
        for r in todays_frame().to_dict("records")
    ]


@pytest.mark.parametrize("partitioned", [False, True], ids=["unpartitioned", "daily"])
def test_a_upath_io_manager_subclass_loads_what_it_wrote(
    instance, feed, sqlite_url, tmp_path, partitioned
):
    @dg.asset(partitions_def=DAILY if partitioned else None)
    def events() -> list[dict[str, Any]]:
        return _records()

    checks = build_profile_checks([events])
    manager = JsonLinesIOManager(base_path=UPath(tmp_path / "lake"))
    result = dg.materialize(
        [events, *checks],
        instance=instance,
        resources=_resources(sqlite_url, tmp_path, manager),
        partition_key="2026-03-02" if partitioned else None,
        raise_on_error=False,
    )
    assert result.success, failures(result)
    ev = evaluation(result)
    assert meta(ev, "faucet/row_count") == ROWS, ev.description
    stored = tmp_path / "lake" / "events" / ("2026-03-02.jsonl" if partitioned else "")
    assert stored.exists() if partitioned else (tmp_path / "lake" / "events.jsonl").exists()


def _dagster_1_10_build_input_context(
    name: str | None = None,
    config: Any = None,
    definition_metadata: Any = None,
    upstream_output: Any = None,
    dagster_type: Any = None,
    resource_config: Any = None,
    resources: Any = None,
    op_def: Any = None,
    step_context: Any = None,
    asset_key: Any = None,
    partition_key: str | None = None,
    asset_partition_key_range: Any = None,
) -> None:
    """The parameters of ``build_input_context`` before ``asset_partitions_def``/``instance``."""


def test_keywords_an_older_dagster_lacks_are_left_out():
    kwargs = {
        "name": "orders",
        "asset_key": dg.AssetKey("orders"),
        "asset_partitions_def": DAILY,
        "instance": object(),
        "partition_key": None,
    }
    assert accepted_kwargs(_dagster_1_10_build_input_context, kwargs) == {
        "name": "orders",
        "asset_key": dg.AssetKey("orders"),
    }
    # The installed Dagster takes them all: nothing of what the check knows is dropped.
    assert set(accepted_kwargs(dg.build_input_context, kwargs)) == {
        "name",
        "asset_key",
        "asset_partitions_def",
        "instance",
    }
    assert "asset_spec" in inspect.signature(dg.build_output_context).parameters
