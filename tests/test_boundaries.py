"""Package boundaries: faucet_core never imports dagster, and the public names are real."""

from __future__ import annotations

import ast
import importlib
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _imports(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def test_faucet_core_source_never_imports_dagster() -> None:
    offenders = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "faucet-core" / "faucet_core").rglob("*.py")
        if {"dagster", "faucet_dagster"} & _imports(p)
    ]
    assert offenders == []


def test_importing_faucet_core_loads_no_dagster() -> None:
    code = "import sys, faucet_core, faucet_core.profile; print('dagster' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(
    "package",
    [
        "faucet_core",
        "faucet_core.profile",
        "faucet_core.drift",
        "faucet_core.freshness",
        "faucet_core.store",
        "faucet_core.catalog",
        "faucet_core.lineage",
        "faucet_core.notify",
        "faucet_core.impact",
        "faucet_dagster",
        "faucet_dagster.lineage",
        "faucet_dagster.serve.console",
        "faucet_dagster.serve",
        "faucet_dagster.serve.api",
        "faucet_dagster.checks",
        "faucet_dagster.notifications",
        "faucet_dagster.plan",
        "faucet_dagster.dbt",
    ],
)
def test_all_names_strings_that_resolve(package: str) -> None:
    module = importlib.import_module(package)
    names = module.__all__
    assert all(isinstance(n, str) for n in names)
    assert len(set(names)) == len(names)
    missing = [n for n in names if not hasattr(module, n)]
    assert missing == []
