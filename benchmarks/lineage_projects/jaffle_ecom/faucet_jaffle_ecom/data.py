"""The shop's raw tables for one day, seeded: each day's seeds hold the whole history up to
that day (new customers sign up, each day's orders are added), so every dbt build sees more
rows than the one before. Products, stores and supplies stay as they are."""

from __future__ import annotations

import csv
import datetime as dt
import uuid
from pathlib import Path

import numpy as np

__all__ = ["write_seeds"]

SEED = 30_2026
START = dt.datetime(2026, 3, 2, 7, 0)

FIRST = [
    "Ada",
    "Ben",
    "Cleo",
    "Dev",
    "Eli",
    "Fay",
    "Gus",
    "Hana",
    "Ivo",
    "Jo",
    "Kim",
    "Lea",
    "Max",
    "Noor",
    "Oli",
    "Pia",
    "Quin",
    "Rui",
    "Sam",
    "Tao",
    "Uma",
    "Vik",
]
LAST = [
    "Abe",
    "Berg",
    "Costa",
    "Diaz",
    "Evans",
    "Frey",
    "Gill",
    "Hart",
    "Ito",
    "Jung",
    "Khan",
    "Lund",
    "Moro",
    "Nagy",
    "Ortiz",
    "Park",
    "Quist",
    "Rossi",
    "Sato",
    "Toth",
]
STORES = [
    ("Philadelphia", dt.datetime(2016, 9, 1), 0.06),
    ("Brooklyn", dt.datetime(2017, 3, 12), 0.04),
    ("Chicago", dt.datetime(2018, 4, 29), 0.0625),
    ("San Francisco", dt.datetime(2018, 11, 3), 0.075),
]
PRODUCTS = [  # sku, name, type, price (cents), description
    ("JAF-001", "the first bite", "jaffle", 1100, "cheddar and chives, toasted"),
    ("JAF-002", "tangy tuesday", "jaffle", 1200, "kimchi and gruyere"),
    ("JAF-003", "morning glory", "jaffle", 1000, "egg, bacon and tomato relish"),
    ("JAF-004", "the full garden", "jaffle", 1400, "roast vegetables and feta"),
    ("JAF-005", "sweet finish", "jaffle", 900, "banana, honey and cinnamon"),
    ("BEV-001", "flat white", "beverage", 450, "double shot, steamed milk"),
    ("BEV-002", "cold brew", "beverage", 500, "steeped for sixteen hours"),
    ("BEV-003", "chai latte", "beverage", 550, "spiced black tea and milk"),
    ("BEV-004", "lemonade", "beverage", 400, "fresh lemons, a little sugar"),
]
SUPPLIES = [  # id, name, cost (cents), perishable, skus it goes into
    (
        "SUP-001",
        "compostable cutlery",
        7,
        False,
        ["JAF-001", "JAF-002", "JAF-003", "JAF-004", "JAF-005"],
    ),
    ("SUP-002", "paper bag", 12, False, ["JAF-001", "JAF-002", "JAF-003", "JAF-004", "JAF-005"]),
    ("SUP-003", "sourdough bread", 45, True, ["JAF-001", "JAF-002", "JAF-003", "JAF-004"]),
    ("SUP-004", "brioche", 52, True, ["JAF-005"]),
    ("SUP-005", "cheddar", 60, True, ["JAF-001"]),
    ("SUP-006", "kimchi", 48, True, ["JAF-002"]),
    ("SUP-007", "gruyere", 85, True, ["JAF-002"]),
    ("SUP-008", "eggs", 30, True, ["JAF-003"]),
    ("SUP-009", "bacon", 95, True, ["JAF-003"]),
    ("SUP-010", "seasonal vegetables", 110, True, ["JAF-004"]),
    ("SUP-011", "feta", 70, True, ["JAF-004"]),
    ("SUP-012", "banana", 25, True, ["JAF-005"]),
    ("SUP-013", "takeaway cup", 9, False, ["BEV-001", "BEV-002", "BEV-003", "BEV-004"]),
    ("SUP-014", "coffee beans", 55, True, ["BEV-001", "BEV-002"]),
    ("SUP-015", "milk", 20, True, ["BEV-001", "BEV-003"]),
    ("SUP-016", "chai concentrate", 65, True, ["BEV-003"]),
    ("SUP-017", "lemons", 35, True, ["BEV-004"]),
]
CUSTOMERS_DAY_ONE = 160
NEW_CUSTOMERS_A_DAY = 25
ORDERS_A_DAY = 180


def _uuid(rng: np.random.Generator) -> str:
    return str(uuid.UUID(bytes=rng.bytes(16), version=4))


def _customers(count: int) -> list[tuple[str, str]]:
    rng = np.random.default_rng(SEED)
    out = []
    for _ in range(count):
        out.append((_uuid(rng), f"{rng.choice(FIRST)} {rng.choice(LAST)}"))
    return out


def _store_ids() -> list[str]:
    rng = np.random.default_rng(SEED + 1)
    return [_uuid(rng) for _ in STORES]


def _day(day: int, customers: list[tuple[str, str]], stores: list[str]):  # type: ignore[no-untyped-def]
    """One day's orders and their items."""
    rng = np.random.default_rng(SEED + 100 + day)
    known = CUSTOMERS_DAY_ONE + NEW_CUSTOMERS_A_DAY * (day - 1)
    rows = int(ORDERS_A_DAY * rng.uniform(0.85, 1.15))
    prices = {sku: price for sku, _, _, price, _ in PRODUCTS}
    skus = [p[0] for p in PRODUCTS]
    weights = np.array([3, 2, 3, 1, 1, 4, 3, 2, 1], dtype=float)
    orders, items = [], []
    for _ in range(rows):
        order_id = _uuid(rng)
        store = int(rng.integers(0, len(stores)))
        customer = customers[int(rng.integers(0, known))][0]
        at = START + dt.timedelta(days=day - 1, seconds=int(rng.integers(0, 13 * 3600)))
        chosen = rng.choice(skus, size=int(rng.integers(1, 5)), p=weights / weights.sum())
        subtotal = int(sum(prices[s] for s in chosen))
        tax = round(subtotal * STORES[store][2])
        orders.append(
            (
                order_id,
                customer,
                at.isoformat(sep=" "),
                stores[store],
                subtotal,
                tax,
                subtotal + tax,
            )
        )
        for sku in chosen:
            items.append((_uuid(rng), order_id, sku))
    for _ in range(max(1, rows // 100)):  # items the till lost the order of
        items.append((_uuid(rng), "", str(rng.choice(skus))))
    return orders, items


def _write(path: Path, header: list[str], rows: list[tuple[object, ...]]) -> None:
    with path.open("w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def write_seeds(seeds: Path, day: int) -> None:
    """The six ``raw_*`` seeds of ``day`` (1, 2, ...) into the folder ``seeds``."""
    if day < 1:
        raise ValueError(f"day {day}: days count from 1")
    known = CUSTOMERS_DAY_ONE + NEW_CUSTOMERS_A_DAY * (day - 1)
    customers = _customers(known)
    stores = _store_ids()
    orders: list[tuple[object, ...]] = []
    items: list[tuple[object, ...]] = []
    for past in range(1, day + 1):
        o, i = _day(past, customers, stores)
        orders += o
        items += i
    _write(seeds / "raw_customers.csv", ["id", "name"], list(customers))
    _write(
        seeds / "raw_stores.csv",
        ["id", "name", "opened_at", "tax_rate"],
        [
            (sid, name, opened.isoformat(sep=" "), rate)
            for sid, (name, opened, rate) in zip(stores, STORES, strict=True)
        ],
    )
    _write(
        seeds / "raw_products.csv", ["sku", "name", "type", "price", "description"], list(PRODUCTS)
    )
    _write(
        seeds / "raw_supplies.csv",
        ["id", "name", "cost", "perishable", "sku"],
        [
            (sid, name, cost, str(p).lower(), sku)
            for sid, name, cost, p, skus in SUPPLIES
            for sku in skus
        ],
    )
    _write(
        seeds / "raw_orders.csv",
        ["id", "customer", "ordered_at", "store_id", "subtotal", "tax_paid", "order_total"],
        orders,
    )
    _write(seeds / "raw_items.csv", ["id", "order_id", "sku"], items)
