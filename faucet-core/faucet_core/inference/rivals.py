"""One output column confidently inferred from more than one input of the same asset.

Inference looks at one edge at a time, and a join leaves the same values on both sides of
the join: ``fct_orders.customer_id`` holds exactly what ``stg_customers.customer_id``
holds, whether the SQL took it from there or from the orders it joined to them. Where an
output column is a confident candidate over two or more of its inputs, the values cannot
tell which input it was copied from. What can: the output keeps the rows of the side it
was built from (a left join from order items has as many rows as the order items; the
table of products joined on has fewer). So:

* the inputs whose row count is the output's in every compared run (:data:`GRAIN`) keep
  their candidate for the column;
* the others' candidates for it are demoted (confidence halved: below
  :data:`~faucet_core.inference.columns.CONFIDENT`);
* when none or all of them keep the output's rows, every one is demoted: the column is
  ambiguous, and its edges stay as opaque as before (``unknown``, never ``none``).

The evidence of each candidate involved names the rivals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from faucet_core.inference.columns import InferredInput

__all__ = ["DEMOTE", "GRAIN", "keeps_grain", "settle_rivals"]

GRAIN = 0.01
"""An input keeps the output's rows when their row counts differ by at most this share."""
DEMOTE = 0.5
"""The factor on the confidence of a candidate a rival input explains as well."""


def keeps_grain(pairs: Sequence[tuple[Any, Any]]) -> bool:
    """Whether, in every (upstream, downstream) profile pair, the two row counts agree
    within :data:`GRAIN`."""
    if not pairs:
        return False
    for upstream, downstream in pairs:
        a, b = int(upstream.row_count), int(downstream.row_count)
        if abs(a - b) > GRAIN * max(a, b, 1):
            return False
    return True


def settle_rivals(
    inputs: Mapping[str, tuple[Sequence[InferredInput], bool]],
) -> dict[str, tuple[InferredInput, ...]]:
    """``{input: (candidates, keeps the output's rows)}`` -> ``{input: candidates}`` with
    the candidates of every column confident over two or more inputs settled as the
    module says. Inputs are named by any label (the evidence shows it)."""
    holders: dict[str, list[str]] = {}
    for name, (candidates, _) in inputs.items():
        for column in sorted({c.column for c in candidates if c.confident}):
            holders.setdefault(column, []).append(name)
    contested = {column: names for column, names in holders.items() if len(names) > 1}
    out: dict[str, tuple[InferredInput, ...]] = {}
    for name, (candidates, grain) in inputs.items():
        settled = []
        for c in candidates:
            names = contested.get(c.column)
            if not names or name not in names or not c.confident:
                settled.append(c)
                continue
            keepers = [n for n in names if inputs[n][1]]
            wins = grain and len(keepers) < len(names)
            rivals = tuple(n for n in names if n != name)
            evidence = replace(c.evidence, rivals=rivals, grain=grain)
            confidence = c.confidence if wins else round(c.confidence * DEMOTE, 4)
            settled.append(replace(c, confidence=confidence, evidence=evidence))
        out[name] = tuple(settled)
    return out
