"""Getting the value an asset wrote: through its IO manager, or through a custom loader."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import dagster as dg

from faucet_dagster.checks.io_context import input_context_for, load_source
from faucet_dagster.metadata import unwrap

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
        return {k: unwrap(v) for k, v in self.materialization.metadata.items()}

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
    materialization: dg.AssetMaterialization | None,
    run_id: str | None,
) -> Any:
    """Load the stored value of one asset (partition) as a downstream asset would."""
    io_manager = getattr(context.resources, io_manager_key)
    source = load_source(context, asset_key)
    with input_context_for(
        context,
        source,
        io_manager_key=io_manager_key,
        partition_key=partition_key,
        run_id=run_id,
        output_metadata=materialization.metadata if materialization is not None else None,
    ) as input_context:
        return io_manager.load_input(input_context)
