"""Profile a day of synthetic orders and print the profile (the README's main job)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from typing import Any

from faucet_core import ProfilingConfig, profile
from faucet_core.config import PolicyConfig
from faucet_dagster.cli.render import render_profile


def orders(day: int, rows: int = 20_000, seed: int = 7) -> Iterator[dict[str, Any]]:
    rng = random.Random(seed + day)
    start = dt.datetime(2026, 9, 1) + dt.timedelta(days=day)
    for i in range(rows):
        yield {
            "order_id": day * 1_000_000 + i,
            "customer_email": f"user{rng.randrange(5000)}@example.com",
            "amount": None if rng.random() < 0.01 else round(rng.lognormvariate(3.5, 0.8), 2),
            "region": rng.choices(["eu", "us", "apac"], weights=[45, 40, 15])[0],
            "created_at": start + dt.timedelta(seconds=rng.randrange(86_400)),
            "items": [{"sku": f"S{rng.randrange(40)}", "qty": rng.randint(1, 3)}],
        }


def main() -> None:
    config = ProfilingConfig(policy=PolicyConfig.pii())
    print(render_profile(profile(orders(0), config), title="orders (day 0)", full=True))


if __name__ == "__main__":
    main()
