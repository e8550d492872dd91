"""The console health tests' code location: one asset per status the datasets list shows.

* ``orders`` (5 runs): its fifth run drifts: ``region`` gains a new value (``mars``, 30 %
  of the records) and ``amount`` jumps by 5,000;
* ``signups`` (1 run): warming up (3 baseline runs are needed);
* ``payments`` (2 runs, then a check whose loader fails): a check error;
* ``regional_report``: has a profile check and never ran.

No ``from __future__ import annotations``: Dagster inspects the annotations.
"""

import dagster as dg
import pandas as pd

from faucet_dagster import FaucetResource, build_profile_checks

STATE = {"drift": False, "broken": False, "rows": 240}
REGIONS = ("north", "south", "east", "west")


@dg.asset(owners=["team:sales"])
def orders() -> pd.DataFrame:
    rows = STATE["rows"]
    drift = STATE["drift"]
    return pd.DataFrame(
        {
            "id": [f"o-{i}" for i in range(rows)],
            "region": [
                "mars" if drift and i % 10 < 3 else REGIONS[i % len(REGIONS)] for i in range(rows)
            ],
            "amount": [(5000.0 if drift else 0.0) + 20.0 + i % 17 for i in range(rows)],
            "note": [None if i % 5 == 0 else f"note {i % 7}" for i in range(rows)],
        }
    )


@dg.asset
def signups() -> pd.DataFrame:
    return pd.DataFrame(
        {"user": [f"u{i}" for i in range(50)], "age": [20 + i % 30 for i in range(50)]}
    )


@dg.asset
def payments() -> pd.DataFrame:
    return pd.DataFrame({"id": list(range(80)), "paid": [float(i % 9) for i in range(80)]})


@dg.asset(deps=[orders])
def regional_report() -> pd.DataFrame:
    return pd.DataFrame({"region": list(REGIONS)})


def _payments_loader(context: object) -> pd.DataFrame:
    if STATE["broken"]:
        raise RuntimeError("the payments export is unreachable")
    return payments()


checks = [
    *build_profile_checks([orders, signups, regional_report], config={"min_history": 3}),
    *build_profile_checks([payments], config={"min_history": 3}, loader=_payments_loader),
]

defs = dg.Definitions(
    assets=[orders, signups, payments, regional_report],
    asset_checks=checks,
    resources={"faucet": FaucetResource()},
)
