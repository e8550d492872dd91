"""Column lineage inferred from stored profiles, for edges nobody declared: the candidates
of one edge from its run pairs (:mod:`faucet_core.inference.columns`) and a column
confident over several inputs of one asset settled across them
(:mod:`faucet_core.inference.rivals`).

Pure: it reads profiles handed to it and imports nothing of the catalog, lineage or impact
packages; :mod:`faucet_core.catalog.inferred` reads the catalog's stored profiles into it."""

from faucet_core.inference.columns import (
    CONFIDENT,
    Evidence,
    InferredInput,
    infer_columns,
    normalized_name,
    pair_runs,
)
from faucet_core.inference.rivals import DEMOTE, GRAIN, keeps_grain, settle_rivals

__all__ = [
    "CONFIDENT",
    "DEMOTE",
    "GRAIN",
    "Evidence",
    "InferredInput",
    "infer_columns",
    "keeps_grain",
    "normalized_name",
    "pair_runs",
    "settle_rivals",
]
