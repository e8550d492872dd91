"""Realistic daily tables for the detection benchmark, one seeded generator per table.

A day is a dict of column name -> NumPy array (None marks a null in object arrays),
so a fault can edit it before it becomes a pyarrow Table. Every draw comes from
``np.random.default_rng([table seed, seed, day])``: a day is the same whether it is
built for a stable run or for a fault.

``orders`` (10 columns, ~5,000-12,000 rows a day):

| column | content | what makes it hard |
|---|---|---|
| order_id | growing integer ids with ~2 % gaps | mean/min/max trend upward every day |
| customer_id | Zipf-popular ids from a growing customer base | distinct follows the day's volume |
| amount | log-normal prices, rare bulk orders x20-80, 0.3-1.5 % nulls | heavy-tailed max and min |
| quantity | 1 + geometric, capped at 40 | small discrete max; 10+ values, full top list |
| region | 5 two-letter codes, shares wander daily | noisy shares |
| status | 6 states; fewer "shipped" at weekends | weekly share pattern, a 1 % value |
| country | 35 Zipf-weighted codes + 25 rare ones | the edge of the top-10 list; rare values |
| order_date | the run's date as text, 3 % late rows of the day before | new values every run |
| note | free text, 20-30 % null | high-cardinality text lengths |
| is_gift | boolean, more gifts at weekends | weekly share pattern |

``events`` (8 columns, ~1,500-3,000 rows a day): hourly timestamps as text (24 values a
day), a signed float around zero, a heavy-tailed latency, an integer HTTP status enum,
60 near-uniform endpoints (the top-10 list is all edge), a user agent with a growing
tail, a nullable score with a daily-varying null rate, a constant source tag.

Volumes vary +-10 % around a weekly pattern (weekends lower) and a slow growth.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import numpy as np
import pyarrow as pa

Day = dict[str, Any]

START = dt.date(2025, 1, 6)
_WEEKLY = np.array([1.0, 1.02, 1.0, 0.98, 1.05, 0.78, 0.72])
_REGIONS = np.array(["EU", "US", "AP", "SA", "AF"])
_REGION_P = np.array([0.38, 0.30, 0.17, 0.09, 0.06])
_STATUSES = np.array(["paid", "shipped", "delivered", "cancelled", "refunded", "on_hold"])
_STATUS_P = np.array([0.55, 0.25, 0.12, 0.05, 0.02, 0.01])
_STATUS_P_WEEKEND = np.array([0.64, 0.15, 0.13, 0.05, 0.02, 0.01])
_LETTERS = np.array(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))


def _codes(rng: np.random.Generator, n: int) -> np.ndarray:
    pairs = {"".join(rng.choice(_LETTERS, 2)) for _ in range(n * 3)}
    return np.array(sorted(pairs)[:n])


_FIXED = np.random.default_rng(7)
_COUNTRIES = _codes(_FIXED, 60)
_COUNTRY_P = np.concatenate(
    [1.0 / np.arange(1, 36) ** 1.1, np.full(25, 0.0)]
)  # 25 rare ones get their weight per day
_VOCAB = np.array(
    ["".join(_FIXED.choice(_LETTERS, _FIXED.integers(2, 9))).lower() for _ in range(800)]
)
_ENDPOINTS = np.array([f"/api/v1/{w}" for w in _VOCAB[:60]])
_AGENTS = np.array([f"client/{major}.{minor}" for major in range(1, 9) for minor in range(10)])


def run_date(seed: int, day: int) -> dt.date:
    """Day 0 of seed s is a Monday + (s mod 7) days: every weekday starts some history."""
    return START + dt.timedelta(days=day + seed % 7)


def volume(rng: np.random.Generator, seed: int, day: int, base: float) -> int:
    weekday = run_date(seed, day).weekday()
    return int(base * _WEEKLY[weekday] * (1 + 0.002 * day) * rng.uniform(0.9, 1.1))


def _with_nulls(rng: np.random.Generator, values: np.ndarray, rate: float) -> np.ndarray:
    out = values.astype(object)
    out[rng.random(values.size) < rate] = None
    return out


def _texts(rng: np.random.Generator, n: int) -> np.ndarray:
    words = rng.choice(_VOCAB, size=(n, 24))
    counts = np.minimum(1 + rng.poisson(7, n), 24)
    return np.array([" ".join(words[i, : counts[i]]) for i in range(n)], dtype=object)


def orders(seed: int, day: int) -> Day:
    rng = np.random.default_rng([1, seed, day])
    n = volume(rng, seed, day, 9000)
    weekend = run_date(seed, day).weekday() >= 5
    first_id = 1_000_000 + int(9000 * 1.02 * day * (1 + 0.001 * day))
    ids = first_id + np.sort(rng.choice(int(n * 1.02), size=n, replace=False))
    base = 40_000 + 60 * day
    popularity = 1.0 / np.arange(1, base + 1) ** 0.8
    customers = 1 + rng.choice(base, size=n, p=popularity / popularity.sum())
    amount = np.round(rng.lognormal(3.3, 1.0, n), 2)
    bulk = rng.random(n) < 2e-4
    amount[bulk] *= rng.uniform(20, 80, int(bulk.sum()))
    quantity = np.minimum(1 + rng.geometric(0.45, n) - 1, 40)
    region_p = rng.dirichlet(_REGION_P * 400)
    status_p = rng.dirichlet((_STATUS_P_WEEKEND if weekend else _STATUS_P) * 300)
    country_p = _COUNTRY_P.copy()
    country_p[35:] = rng.exponential(2e-4, 25) * (rng.random(25) < 0.3)
    country_p = country_p / country_p.sum()
    today = run_date(seed, day).isoformat()
    yesterday = run_date(seed, day - 1).isoformat()
    return {
        "order_id": ids,
        "customer_id": customers,
        "amount": _with_nulls(rng, amount, rng.uniform(0.003, 0.015)),
        "quantity": quantity,
        "region": rng.choice(_REGIONS, size=n, p=region_p).astype(object),
        "status": rng.choice(_STATUSES, size=n, p=status_p).astype(object),
        "country": rng.choice(_COUNTRIES, size=n, p=country_p).astype(object),
        "order_date": np.where(rng.random(n) < 0.03, yesterday, today).astype(object),
        "note": _with_nulls(rng, _texts(rng, n), rng.uniform(0.2, 0.3)),
        "is_gift": rng.random(n) < (0.10 if weekend else 0.07),
    }


ORDERS_TYPES: dict[str, pa.DataType] = {
    "order_id": pa.int64(),
    "customer_id": pa.int64(),
    "amount": pa.float64(),
    "quantity": pa.int64(),
    "region": pa.string(),
    "status": pa.string(),
    "country": pa.string(),
    "order_date": pa.string(),
    "note": pa.string(),
    "is_gift": pa.bool_(),
}


def events(seed: int, day: int) -> Day:
    rng = np.random.default_rng([2, seed, day])
    n = volume(rng, seed, day, 2200)
    date = run_date(seed, day)
    hours = np.sort(rng.choice(24, size=n, p=_hour_profile()))
    stamp = np.array([f"{date.isoformat()}T{h:02d}" for h in range(24)], dtype=object)
    endpoint_p = rng.dirichlet(np.full(60, 40.0))
    agent_w = np.exp(-np.arange(_AGENTS.size) / (6 + 0.1 * day))
    return {
        "hour": stamp[hours],
        "delta": np.round(rng.normal(0.0, 1.0, n) + rng.normal(0, 0.02), 4),
        "latency_ms": np.round(rng.pareto(2.5, n) * 40 + 5, 1),
        "http_status": rng.choice(
            np.array([200, 201, 204, 301, 400, 404, 500]),
            size=n,
            p=rng.dirichlet(np.array([0.70, 0.08, 0.05, 0.03, 0.05, 0.07, 0.02]) * 500),
        ),
        "endpoint": rng.choice(_ENDPOINTS, size=n, p=endpoint_p).astype(object),
        "agent": rng.choice(_AGENTS, size=n, p=agent_w / agent_w.sum()).astype(object),
        "score": _with_nulls(rng, rng.beta(2, 5, n), rng.uniform(0.02, 0.08)),
        "source": np.full(n, "web", dtype=object),
    }


def _hour_profile() -> np.ndarray:
    hours = np.arange(24)
    weights = 1 + np.sin((hours - 6) / 24 * 2 * np.pi) + 0.2
    return weights / weights.sum()


EVENTS_TYPES: dict[str, pa.DataType] = {
    "hour": pa.string(),
    "delta": pa.float64(),
    "latency_ms": pa.float64(),
    "http_status": pa.int64(),
    "endpoint": pa.string(),
    "agent": pa.string(),
    "score": pa.float64(),
    "source": pa.string(),
}

CALENDAR_COLUMNS = frozenset({"order_date", "hour"})
"""Columns whose values are the run's own date or hour."""

TABLES: dict[str, tuple[Callable[[int, int], Day], dict[str, pa.DataType]]] = {
    "orders": (orders, ORDERS_TYPES),
    "events": (events, EVENTS_TYPES),
}


def to_arrow(day: Day, types: dict[str, pa.DataType]) -> pa.Table:
    """The day as a pyarrow Table; a column a fault retyped keeps its new type."""
    arrays = {}
    for name, values in day.items():
        wanted = types.get(name)
        if isinstance(values, pa.Array):
            arrays[name] = values
        elif wanted is not None:
            arrays[name] = pa.array(values, type=wanted, from_pandas=True)
        else:
            arrays[name] = pa.array(values, from_pandas=True)
    return pa.table(arrays)
