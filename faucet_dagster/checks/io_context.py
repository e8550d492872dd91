"""The contexts an IO manager gets when a profile check loads an asset's stored value.

They carry what Dagster gives the input of a downstream asset (see Dagster's
``FromLoadableAsset`` and ``StepExecutionContext.for_input_manager``): the asset key, the
output's ``dagster_type``, definition metadata, the materialization's metadata, the
partition (key, range, time window), the IO manager's own resources and config, the instance, and an
upstream output context naming the op, the output and the run that wrote the value.

Dagster's ``build_output_context`` and ``build_input_context`` gained parameters over the
releases (``asset_partitions_def``, ``instance`` and ``asset_spec`` are missing from the
oldest supported one): each is called with only the keywords its signature accepts, so an
older Dagster gets a context with less in it rather than a ``TypeError``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Any

import dagster as dg

# the tag type Dagster's contexts test for (Dagster 1.10 to 1.13)
from dagster._core.definitions.resource_definition import Resources

__all__ = ["LoadSource", "accepted_kwargs", "input_context_for", "load_source"]


@dataclass(frozen=True)
class LoadSource:
    """What the asset graph tells about the output that stored one asset."""

    asset_key: dg.AssetKey
    output_name: str
    dagster_type: Any  # a DagsterType, or None when the asset has no op (an external asset)
    op_def: dg.OpDefinition | None
    definition_metadata: Mapping[str, Any]
    partitions_def: dg.PartitionsDefinition | None
    asset_spec: dg.AssetSpec | None


def load_source(context: Any, asset_key: dg.AssetKey) -> LoadSource:
    """The output behind ``asset_key`` in the job the check runs in."""
    node = context.op_execution_context.job_def.asset_layer.asset_graph.get(asset_key)
    assets_def: dg.AssetsDefinition | None = getattr(node, "assets_def", None)
    output_name = asset_key.path[-1]
    dagster_type = None
    op_def = None
    if assets_def is not None and assets_def.is_executable:
        output_name = assets_def.get_output_name_for_asset_key(asset_key)
        node_def = assets_def.node_def
        dagster_type = node_def.output_def_named(output_name).dagster_type
        op_def = node_def if isinstance(node_def, dg.OpDefinition) else None
    to_spec: Callable[[], dg.AssetSpec] | None = getattr(node, "to_asset_spec", None)
    return LoadSource(
        asset_key=asset_key,
        output_name=output_name,
        dagster_type=dagster_type,
        op_def=op_def,
        definition_metadata=dict(node.metadata or {}),
        partitions_def=node.partitions_def,
        asset_spec=to_spec() if to_spec is not None else None,
    )


def accepted_kwargs(function: Callable[..., Any], kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The entries of ``kwargs`` that are set and that ``function``'s signature names."""
    params = inspect.signature(function).parameters
    return {k: v for k, v in kwargs.items() if v is not None and k in params}


class _SharedResources(Resources, Mapping[str, Any]):
    """Resources built once, for both contexts: a mapping, as ``build_input_context``
    accepts only one, that reads as attributes too (``context.resources.name``), and of
    Dagster's ``Resources`` tag type, which a context uses as it is where it builds any
    other mapping again on an ephemeral instance of its own."""

    def __init__(self, built: Any) -> None:
        self._built = built
        self._values: dict[str, Any] = dict(built._asdict())

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["_built"], name)

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def _asdict(self) -> dict[str, Any]:
        return dict(self._values)


def _manager_resources(context: Any, io_manager_key: str) -> dict[str, Any]:
    """The resources the IO manager itself requires, as the check's step holds them."""
    resource_def = context.op_execution_context.job_def.resource_defs.get(io_manager_key)
    keys = sorted(getattr(resource_def, "required_resource_keys", ()) or ())
    missing = [k for k in keys if not hasattr(context.resources, k)]
    if missing:
        raise dg.Failure(
            description=(
                f"IO manager {io_manager_key!r} requires resource(s) {', '.join(missing)}, which "
                "the profile check does not have: pass required_resource_keys="
                f"{missing!r} to build_profile_checks"
            )
        )
    return {k: getattr(context.resources, k) for k in keys}


def _manager_config(context: Any, io_manager_key: str) -> Any:
    """The IO manager's resolved config (DuckDB's reads its ``connection_config`` from it).

    Dagster hands it over from the run's resolved config, which the public context does not
    expose: read there when present, else from the run config as given."""
    step = getattr(context.op_execution_context, "_step_execution_context", None)
    resolved = getattr(step, "resolved_run_config", None)
    entry = getattr(resolved, "resources", {}).get(io_manager_key) if resolved else None
    if entry is not None:
        return entry.config
    given = context.op_execution_context.run_config.get("resources", {}).get(io_manager_key)
    return given.get("config") if isinstance(given, Mapping) else None


@contextmanager
def input_context_for(
    context: Any,
    source: LoadSource,
    *,
    io_manager_key: str,
    partition_key: str | None,
    run_id: str | None,
    output_metadata: Mapping[str, Any] | None,
) -> Iterator[dg.InputContext]:
    """An ``InputContext`` like the one Dagster builds for a downstream asset's input."""
    pdef = source.partitions_def if partition_key is not None else None
    key_range = None
    if pdef is not None and partition_key is not None:
        key_range = dg.PartitionKeyRange(partition_key, partition_key)
    resources = _manager_resources(context, io_manager_key)
    resource_config = _manager_config(context, io_manager_key)
    # what the output's context and the downstream input's context both carry
    shared = {
        "dagster_type": source.dagster_type,
        "asset_key": source.asset_key,
        "partition_key": partition_key,
        "asset_partitions_def": pdef,
        "asset_partition_key_range": key_range,
        "resource_config": resource_config,
        "instance": context.instance,
    }
    output_kwargs = {
        **shared,
        "step_key": source.op_def.name if source.op_def is not None else None,
        "name": source.output_name,
        "run_id": run_id,
        "definition_metadata": dict(source.definition_metadata),
        "output_metadata": dict(output_metadata or {}),
        "op_def": source.op_def,
        "asset_spec": source.asset_spec,
    }
    # The IO manager's resources are built once, on the run's instance, and both contexts
    # share them. Handed a plain mapping, each context would build its own on an ephemeral
    # instance: two in-memory instances, each running its storage's migrations (about
    # 0.14 s apiece), on every check.
    with ExitStack() as stack:
        built = _SharedResources(
            stack.enter_context(dg.build_resources(resources, instance=context.instance))
        )
        upstream = stack.enter_context(
            dg.build_output_context(
                **accepted_kwargs(dg.build_output_context, {**output_kwargs, "resources": built})
            )
        )
        input_kwargs = {
            **shared,
            "resources": built,
            "name": source.asset_key.path[-1],  # a downstream asset's parameter
            "upstream_output": upstream,
        }
        yield stack.enter_context(
            dg.build_input_context(**accepted_kwargs(dg.build_input_context, input_kwargs))
        )
