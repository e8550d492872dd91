"""Column lineage inferred from the profiles faucet keeps, for edges nobody declared.

A downstream column ``d`` is a candidate reader of an upstream column ``u`` when, in the
runs of the two datasets profiled together, ``d``'s distinct values lie within ``u``'s
(exactly, from complete value lists of categorical columns; else the HyperLogLog sketches'
union estimate: ``|d ∩ u| = |d| + |u| - |d ∪ u|``), ``d`` holds
only JSON types ``u`` holds, and ``d``'s numeric range and string lengths lie within
``u``'s. That is what copying, filtering, joining and grouping by ``u`` leave behind; a
value computed from ``u`` (a sum, a rename of values) leaves no trace, so inference finds
copies, not computations (recall is limited by construction).

The confidence grows with how specific the evidence is: the number of distinct values
(two booleans prove nothing), the same number of distinct values on both sides, a matching
name after normalization (``customerId`` = ``customer_id``; ``order_id`` in ``orders`` =
``id``), the same null pattern, a single upstream candidate, and how many of the runs
agree. A profile pushed down to SQL keeps no sketch: there, a categorical column's complete
value list is compared exactly, and otherwise only a same-named column with no more
distinct values is a candidate, at most :data:`UNMEASURED_CAP` confident.
:data:`CONFIDENT` is the confidence the impact walk needs before it reports a
column as ``breaking (inferred)``; below it, the edge stays opaque (``unknown``).
A column confident over several inputs of one asset (a join key) is settled across them
by :mod:`faucet_core.inference.rivals`. Inferred lineage is never stored as declared
lineage: it is recomputed from the stored profiles when asked (``faucet catalog show``,
``faucet plan --impact``).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from faucet_core.errors import SketchError

__all__ = [
    "CONFIDENT",
    "Evidence",
    "InferredInput",
    "infer_columns",
    "normalized_name",
    "pair_runs",
]

CONFIDENT = 0.8
"""The confidence at which the impact walk uses an inferred column. Chosen on the tune
corpus of benchmarks/results/lineage_inference.md; precision there on the held-out
projects nobody tuned on: 0.98 (with :mod:`faucet_core.inference.rivals`)."""
MIN_CONTAINMENT = 0.9
"""Below this share of its distinct values found upstream, a column is no candidate
(HyperLogLog at lg_k 12 estimates a union within a few percent)."""
UNMEASURED_CAP = 0.85
"""The most confidence evidence without compared values (no sketch) can reach."""
RUNS = 10
"""Run pairs compared (the newest)."""


@dataclass(frozen=True)
class Evidence:
    """Why ``column`` is taken to read ``source``, over ``runs`` run pairs."""

    containment: float | None
    """The smallest share of the column's distinct values found upstream, over the runs
    where the candidate held; None when the profiles keep no values to compare (SQL
    pushdown profiles hold no sketch)."""
    distinct: int
    """The column's distinct values in the newest run."""
    same_distinct: bool
    types: tuple[str, ...]
    same_nulls: bool
    name: bool
    runs: int
    held: int
    unique: bool
    """No other upstream column is a candidate for it."""
    rivals: tuple[str, ...] = ()
    """Other inputs of the same output that hold the column as confidently
    (:func:`faucet_core.inference.rivals.settle_rivals`): a join key equals the key it is
    joined on, so the values cannot tell which side it was taken from."""
    grain: bool | None = None
    """With rivals: whether this input's row count is the output's in every compared run
    (the side whose rows the output keeps); None without rivals."""

    def text(self) -> str:
        if self.containment is None:
            values = f"{self.distinct} distinct value(s), not compared (no sketch stored)"
        else:
            values = f"{self.containment:.0%} of its {self.distinct} distinct value(s) are upstream"
        parts = [
            values,
            f"in {self.held} of {self.runs} run(s)",
            f"type {'|'.join(self.types) or '-'}",
        ]
        if self.same_distinct:
            parts.append("as many distinct values")
        if self.name:
            parts.append("same name")
        if self.same_nulls:
            parts.append("same null pattern")
        if not self.unique:
            parts.append("other upstream columns match too")
        if self.rivals:
            rows = "keeps" if self.grain else "does not keep"
            parts.append(f"the output {rows} its rows; also held by {', '.join(self.rivals)}")
        return ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "containment": None if self.containment is None else round(self.containment, 4),
            "distinct": self.distinct,
            "same_distinct": self.same_distinct,
            "types": list(self.types),
            "same_nulls": self.same_nulls,
            "name": self.name,
            "runs": self.runs,
            "held": self.held,
            "unique": self.unique,
            **({"rivals": list(self.rivals), "grain": self.grain} if self.rivals else {}),
        }


@dataclass(frozen=True, order=True)
class InferredInput:
    """Downstream ``column`` is inferred to read upstream ``source``."""

    column: str
    source: str
    confidence: float
    evidence: Evidence

    @property
    def confident(self) -> bool:
        return self.confidence >= CONFIDENT

    def to_dict(self) -> dict[str, Any]:
        return {
            "column": self.column,
            "source": self.source,
            "confidence": round(self.confidence, 3),
            "confident": self.confident,
            "evidence": self.evidence.to_dict(),
            "because": self.evidence.text(),
        }


# -- names ----------------------------------------------------------------------------------

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def normalized_name(name: str) -> str:
    """``customerId``, ``CustomerID``, ``customer-id`` -> ``customer_id``."""
    snake = _CAMEL.sub("_", name.strip())
    return re.sub(r"[^0-9a-z]+", "_", snake.lower()).strip("_")


def _singular(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("ses"):
        return word[:-2]
    return word[:-1] if word.endswith("s") else word


def _names_match(column: str, source: str, upstream: str | None) -> bool:
    d, u = normalized_name(column), normalized_name(source)
    if d == u:
        return True
    if not upstream:
        return False
    # the upstream table's entity as a prefix: ``id`` of ``raw_orders`` is ``order_id``
    table = normalized_name(upstream.rsplit("/", 1)[-1].rsplit(".", 1)[-1])
    entity = _singular(table.rsplit("_", 1)[-1]) if table else ""
    return bool(entity) and d == f"{entity}_{u}"


# -- sketches -------------------------------------------------------------------------------


def _hll(column: Any) -> Any:
    from faucet_core.profile.sketches import load_hll

    text = (column.sketches or {}).get("hll")
    if not text:
        return None
    try:
        return load_hll(text, f"column {column.name}")
    except SketchError:
        return None


def _containment(d_hll: Any, u_hll: Any) -> float:
    import datasketches as ds

    nd, nu = d_hll.get_estimate(), u_hll.get_estimate()
    if nd <= 0:
        return 0.0
    union = ds.hll_union(max(d_hll.lg_config_k, u_hll.lg_config_k))
    union.update(d_hll)
    union.update(u_hll)
    both = nd + nu - union.get_result().get_estimate()
    return float(max(0.0, min(1.0, both / nd)))


def _value_set(column: Any) -> frozenset[str] | None:
    """Every distinct value, when the profile lists them all (a categorical column whose
    top values are all its distinct values), else None."""
    top = column.top_values
    if top is None or column.high_cardinality or len(top) < column.distinct:
        return None
    return frozenset(json.dumps(t.value, sort_keys=True) for t in top)


def _share_within(d: Any, u: Any, d_hll: Any, u_hll: Any) -> float | None:
    """The share of ``d``'s distinct values found in ``u``: exact from complete value lists,
    else estimated from the HyperLogLog sketches; None when neither is stored (a profile
    pushed down to SQL keeps no sketch)."""
    d_values, u_values = _value_set(d), _value_set(u)
    if d_values is not None and u_values is not None and d_values:
        return len(d_values & u_values) / len(d_values)
    if d_hll is not None and u_hll is not None:
        return _containment(d_hll, u_hll)
    return None


def _types(column: Any) -> frozenset[str]:
    return frozenset(t for t, n in column.types.items() if n and t != "null")


def _within(d: Any, u: Any) -> bool:
    """``d``'s numeric range and string lengths lie within ``u``'s."""
    if d.numeric is not None:
        if u.numeric is None:
            return False
        span = max(abs(u.numeric.max), abs(u.numeric.min), 1.0) * 1e-9
        if d.numeric.min < u.numeric.min - span or d.numeric.max > u.numeric.max + span:
            return False
    if d.string is not None:
        if u.string is None:
            return False
        if d.string.len_min < u.string.len_min or d.string.len_max > u.string.len_max:
            return False
    return True


def _same_distinct(d: Any, u: Any) -> bool:
    a, b = int(d.distinct), int(u.distinct)
    return a == b or abs(a - b) <= 0.03 * max(a, b)


@dataclass
class _Tally:
    runs: int = 0
    held: int = 0
    measured: bool = True
    containment: float = 1.0
    same_distinct: bool = True
    same_nulls: bool = True


def pair_runs(
    upstream: Sequence[tuple[Any, str, Any]], downstream: Sequence[tuple[Any, str, Any]]
) -> list[tuple[Any, Any]]:
    """Each downstream run ``(recorded_at, partition, profile)`` paired with the newest
    upstream run recorded at or before it (of the same partition when the upstream has
    it); the newest :data:`RUNS` pairs."""
    pairs = []
    for when, partition, profile in sorted(downstream, key=lambda r: r[0])[-RUNS:]:
        before = [r for r in upstream if r[0] <= when]
        same = [r for r in before if r[1] == partition]
        chosen = max(same or before, key=lambda r: r[0], default=None)
        if chosen is not None:
            pairs.append((chosen[2], profile))
    return pairs


def infer_columns(
    pairs: Sequence[tuple[Any, Any]], *, upstream_name: str | None = None
) -> tuple[InferredInput, ...]:
    """Candidate inputs of each downstream column over ``pairs`` of (upstream, downstream)
    :class:`~faucet_core.profile.TableProfile` of the same runs, newest last; every
    candidate with its confidence (filter on :attr:`InferredInput.confident`)."""
    tallies: dict[tuple[str, str], _Tally] = {}
    latest: dict[str, Any] = {}
    for upstream, downstream in pairs:
        hlls = {n: _hll(c) for n, c in upstream.columns.items()}
        for d_name, d in downstream.columns.items():
            if d.distinct < 1 or d.row_count - d.null_count < 1:
                continue
            d_hll = _hll(d)
            latest[d_name] = d
            for u_name, u in upstream.columns.items():
                tally = tallies.setdefault((d_name, u_name), _Tally())
                tally.runs += 1
                if not _types(d) or not _types(d) <= _types(u) or not _within(d, u):
                    continue
                share = _share_within(d, u, d_hll, hlls.get(u_name))
                if share is None:
                    # no values to compare: only a same-named column with no more distinct
                    # values is a candidate, and a weaker one
                    if not _names_match(d_name, u_name, upstream_name):
                        continue
                    if d.distinct > u.distinct * 1.03 + 1:
                        continue
                    tally.measured = False
                elif share < MIN_CONTAINMENT:
                    continue
                else:
                    tally.containment = min(tally.containment, share)
                tally.held += 1
                tally.same_distinct &= _same_distinct(d, u)
                tally.same_nulls &= (d.null_count > 0) == (u.null_count > 0)
    held = {k: t for k, t in tallies.items() if t.held}
    per_column: dict[str, list[str]] = {}
    for d_name, u_name in held:
        per_column.setdefault(d_name, []).append(u_name)
    out = []
    for (d_name, u_name), tally in sorted(held.items()):
        d = latest[d_name]
        named = _names_match(d_name, u_name, upstream_name)
        others = [u for u in per_column[d_name] if u != u_name]
        rival_named = any(_names_match(d_name, o, upstream_name) for o in others)
        evidence = Evidence(
            containment=tally.containment if tally.measured else None,
            distinct=int(d.distinct),
            same_distinct=tally.same_distinct,
            types=tuple(sorted(_types(d))),
            same_nulls=tally.same_nulls,
            name=named,
            runs=tally.runs,
            held=tally.held,
            unique=not others,
        )
        out.append(
            InferredInput(d_name, u_name, _confidence(evidence, others, rival_named), evidence)
        )
    return tuple(out)


def _confidence(e: Evidence, others: Sequence[str], rival_named: bool) -> float:
    specificity = min(1.0, math.log2(max(e.distinct, 1)) / 6.0)
    score = 0.30 + 0.30 * specificity
    if e.name:
        score += 0.35
    if e.same_nulls:
        score += 0.05
    if e.same_distinct:
        score += 0.15
    if e.unique:
        score += 0.10
    elif rival_named and not e.name:
        score *= 0.5  # another upstream column of the same name explains it better
    elif not e.name:
        score /= 1 + len(others)
    stability = e.held / e.runs if e.runs else 0.0
    score *= stability * (0.85 + 0.05 * min(e.runs, 3))
    if e.containment is None:  # a name, a type and ranges, no values compared
        score = min(score - 0.15, UNMEASURED_CAP)
    return round(max(0.0, min(score, 0.99)), 4)
