"""One consistent read of the catalog for a planner: every read a walk downstream makes,
on one connection (:meth:`Catalog.snapshot`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from sqlalchemy import Connection

from faucet_core.catalog import frontier
from faucet_core.catalog.frontier import EdgeRow
from faucet_core.catalog.model import Consumer, Contract, DatasetEntry, Edge
from faucet_core.catalog.read import edges_where, entries

if TYPE_CHECKING:
    from faucet_core.catalog.inferred import InferredEdge

__all__ = ["CatalogSnapshot"]


class CatalogSnapshot:
    """The catalog's reads by dataset id and by frontier, on the connection ``conn``."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def last_run_of(self, dataset_id: str) -> tuple[str, str] | None:
        """``(run id, job)`` of the newest run that wrote ``dataset_id``, or None."""
        return frontier.last_run_of(self._conn, dataset_id)

    def entry(self, dataset_id: str) -> DatasetEntry:
        """The dataset ``dataset_id`` (which must exist)."""
        return entries(self._conn, [dataset_id])[0]

    def edges_into(self, dataset_id: str) -> list[Edge]:
        return edges_where(self._conn, sinks=[dataset_id])

    def infer_into(
        self, sink_id: str, sources: Mapping[str, str | None]
    ) -> dict[str, InferredEdge]:
        """The inferred lineage of each edge from ``sources`` (id -> URI) into ``sink_id``."""
        from faucet_core.catalog.inferred import infer_into  # the inference loads on demand

        return infer_into(self._conn, sink_id, sources)

    def edges_from(self, ids: Sequence[str]) -> list[EdgeRow]:
        return frontier.edges_from(self._conn, ids)

    def edges_leaving(self, ids: Sequence[str]) -> int:
        return frontier.edges_leaving(self._conn, ids)

    def datasets_of(self, ids: Sequence[str]) -> dict[str, tuple[str, tuple[str, ...]]]:
        return frontier.datasets_of(self._conn, ids)

    def consumers_of(self, ids: Sequence[str]) -> dict[str, list[Consumer]]:
        return frontier.consumers_of(self._conn, ids)

    def contracts_of(self, ids: Sequence[str]) -> dict[str, list[tuple[str, Contract]]]:
        return frontier.contracts_of(self._conn, ids)
