"""A run is marked on a column only for that column's findings, the same way in
``faucet catalog show``, ``faucet profiling show --full`` and the check's summary."""

# No ``from __future__ import annotations``: Dagster inspects the ``context`` annotation.

import dagster as dg
import pandas as pd
import pytest

from faucet_dagster import FaucetResource, build_profile_checks
from faucet_dagster.cli import main

NULL_SHARE = {"total": 0.0}


@dg.asset
def ledger() -> pd.DataFrame:
    rows = 200
    nulls = int(rows * NULL_SHARE["total"])
    return pd.DataFrame(
        {
            "id": range(rows),
            "total": [None if i < nulls else float(10 + i % 37) for i in range(rows)],
        }
    )


checks = build_profile_checks([ledger], config={"min_history": 3})


def test_only_the_drifted_column_is_marked_in_every_view(
    sqlite_url: str, instance: dg.DagsterInstance, capsys: pytest.CaptureFixture[str]
) -> None:
    resources = {"faucet": FaucetResource(store_url=sqlite_url)}
    try:
        for share in (0.0, 0.0, 0.0, 0.5):
            NULL_SHARE["total"] = share
            result = dg.materialize([ledger, *checks], instance=instance, resources=resources)
            assert result.success
    finally:
        NULL_SHARE["total"] = 0.0
    (ev,) = result.get_asset_check_evaluations()
    assert [f["column"] for f in ev.metadata["faucet/findings"].value] == ["total"]
    summary = ev.metadata["summary"].value
    assert "| `id` | 0.0% | ▁▁▁▁ |" in summary
    assert "| `total` ⚠ | 50.0% | ▁▁▁! |" in summary

    assert main(["catalog", "show", "--store", sqlite_url, "dagster://ledger"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "    id: null 0.0% trend ▁▁▁▁" in lines
    assert "    total: null 50.0% trend ▁▁▁!" in lines

    assert main(["profiling", "show", "--store", sqlite_url, "--full"]) == 0
    out = capsys.readouterr().out.splitlines()
    trends = [line.strip() for line in out if "null-rate trend" in line]
    assert trends == ["null-rate trend ▁▁▁▁", "null-rate trend ▁▁▁!"]
