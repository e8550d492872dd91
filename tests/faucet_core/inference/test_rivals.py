"""A join key inferred over both inputs of a join, on real profiles (faucet's profiler over
pyarrow tables): the input whose rows the output keeps keeps the candidate, the other's is
demoted below the impact walk's threshold; when neither (or both) keeps the output's rows,
both are demoted; columns only one input holds are untouched."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from faucet_core.inference.columns import CONFIDENT, InferredInput, infer_columns
from faucet_core.inference.rivals import DEMOTE, keeps_grain, settle_rivals
from faucet_core.profile import profile


def _orders(day: int, rows: int = 3000) -> pa.Table:
    rng = np.random.default_rng(day)
    return pa.table(
        {
            "order_id": np.arange(day * 100_000, day * 100_000 + rows),
            "customer_id": rng.integers(day * 1000, day * 1000 + 400, rows),
            "amount": np.round(rng.lognormal(3, 0.5, rows), 2),
        }
    )


def _customers(day: int) -> pa.Table:
    rng = np.random.default_rng(100 + day)
    ids = np.arange(day * 1000, day * 1000 + 400)
    return pa.table(
        {
            "customer_id": ids,
            "email": [f"c{i}@example.com" for i in ids],
            "country": rng.choice(["de", "fr", "us", "jp", "br"], len(ids)),
        }
    )


def _joined(orders: pa.Table, customers: pa.Table, keep: np.ndarray | None = None) -> pa.Table:
    """``orders left join customers using (customer_id)``, optionally filtered."""
    country = dict(
        zip(customers["customer_id"].to_pylist(), customers["country"].to_pylist(), strict=True)
    )
    out = pa.table(
        {
            "order_id": orders["order_id"],
            "customer_id": orders["customer_id"],
            "country": [country[c] for c in orders["customer_id"].to_pylist()],
            "amount": orders["amount"],
        }
    )
    return out.filter(pa.array(keep)) if keep is not None else out


def _edges(
    filtered: bool,
) -> dict[str, tuple[list[tuple[object, object]], list[tuple[object, object]]]]:
    orders_pairs, customers_pairs = [], []
    for day in (1, 2, 3):
        orders, customers = _orders(day), _customers(day)
        keep = np.asarray(orders["amount"]) > 25 if filtered else None
        joined = profile(_joined(orders, customers, keep))
        orders_pairs.append((profile(orders), joined))
        customers_pairs.append((profile(customers), joined))
    return {"orders": (orders_pairs, []), "customers": (customers_pairs, [])}


def _settled(
    filtered: bool,
) -> tuple[dict[str, tuple[InferredInput, ...]], dict[str, tuple[InferredInput, ...]]]:
    edges = _edges(filtered)
    names = {"orders": "dagster://orders", "customers": "dagster://customers"}
    raw = {n: infer_columns(p, upstream_name=names[n]) for n, (p, _) in edges.items()}
    grain = {n: keeps_grain(p) for n, (p, _) in edges.items()}
    return raw, settle_rivals({n: (raw[n], grain[n]) for n in raw})


def _one(found: tuple[InferredInput, ...], column: str, source: str) -> InferredInput:
    (item,) = [c for c in found if (c.column, c.source) == (column, source)]
    return item


def test_the_side_whose_rows_the_output_keeps_keeps_the_join_key() -> None:
    raw, settled = _settled(filtered=False)
    # on its own, each edge takes the join key for a copy
    assert _one(raw["orders"], "customer_id", "customer_id").confident
    assert _one(raw["customers"], "customer_id", "customer_id").confident
    kept = _one(settled["orders"], "customer_id", "customer_id")
    assert kept.confident
    assert kept.confidence == _one(raw["orders"], "customer_id", "customer_id").confidence
    assert kept.evidence.rivals == ("customers",)
    assert kept.evidence.grain is True
    assert "the output keeps its rows; also held by customers" in kept.evidence.text()
    demoted = _one(settled["customers"], "customer_id", "customer_id")
    before = _one(raw["customers"], "customer_id", "customer_id").confidence
    assert demoted.confidence == round(before * DEMOTE, 4) < CONFIDENT
    assert demoted.evidence.rivals == ("orders",)
    assert demoted.evidence.grain is False
    assert demoted.evidence.to_dict()["rivals"] == ["orders"]
    # a column only one input holds confidently is left as it was
    assert _one(settled["customers"], "country", "country") == _one(
        raw["customers"], "country", "country"
    )
    assert _one(settled["orders"], "order_id", "order_id").evidence.rivals == ()


def test_when_no_input_keeps_the_output_rows_the_key_is_ambiguous_on_both() -> None:
    raw, settled = _settled(filtered=True)
    for side in ("orders", "customers"):
        assert _one(raw[side], "customer_id", "customer_id").confident
        got = _one(settled[side], "customer_id", "customer_id")
        assert not got.confident
        assert "does not keep its rows" in got.evidence.text()
    # the filtered copy of orders' own columns is still confident
    assert _one(settled["orders"], "order_id", "order_id").confident


def test_keeps_grain_reads_every_pair() -> None:
    edges = _edges(filtered=False)
    assert keeps_grain(edges["orders"][0])
    assert not keeps_grain(edges["customers"][0])
    assert not keeps_grain([])
    mixed = edges["orders"][0][:2] + edges["customers"][0][2:]
    assert not keeps_grain(mixed)


def test_one_input_or_weak_rivals_change_nothing() -> None:
    raw, _ = _settled(filtered=False)
    alone = settle_rivals({"orders": (raw["orders"], True)})
    assert alone["orders"] == raw["orders"]
    weak = tuple(c for c in raw["customers"] if not c.confident)
    both = settle_rivals({"orders": (raw["orders"], True), "customers": (weak, False)})
    assert both["orders"] == raw["orders"]
    assert both["customers"] == weak
