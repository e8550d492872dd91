"""dbt exposures in the catalog: each one a declared consumer of the models it depends on.

They travel as a ``catalog:`` block (:class:`CatalogConfig`) merged after the user's own, so
they are written wherever that block is: ``faucet catalog sync`` and every run a profile
check records. Consumers are upserted by name; the user's block wins for a name in both.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from faucet_core.catalog import CatalogConfig, ConsumerConfig, DatasetAnnotation
from faucet_dagster.dbt.manifest import dbt_node
from faucet_dagster.lineage.mapping import asset_dataset

__all__ = ["exposure_annotations", "with_exposures"]


def exposure_annotations(graph: Any, keys: Iterable[Any]) -> list[DatasetAnnotation]:
    """One annotation per dbt asset of ``keys`` (in ``graph``) that an exposure reads."""
    found = []
    for key in keys:
        if not graph.has(key):
            continue
        node = graph.get(key)
        dbt = dbt_node(node.metadata)
        consumers = dbt.exposures() if dbt is not None else ()
        if not consumers:
            continue
        dataset = asset_dataset(key, node.metadata, node.tags)
        found.append(
            DatasetAnnotation(
                dataset=dataset.uri,
                consumers=[
                    ConsumerConfig(name=c.name, kind=c.kind, contact=c.contact) for c in consumers
                ],
            )
        )
    return found


def with_exposures(config: CatalogConfig, graph: Any, keys: Iterable[Any]) -> CatalogConfig:
    """``config`` plus the exposures of the dbt assets ``keys`` (none: ``config`` itself).
    A consumer the user's block names on the same dataset is left as the user wrote it."""
    extra = exposure_annotations(graph, keys)
    if not extra:
        return config
    named = {(a.dataset, c.name) for a in config.datasets for c in a.consumers}
    kept = []
    for annotation in extra:
        consumers = [c for c in annotation.consumers if (annotation.dataset, c.name) not in named]
        if consumers:
            kept.append(annotation.model_copy(update={"consumers": consumers}))
    return config.model_copy(update={"datasets": [*kept, *config.datasets]})
