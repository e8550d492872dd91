"""A simulated orders source: one day of orders per ``FAUCET_EXAMPLE_DAY``.

Normal days vary like real ones (volume +-10 % with a weekly pattern, noisy
shares and a small null rate). Three days carry a fault, so a new user sees
faucet catch it:

* day 9: an upstream change leaves 40 % of ``amount`` null;
* day 10: amounts arrive in cents (x100);
* day 11: a new region, ``latam``, is 12.5 % of the orders.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

__all__ = ["FAULTS", "current_day", "orders_for_day"]

FAULTS = {
    9: "null spike in amount; the partner's rates stop arriving",
    10: "amounts in cents",
    11: "new region latam; ordered_at no longer delivered",
}


def current_day() -> int:
    return int(os.environ.get("FAUCET_EXAMPLE_DAY", "1"))


def orders_for_day(day: int) -> pd.DataFrame:
    rng = np.random.default_rng(1000 + day)
    weekday = day % 7
    rows = int(4000 * (0.8 if weekday in (5, 6) else 1.0) * rng.uniform(0.9, 1.1))
    regions = np.array(["eu", "us", "apac"], dtype=object)
    shares = np.array([0.45, 0.40, 0.15]) + rng.normal(0, 0.01, 3)
    region = rng.choice(regions, size=rows, p=shares / shares.sum())
    if day == 11:
        region[rng.random(rows) < 0.125] = "latam"
    amount = np.round(rng.lognormal(3.4, 0.6, rows), 2)
    if day == 10:
        amount = amount * 100
    amount_nulls = rng.random(rows) < (0.4 if day == 9 else 0.005)
    first_id = 100_000 + day * 5_000
    frame = pd.DataFrame(
        {
            "order_id": np.arange(first_id, first_id + rows),
            "customer_email": [f"c{n}@example.com" for n in rng.integers(0, 3000, rows)],
            "region": region,
            "status": rng.choice(["paid", "refunded", "pending"], size=rows, p=[0.9, 0.03, 0.07]),
            "amount": pd.array(np.where(amount_nulls, np.nan, amount), dtype="Float64"),
            "ordered_at": pd.Timestamp("2026-09-01")
            + pd.to_timedelta(day, unit="D")
            + pd.to_timedelta(rng.integers(0, 86_400, rows), unit="s"),
        }
    )
    if day == 11:  # the upstream system stops sending a column: an observed schema change
        frame = frame.drop(columns=["ordered_at"])
    return frame
