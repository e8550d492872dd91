"""With neither -m nor -f, a faucet command finds the code location the way the dagster CLI
does: the working directory's pyproject.toml ([tool.dagster], [tool.dg.project]), else its
workspace.yaml. The faucet command runs as a subprocess in a project folder; the same
folder is checked with ``dagster definitions validate`` (Dagster's own discovery)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
DEFS = """
import dagster as dg

@dg.asset
def orders() -> None: ...

@dg.asset(deps=[orders])
def report() -> None: ...

defs = dg.Definitions(assets=[orders, report])
"""
PROJECTS = {
    "tool.dagster": {
        "pyproject.toml": '[tool.dagster]\nmodule_name = "shop.defs"\n',
        "shop/__init__.py": "",
        "shop/defs.py": DEFS,
    },
    "tool.dg": {
        "pyproject.toml": (
            '[tool.dg]\ndirectory_type = "project"\n\n[tool.dg.project]\nroot_module = "shop"\n'
        ),
        "shop/__init__.py": "",
        "shop/definitions.py": DEFS,
    },
    "tool.dg-src-layout": {
        "pyproject.toml": (
            '[tool.dg]\ndirectory_type = "project"\n\n[tool.dg.project]\nroot_module = "shop"\n'
        ),
        "src/shop/__init__.py": "",
        "src/shop/definitions.py": DEFS,
    },
    "workspace-file": {
        "workspace.yaml": "load_from:\n  - python_file: code/defs.py\n",
        "code/defs.py": DEFS,
    },
    "workspace-module": {
        "workspace.yaml": (
            "load_from:\n  - python_module:\n      module_name: shop.defs\n"
            "      working_directory: src\n"
        ),
        "src/shop/__init__.py": "",
        "src/shop/defs.py": DEFS,
    },
}


def _project(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def _run(folder: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FAUCET_", "DAGSTER_"))}
    env.update(
        FAUCET_STORE_URL=f"sqlite:///{folder / 'faucet.db'}",
        DAGSTER_HOME=str(folder),
        DAGSTER_DISABLE_TELEMETRY="1",
    )
    return subprocess.run(
        [str(BIN / argv[0]), *argv[1:]],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )


@pytest.mark.parametrize("kind", sorted(PROJECTS))
def test_catalog_sync_finds_the_location_like_dagster(tmp_path: Path, kind: str) -> None:
    folder = _project(tmp_path, PROJECTS[kind])
    synced = _run(folder, "faucet", "catalog", "sync", "--json")
    assert (synced.returncode, synced.stderr) == (0, "")
    assert '"assets": 2' in synced.stdout
    if kind == "tool.dg-src-layout":
        return  # Dagster imports it once the project is installed (faucet: from src/)
    validated = _run(folder, "dagster", "definitions", "validate")  # Dagster finds it too
    assert validated.returncode == 0
    assert "All code locations passed validation." in validated.stdout + validated.stderr


def test_plan_without_a_location_anywhere_says_how_to_give_one(tmp_path: Path) -> None:
    done = _run(tmp_path, "faucet", "plan", "--impact", "--select", "orders")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "Error: faucet plan --impact needs a code location: give -m MODULE or -f FILE, or run "
        "it in a project folder whose pyproject.toml has [tool.dagster] module_name or "
        "[tool.dg.project] root_module, or that has a workspace.yaml (as the dagster CLI "
        "finds it)\n"
    )


def test_a_workspace_of_several_locations_is_refused(tmp_path: Path) -> None:
    files = {
        "workspace.yaml": "load_from:\n  - python_file: a.py\n  - python_file: b.py\n",
        "a.py": DEFS,
        "b.py": DEFS,
    }
    done = _run(_project(tmp_path, files), "faucet", "catalog", "sync")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"Error: {tmp_path / 'workspace.yaml'} lists 2 code locations; faucet works on one: "
        "pass -m MODULE or -f FILE\n"
    )


SHOP = {"shop/__init__.py": "", "shop/helpers.py": "NAME = 'orders'\n", "shop/defs.py": DEFS}


def test_d_names_the_folder_a_module_is_imported_from(tmp_path: Path) -> None:
    """As the dagster CLI's -d: the project folder goes on sys.path, whatever folder the
    command runs in."""
    project = _project(tmp_path / "project", SHOP)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    without = _run(elsewhere, "faucet", "catalog", "sync", "-m", "shop.defs")
    assert (without.returncode, without.stdout) == (1, "")
    assert "No module named 'shop'" in without.stderr
    synced = _run(elsewhere, "faucet", "catalog", "sync", "-m", "shop.defs", "-d", str(project))
    assert (synced.returncode, synced.stderr) == (0, "")
    assert synced.stdout.startswith("synced 2 asset(s) from shop.defs into ")


def test_d_finds_the_project_files_of_that_folder(tmp_path: Path) -> None:
    project = _project(tmp_path / "project", PROJECTS["tool.dagster"])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    synced = _run(elsewhere, "faucet", "catalog", "sync", "--json", "-d", str(project))
    assert (synced.returncode, synced.stderr) == (0, "")
    assert '"assets": 2' in synced.stdout


def test_a_d_that_is_no_folder_says_so(tmp_path: Path) -> None:
    done = _run(
        tmp_path, "faucet", "plan", "--impact", "--select", "orders", "-m", "shop.defs", "-d", "x"
    )
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "Error: -d 'x': no such folder; give the folder your code location's package "
        "is imported from (the project folder)\n"
    )
