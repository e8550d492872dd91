"""Getting the value an asset wrote: through its IO manager, or through a custom loader."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import dagster as dg

__all__ = ["Loader", "ProfileLoadContext", "load_with_io_manager"]


@dataclass(frozen=True)
class ProfileLoadContext:
    """What a custom ``loader`` gets: which asset and partition to read, and from where."""

    check_context: dg.AssetCheckExecutionContext
    asset_key: dg.AssetKey
    partition_key: str | None
    materialization: dg.AssetMaterialization | None

    @property
    def metadata(self) -> Mapping[str, Any]:
        """The materialization's metadata, values unwrapped (e.g. a path in ``dagster/uri``)."""
        if self.materialization is None:
            return {}
        return {k: getattr(v, "value", v) for k, v in self.materialization.metadata.items()}

    @property
    def resources(self) -> Any:
        return self.check_context.resources

    @property
    def log(self) -> Any:
        return self.check_context.log


Loader = Callable[[ProfileLoadContext], Any]
"""Returns what to profile: a DataFrame, an Arrow table or RecordBatchReader, an iterable of
records or of RecordBatches (streamed in bounded memory)."""


def load_with_io_manager(
    context: dg.AssetCheckExecutionContext,
    *,
    asset_key: dg.AssetKey,
    io_manager_key: str,
    partition_key: str | None,
    partitions_def: dg.PartitionsDefinition | None,
    definition_metadata: Mapping[str, Any],
) -> Any:
    """Load the stored value of one asset (partition) as a downstream asset would."""
    io_manager = getattr(context.resources, io_manager_key)
    pdef = partitions_def if partition_key is not None else None
    # Used as context managers: each context opens (and must close) its own resources scope,
    # else an ephemeral instance's storage is left to the garbage collector.
    with (
        dg.build_output_context(
            asset_key=asset_key,
            partition_key=partition_key,
            asset_partitions_def=pdef,
            definition_metadata=dict(definition_metadata),
            instance=context.instance,
            name="result",
        ) as upstream,
        dg.build_input_context(
            asset_key=asset_key,
            partition_key=partition_key,
            asset_partitions_def=pdef,
            upstream_output=upstream,
            instance=context.instance,
            name=asset_key.path[-1],
        ) as input_context,
    ):
        return io_manager.load_input(input_context)
