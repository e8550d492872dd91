"""The console tests' code location: the plan tests' assets (raw -> customers ->
contacts, untyped) and ``ledger``, a pandas asset with faucet's profile checks: on its
fourth run ``total`` turns half null and ``amount`` jumps by 10,000 (drifts the detector
finds), ``id`` stays as it was.

No ``from __future__ import annotations``: Dagster inspects the annotations.
"""

import dagster as dg
import pandas as pd

from faucet_dagster import FaucetResource, build_profile_checks
from tests.faucet_dagster.plan.location import contacts, customers, raw, untyped

NULL_SHARE = {"total": 0.0}
SHIFT = {"amount": 0.0}


@dg.asset(owners=["team:finance"])
def ledger() -> pd.DataFrame:
    rows = 200
    nulls = int(rows * NULL_SHARE["total"])
    return pd.DataFrame(
        {
            "id": range(rows),
            "total": [None if i < nulls else float(10 + i % 37) for i in range(rows)],
            "amount": [SHIFT["amount"] + 100.0 + i % 13 for i in range(rows)],
        }
    )


checks = build_profile_checks([ledger], config={"min_history": 3})

defs = dg.Definitions(
    assets=[raw, customers, contacts, untyped, ledger],
    asset_checks=checks,
    resources={"faucet": FaucetResource()},  # the tests give the server its store
)
