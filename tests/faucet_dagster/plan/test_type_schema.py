"""The planned schema from the table schema of an asset's Dagster type (the shape
dagster-pandera's ``pandera_schema_to_dagster_type`` builds: ``metadata={"schema": ...}``)
when the asset declares no ``dagster/column_schema`` and no sample is given: planned
against the schema a real materialization's profile check recorded."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
import pandas as pd
import pytest

from faucet_core.catalog import Catalog
from faucet_core.impact import ImpactReport, ImpactSeverity, PlannedFrom
from faucet_dagster import build_profile_checks
from faucet_dagster.plan.impact import plan_asset_impact
from tests.faucet_dagster.helpers import materialize

DTYPES = {"id": "int64", "name": "str", "score": "float64", "seen_at": "datetime64[ns]"}


def _frame_type(columns: dict[str, str]) -> dg.DagsterType:
    schema = dg.TableSchema(columns=[dg.TableColumn(n, t) for n, t in columns.items()])
    return dg.DagsterType(
        type_check_fn=lambda _, value: isinstance(value, pd.DataFrame),
        name="CustomerFrame",
        metadata={"schema": dg.MetadataValue.table_schema(schema)},
        typing_type=pd.DataFrame,
    )


def _customers(columns: dict[str, str]) -> dg.AssetsDefinition:
    @dg.asset(name="customers", dagster_type=_frame_type(columns))
    def customers() -> pd.DataFrame:
        return pd.DataFrame(
            {
                "id": [1, 2, 3],
                "name": ["ann", "bo", None],
                "score": [0.5, 1.5, 2.5],
                "seen_at": pd.to_datetime(["2026-01-01", "2026-01-02", "2026-01-03"]),
            }
        )

    return customers


def _plan(tmp_path: Path, planned_columns: dict[str, str]) -> ImpactReport:
    store = f"sqlite:///{tmp_path / 'faucet.db'}"
    recorded = _customers(DTYPES)
    with dg.instance_for_test() as instance:
        result = materialize([recorded, *build_profile_checks([recorded])], instance, store)
        assert result.success
    defs = dg.Definitions(assets=[_customers(planned_columns)])
    with Catalog(store) as catalog:
        return plan_asset_impact(catalog, defs, "customers")


def test_the_unchanged_type_plans_no_change(tmp_path: Path) -> None:
    report = _plan(tmp_path, DTYPES)
    assert report.planned_from is PlannedFrom.DECLARED
    assert (report.severity, report.schema_delta) == (ImpactSeverity.NONE, ())
    assert report.notes[0] == (
        "planned from the table schema of the asset's Dagster type (no dagster/column_schema)"
    )


def test_a_column_the_type_no_longer_declares_is_removed(tmp_path: Path) -> None:
    report = _plan(tmp_path, {k: v for k, v in DTYPES.items() if k != "name"})
    assert report.severity is ImpactSeverity.BREAKING
    assert [(c.column, c.change.value) for c in report.schema_delta] == [("name", "removed")]


# -- dagster-pandas' create_dagster_pandas_dataframe_type ----------------------------------
# dagster-pandas marks its dataframe types and columns as beta
beta = pytest.mark.filterwarnings("ignore::dagster_shared.utils.warnings.BetaWarning")


def _pandas_type(columns: list[str]) -> dg.DagsterType:
    from dagster_pandas import PandasColumn, create_dagster_pandas_dataframe_type

    made = {
        "id": lambda: PandasColumn.integer_column("id", non_nullable=True),
        "name": lambda: PandasColumn.string_column("name"),
        "score": lambda: PandasColumn.float_column("score"),
        "seen_at": lambda: PandasColumn.datetime_column("seen_at"),
    }
    return create_dagster_pandas_dataframe_type(
        name="CustomerFrame", columns=[made[c]() for c in columns]
    )


def _pandas_customers(columns: list[str]) -> dg.AssetsDefinition:
    @dg.asset(name="customers", dagster_type=_pandas_type(columns))
    def customers() -> pd.DataFrame:
        return pd.DataFrame(
            {
                "id": [1, 2, 3],
                "name": ["ann", "bo", None],
                "score": [0.5, 1.5, 2.5],
                # dagster-pandas checks for nanoseconds; pandas 3 parses to microseconds
                "seen_at": pd.to_datetime(["2026-01-01", "2026-01-02", "2026-01-03"]).astype(
                    "datetime64[ns]"
                ),
            }
        )

    return customers


def _plan_pandas(tmp_path: Path, defs_asset: dg.AssetsDefinition) -> ImpactReport:
    store = f"sqlite:///{tmp_path / 'faucet.db'}"
    recorded = _pandas_customers(list(DTYPES))
    with dg.instance_for_test() as instance:
        # the real type check runs on the materialized frame (pandas 3's str dtype passes)
        result = materialize([recorded, *build_profile_checks([recorded])], instance, store)
        assert result.success
    with Catalog(store) as catalog:
        return plan_asset_impact(catalog, dg.Definitions(assets=[defs_asset]), "customers")


@beta
def test_a_dagster_pandas_type_declares_its_columns(tmp_path: Path) -> None:
    from faucet_dagster.plan.typeschema import pandas_columns_of

    declared = pandas_columns_of(_pandas_type(list(DTYPES)))
    assert declared is not None
    assert [(f.name, f.type) for f in declared] == list(DTYPES.items())
    unchanged = _plan_pandas(tmp_path, _pandas_customers(list(DTYPES)))
    assert unchanged.planned_from is PlannedFrom.DECLARED
    assert (unchanged.severity, unchanged.schema_delta) == (ImpactSeverity.NONE, ())


@beta
def test_a_column_a_dagster_pandas_type_drops_is_removed(tmp_path: Path) -> None:
    report = _plan_pandas(tmp_path, _pandas_customers(["id", "score", "seen_at"]))
    assert report.severity is ImpactSeverity.BREAKING
    assert [(c.column, c.change.value) for c in report.schema_delta] == [("name", "removed")]


@beta
def test_other_types_declare_nothing_through_the_pandas_reader() -> None:
    from faucet_dagster.plan.typeschema import pandas_columns_of

    assert pandas_columns_of(_frame_type(DTYPES)) is None
    assert pandas_columns_of(dg.Int) is None
    columns = ["not", "pandas", "columns"]

    def check(_, value):  # a closure over a list named columns that is no PandasColumn list
        return bool(columns)

    assert pandas_columns_of(dg.DagsterType(type_check_fn=check, name="Odd")) is None
