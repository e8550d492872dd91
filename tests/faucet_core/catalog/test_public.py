"""The public names of the catalog and lineage packages are strings that resolve."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    "package", ["faucet_core.catalog", "faucet_core.lineage", "faucet_dagster.lineage"]
)
def test_all_names_are_strings_that_resolve(package: str) -> None:
    module = importlib.import_module(package)
    names = module.__all__
    assert all(isinstance(n, str) for n in names)
    assert len(set(names)) == len(names)
    assert [n for n in names if not hasattr(module, n)] == []


def test_the_catalog_loads_neither_dagster_nor_the_http_stack() -> None:
    code = (
        "import sys, faucet_core.catalog, faucet_core.lineage.parse; "
        "print(sorted(m for m in ('dagster', 'starlette', 'openlineage') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
