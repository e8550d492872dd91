"""ProfilingComponent loaded from defs.yaml with Dagster's component test helpers.

(`dg` itself pins a different dagster patch release and cannot be installed beside ours.)
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import dagster as dg
import pandas as pd
import pytest
from dagster.components.scaffold.scaffold import get_scaffolder
from dagster.components.testing import create_defs_folder_sandbox

from faucet_core.config import OnDrift
from faucet_dagster import ProfilingComponent
from faucet_dagster.component import ProfilingScaffolder

TYPE = "faucet_dagster.ProfilingComponent"


@contextmanager
def loaded(attributes: str) -> Iterator[tuple[ProfilingComponent, dg.Definitions]]:
    with create_defs_folder_sandbox() as sandbox:
        path = sandbox.defs_folder_path / "profiling"
        path.mkdir()
        (path / "defs.yaml").write_text(f"type: {TYPE}\nattributes:\n{attributes}")
        with sandbox.load_component_and_build_defs(defs_path=path) as (component, defs):
            assert isinstance(component, ProfilingComponent)
            yield component, defs


def _load_error(attributes: str) -> str:
    with pytest.raises(Exception) as info, loaded(attributes):  # noqa: PT011 - Dagster wraps it
        pass
    return "".join(str(e) for e in _chain(info.value))


def _chain(exc: BaseException | None) -> Iterator[BaseException]:
    while exc is not None:
        yield exc
        exc = exc.__cause__ or exc.__context__


def test_yaml_block_becomes_checks_and_a_resource() -> None:
    attributes = (
        "  assets: [orders, sales/customers]\n"
        "  profiling:\n    min_history: 3\n    window: 10\n    exclude: [tmp_*]\n"
        "  asset_profiling:\n    orders:\n      on_drift: fail\n"
    )
    with loaded(attributes) as (component, defs):
        assert component.profiling.min_history == 3
        assert component.profiling.exclude == ["tmp_*"]
        assert component.asset_profiling["orders"].on_drift is OnDrift.FAIL
        graph = defs.resolve_asset_graph()
        keys = sorted(k.to_user_string() for k in graph.asset_check_keys)
        assert keys == ["orders:faucet_profile", "sales/customers:faucet_profile"]
        orders = graph.get_check_spec(dg.AssetCheckKey(dg.AssetKey("orders"), "faucet_profile"))
        assert orders.blocking is True  # on_drift: fail replaces the block for orders
        assert "faucet" in (defs.resources or {})


def test_bad_value_fails_with_file_line_field_and_rule() -> None:
    text = _load_error("  assets: [orders]\n  profiling:\n    min_history: 1\n")
    assert "defs.yaml:4" in text
    assert "attributes.profiling.min_history: 1 is invalid: " in text
    assert "greater than or equal to 2" in text


def test_misspelt_key_fails_with_its_location() -> None:
    text = _load_error("  assets: [orders]\n  profiling:\n    min_histroy: 3\n")
    assert "min_histroy" in text
    assert "defs.yaml:4" in text
    assert "Extra inputs are not permitted" in text


def test_window_below_min_history_is_refused() -> None:
    text = _load_error("  assets: [orders]\n  profiling:\n    min_history: 8\n    window: 4\n")
    assert "window (4) must be >= min_history (8)" in text


def test_component_checks_run_after_materialization(tmp_path: Path) -> None:
    @dg.asset
    def orders() -> pd.DataFrame:
        return pd.DataFrame({"amount": [1.0, 2.0, None], "region": ["eu", "us", "eu"]})

    with loaded("  assets: [orders]\n") as (_component, defs):
        checks = list(defs.asset_checks or [])
        resources = {"faucet": defs.resources["faucet"]}  # type: ignore[index]
    store_url = f"sqlite:///{tmp_path / 'f.db'}"
    resources = {"faucet": type(resources["faucet"])(store_url=store_url)}
    with dg.instance_for_test() as instance:
        result = dg.materialize([orders, *checks], instance=instance, resources=resources)
        (evaluation,) = result.get_asset_check_evaluations()
    assert evaluation.passed
    assert evaluation.metadata["faucet/status"].value == "warming"


def test_registered_for_dg() -> None:
    entry = [
        e
        for e in importlib.metadata.entry_points(group="dagster_dg_cli.registry_modules")
        if e.name == "faucet_dagster"
    ]
    assert [e.value for e in entry] == ["faucet_dagster"]
    module = entry[0].load()
    assert module.ProfilingComponent is ProfilingComponent


def test_scaffolder_writes_a_loadable_defs_yaml(tmp_path: Path) -> None:
    with create_defs_folder_sandbox() as sandbox:
        path = sandbox.scaffold_component(component_cls=ProfilingComponent, defs_path="prof")
        text = (path / "defs.yaml").read_text()
        assert "ProfilingComponent" in text.splitlines()[0]
        assert "min_history: 5" in text
        with sandbox.load_component_and_build_defs(defs_path=path) as (component, _defs):
            assert component.assets == ["my_asset"]
    assert isinstance(get_scaffolder(ProfilingComponent), ProfilingScaffolder)
