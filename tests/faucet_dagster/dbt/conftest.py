"""One real build of the example dbt project per test session (dbt runs take seconds)."""

from __future__ import annotations

from collections.abc import Iterator

import dagster as dg
import pytest

from tests.faucet_dagster.dbt.project import (
    BuiltProject,
    copy_example,
    dbt_on_path,
    example_module,
)


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BuiltProject]:
    """The example copied to a temporary folder, built once (``dbt build`` of every seed and
    model, then every profile check) and recorded in the catalog by its lineage sensor."""
    root = tmp_path_factory.mktemp("dbt")
    folder = copy_example(root / "dbt_example")
    with dbt_on_path(folder), dg.instance_for_test() as instance:
        example = example_module()
        project = example.prepare(folder)
        store_url = f"sqlite:///{root / 'faucet.db'}"
        defs = example.build_defs(project, store_url=store_url)
        built = BuiltProject(folder, project, defs, instance, store_url)
        result = built.run()
        assert result.success
        built.first = result
        yield built
