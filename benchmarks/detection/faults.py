"""The injected faults: each edits one day of ``orders`` and names what should be found."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
from tables import Day

Edit = Callable[[Day, np.random.Generator], Day]


@dataclass(frozen=True)
class Fault:
    name: str
    description: str
    column: str
    metrics: frozenset[str]
    """Any of these metrics on ``column`` names the fault correctly."""
    edit: Edit


def _null_spike(day: Day, rng: np.random.Generator) -> Day:
    amount = day["amount"].copy()
    amount[rng.random(amount.size) < 0.40] = None
    return {**day, "amount": amount}


def _cents(day: Day, rng: np.random.Generator) -> Day:
    amount = np.array([None if v is None else round(v * 100) for v in day["amount"]], object)
    return {**day, "amount": amount}


def _new_value(day: Day, rng: np.random.Generator) -> Day:
    region = day["region"].copy()
    region[rng.random(region.size) < 0.125] = "ME"
    return {**day, "region": region}


def _vanished(day: Day, rng: np.random.Generator) -> Day:
    status = day["status"].copy()
    status[status == "shipped"] = "delivered"
    return {**day, "status": status}


def _as_strings(day: Day, rng: np.random.Generator) -> Day:
    texts = [None if v is None else f"{v:.2f}" for v in day["amount"]]
    return {**day, "amount": pa.array(texts, pa.string())}


_SHIFTED = {"EU": 0.18, "US": 0.30, "AP": 0.14, "SA": 0.28, "AF": 0.10}
"""Against the usual 38 / 30 / 17 / 9 / 6 %: PSI about 0.39."""


def _psi_shift(day: Day, rng: np.random.Generator) -> Day:
    # Same five values (all two letters long), no nulls: only their shares move.
    codes = np.array(list(_SHIFTED))
    p = np.array(list(_SHIFTED.values()))
    region = rng.choice(codes, size=day["region"].size, p=p / p.sum()).astype(object)
    return {**day, "region": region}


def _truncation(day: Day, rng: np.random.Generator) -> Day:
    note = np.array([None if v is None else v[:20] for v in day["note"]], object)
    return {**day, "note": note}


def _collapse(day: Day, rng: np.random.Generator) -> Day:
    n = day["customer_id"].size
    return {**day, "customer_id": rng.choice(np.arange(1, 26), size=n)}


FAULTS: tuple[Fault, ...] = (
    Fault("null_spike", "amount 40 % null", "amount", frozenset({"null_rate"}), _null_spike),
    Fault(
        "cents",
        "amount arrives in cents (x100, whole numbers)",
        "amount",
        frozenset({"mean", "min", "max"}),
        _cents,
    ),
    Fault(
        "new_value", 'region gains "ME" at 12.5 %', "region", frozenset({"new_value"}), _new_value
    ),
    Fault(
        "vanished_value",
        'status "shipped" (15-25 %) is folded into "delivered"',
        "status",
        frozenset({"vanished_value"}),
        _vanished,
    ),
    Fault(
        "numbers_as_strings",
        'amount arrives as text ("12.50")',
        "amount",
        frozenset({"type_mix"}),
        _as_strings,
    ),
    Fault(
        "psi_shift",
        "region shares move (EU 38->18 %, SA 9->28 %; PSI ~0.39), same values",
        "region",
        frozenset({"psi"}),
        _psi_shift,
    ),
    Fault(
        "truncation",
        "note truncated to 20 characters",
        "note",
        frozenset({"string_length"}),
        _truncation,
    ),
    Fault(
        "distinct_collapse",
        "customer_id drawn from 25 customers",
        "customer_id",
        frozenset({"distinct"}),
        _collapse,
    ),
)
