"""Edges as the impact walk needs them: the catalog's stored rows with their column lineage
decoded (and cached by the stored text)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from faucet_core.catalog.frontier import EdgeRow
from faucet_core.errors import StoreCorruptError

__all__ = ["RawEdge", "decode", "raw_edge"]


@dataclass(frozen=True)
class RawEdge:
    """An edge as the walk needs it: ends, writer, and its column lineage decoded to
    ``({out: (in...)}, (dataset-level in...))``; ``lineage`` None is opaque."""

    source_id: str
    sink_id: str
    job: str
    lineage: tuple[dict[str, tuple[str, ...]], tuple[str, ...]] | None
    inferred: Mapping[str, tuple[str, ...]] | None = None
    """For an opaque edge: the confident inferred lineage ``{out: (in...)}`` (never used to
    take opacity away, only to name columns it reaches)."""
    evidence: Mapping[tuple[str, str], str] | None = None
    """``{(out, in): why}`` of the inferred lineage."""


def _names(items: Any) -> tuple[str, ...]:
    return tuple(i if isinstance(i, str) else str(i[0]) for i in items or ())


def decode(
    text: str | None, where: str
) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...]] | None:
    """Stored column lineage -> ``({out: (in...)}, (dataset-level in...))``."""
    if text is None:
        return None
    try:
        return _decode(text)
    except (ValueError, AttributeError, TypeError, IndexError) as exc:
        raise StoreCorruptError(f"{where}: stored column lineage is unreadable ({exc!r})") from None


@lru_cache(maxsize=65_536)
def _decode(text: str) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...]]:
    # Cached by the stored text: a server answering many plans decodes each edge's lineage
    # once. Callers never mutate the result.
    data = json.loads(text)
    fields = {str(k): _names(v) for k, v in (data.get("fields") or {}).items()}
    return fields, _names(data.get("dataset"))


def raw_edge(row: EdgeRow) -> RawEdge:
    """A stored edge with its column lineage decoded (:class:`StoreCorruptError` naming
    the edge when it cannot be)."""
    where = f"edge {row.source_id} -> {row.sink_id}"
    return RawEdge(row.source_id, row.sink_id, row.job, decode(row.column_lineage, where))
