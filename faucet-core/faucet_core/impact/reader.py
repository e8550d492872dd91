"""What impact planning reads from the catalog: a narrow read interface, not its engine nor
its tables (as a planner depends on a state reader). :class:`~faucet_core.catalog.Catalog`
implements it; a test or another store can too."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from faucet_core.catalog.frontier import EdgeRow
    from faucet_core.catalog.inferred import InferredEdge
    from faucet_core.catalog.model import Consumer, Contract, DatasetEntry, Edge

__all__ = ["CatalogReader", "CatalogView"]


class CatalogView(Protocol):
    """The reads of one plan, from one consistent state of the catalog."""

    def last_run_of(self, dataset_id: str) -> tuple[str, str] | None:
        """``(run id, job)`` of the newest run that wrote the dataset, or None."""
        ...

    def entry(self, dataset_id: str) -> DatasetEntry:
        """A dataset the catalog knows: its URI and observed schema."""
        ...

    def edges_into(self, dataset_id: str) -> list[Edge]: ...

    def infer_into(
        self, sink_id: str, sources: Mapping[str, str | None]
    ) -> dict[str, InferredEdge]:
        """The lineage inferred from the stored profiles over each edge from ``sources``
        (id -> URI or None) into ``sink_id``, by source id."""
        ...

    def edges_from(self, ids: Sequence[str]) -> list[EdgeRow]:
        """Every edge out of the datasets ``ids`` (a frontier)."""
        ...

    def edges_leaving(self, ids: Sequence[str]) -> int:
        """How many edges leave the datasets ``ids``."""
        ...

    def datasets_of(self, ids: Sequence[str]) -> dict[str, tuple[str, tuple[str, ...]]]:
        """``{id: (uri, owners)}`` of the datasets the catalog knows among ``ids``."""
        ...

    def consumers_of(self, ids: Sequence[str]) -> dict[str, list[Consumer]]: ...

    def contracts_of(self, ids: Sequence[str]) -> dict[str, list[tuple[str, Contract]]]:
        """``{dataset id: [(job, contract)...]}`` from each job's latest config snapshot."""
        ...


class CatalogReader(Protocol):
    """The catalog as impact planning reads it."""

    @property
    def url(self) -> str:
        """Where the catalog is (password hidden), for messages."""
        ...

    def resolve(self, ref: str) -> str:
        """The id of the dataset ``ref`` (a URI or an id prefix) names; raises
        :class:`~faucet_core.errors.CatalogError` when there is none."""
        ...

    def snapshot(self) -> AbstractContextManager[CatalogView]:
        """One consistent read for a whole plan."""
        ...
