"""Owners declared the way Dagster's own examples do (``metadata={"owner": ...}``) count as
the asset's owners, with ``owners=``: in ``faucet catalog sync`` and in the impact plan."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from faucet_dagster.cli import main

LOCATION = """
import dagster as dg

@dg.asset(metadata={"owner": "data-eng@example.com"})
def orders() -> None: ...

@dg.asset(deps=[orders], owners=["team:bi"], metadata={"owner": ["alice@example.com"]})
def report() -> None: ...

defs = dg.Definitions(assets=[orders, report])
"""


def _faucet(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_metadata_owner_is_an_owner(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    location = tmp_path / "defs.py"
    location.write_text(LOCATION)
    store = f"sqlite:///{tmp_path / 'catalog.db'}"
    code, _, err = _faucet(capsys, "catalog", "sync", "-f", str(location), "--store", store)
    assert (code, err) == (0, "")
    owners = {}
    for uri in ("dagster://orders", "dagster://report"):
        code, out, _ = _faucet(capsys, "catalog", "show", uri, "--json", "--store", store)
        owners[uri] = json.loads(out)["owners"]
    assert owners == {
        "dagster://orders": ["data-eng@example.com"],
        "dagster://report": ["team:bi", "alice@example.com"],
    }


def test_a_metadata_owner_that_is_not_a_name_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    location = tmp_path / "defs.py"
    location.write_text(LOCATION.replace('"owner": "data-eng@example.com"', '"owner": 7'))
    store = f"sqlite:///{tmp_path / 'catalog.db'}"
    code, out, err = _faucet(capsys, "catalog", "sync", "-f", str(location), "--store", store)
    assert (code, out) == (1, "")
    assert err == (
        "Error: asset orders: metadata owner is 7: give an owner name or a list of them, e.g. "
        '"data-eng" or ["alice@example.com", "team:data"]\n'
    )
