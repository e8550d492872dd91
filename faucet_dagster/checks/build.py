"""``build_profile_checks``: one profile check per asset, run after each materialization.

No ``from __future__ import annotations`` here: Dagster inspects the check function's
``context`` annotation at definition time and needs the real class.
"""

import keyword
from collections.abc import Iterable, Mapping
from typing import Any

import dagster as dg
from dagster import AssetCheckExecutionContext

import faucet_dagster.metadata as md
from faucet_core.config import OnDrift, ProfilingConfig, load_profiling_config
from faucet_core.errors import ConfigError
from faucet_dagster.checks.evaluate import CheckOptions, PartitionBaseline, evaluate
from faucet_dagster.checks.loading import Loader
from faucet_dagster.checks.targets import AssetTarget, overrides_by_key, resolve_targets
from faucet_dagster.dbt.warehouse import Warehouse, check_warehouse, relation_loader

__all__ = [
    "DEFAULT_CHECK_NAME",
    "build_profile_checks",
    "check_identifier",
    "config_of",
    "partition_mode",
    "spec_description",
    "spec_metadata",
]

DEFAULT_CHECK_NAME = "faucet_profile"


def spec_description(cfg: ProfilingConfig) -> str:
    """The check's description in the UI (both forms: a separate check, or in the step)."""
    return (
        "faucet: profiles each materialization per column and compares it with a rolling "
        f"baseline (min_history {cfg.min_history}, window {cfg.window}, "
        f"on_drift {cfg.on_drift.value})"
    )


def spec_metadata(cfg: ProfilingConfig) -> dict[str, Any]:
    """The check's definition metadata; ``faucet/config`` marks a faucet check (the
    notification sensor finds the checks to notify by it)."""
    return {
        md.CONFIG: dg.MetadataValue.json(cfg.model_dump(mode="json")),
        md.ON_DRIFT: cfg.on_drift.value,
    }


def config_of(value: Any, where: str) -> ProfilingConfig:
    """A ``profiling:`` block, or a definition error naming ``where`` it was given."""
    try:
        return load_profiling_config(value, where=where)
    except ConfigError as exc:
        raise dg.DagsterInvalidDefinitionError(str(exc)) from None


def partition_mode(partitions: PartitionBaseline | str) -> PartitionBaseline:
    """The ``partitions=`` argument as a :class:`PartitionBaseline`, or a definition error."""
    try:
        return PartitionBaseline(partitions)
    except ValueError:
        raise dg.DagsterInvalidDefinitionError(
            f"partitions={partitions!r} is not one of "
            f"{', '.join(repr(m.value) for m in PartitionBaseline)}"
        ) from None


def check_identifier(value: str, what: str, example: str) -> str:
    """``value`` if it is a valid check or resource name, else a definition error."""
    if not isinstance(value, str) or not value.isidentifier() or keyword.iskeyword(value):
        raise dg.DagsterInvalidDefinitionError(
            f"{what}={value!r} is not a valid name: use letters, digits and underscores, "
            f"not starting with a digit (e.g. {example!r})"
        )
    return value


def build_profile_checks(
    assets: Iterable[Any],
    *,
    config: ProfilingConfig | Mapping[str, Any] | None = None,
    asset_configs: Mapping[Any, ProfilingConfig | Mapping[str, Any]] | None = None,
    partitions: PartitionBaseline | str = PartitionBaseline.AUTO,
    loader: Loader | None = None,
    warehouse: Warehouse = None,
    name: str = DEFAULT_CHECK_NAME,
    resource_key: str = "faucet",
    io_manager_key: str = "io_manager",
    required_resource_keys: Iterable[str] = (),
    description: str | None = None,
) -> list[dg.AssetChecksDefinition]:
    """Asset checks that profile every materialization and report drift against a baseline.

    Args:
        assets: asset keys (``AssetKey``, ``"a/b"``), ``AssetSpec`` s or asset definitions.
        config: the ``profiling:`` block (a :class:`ProfilingConfig` or a mapping).
        asset_configs: per-asset blocks that replace ``config`` for those assets.
        partitions: ``auto`` (one baseline per static partition, one shared baseline for time
            windows), ``per_partition`` or ``shared``.
        loader: instead of the IO manager, a function returning what to profile (for example
            a ``pyarrow.RecordBatchReader`` over a Parquet file), for assets too large to load.
        warehouse: for ``@dbt_assets``: the database dbt builds into (a SQLAlchemy URL, a
            ``dg.EnvVar`` holding one, or an ``Engine``). Each dbt model's check profiles the
            model's relation there with SQL (pushdown); ``loader``, when given, wins.
        name: the check name (the same on every asset).
        resource_key: the key of the :class:`FaucetResource`.
        io_manager_key: the IO manager of assets given by key only (definitions say their own).
        required_resource_keys: extra resources the ``loader`` uses.

    A check is blocking when its ``on_drift`` is ``fail``: a drifting run fails with severity
    ERROR and downstream assets of the run do not materialize. Otherwise drift is a WARN.
    """
    base = config_of(config, "config")
    mode = partition_mode(partitions)
    if loader is not None and not callable(loader):
        raise dg.DagsterInvalidDefinitionError(
            f"loader={loader!r} is not callable: pass a function (ProfileLoadContext) -> data"
        )
    check_identifier(name, "name", DEFAULT_CHECK_NAME)
    check_identifier(resource_key, "resource_key", "faucet")
    warehouse = check_warehouse(warehouse)
    targets = resolve_targets(assets, io_manager_key=io_manager_key)
    if warehouse is not None and loader is None and not any(t.dbt for t in targets):
        raise dg.DagsterInvalidDefinitionError(
            "warehouse= profiles dbt models in their warehouse, but no asset in assets comes "
            "from @dbt_assets: pass the dbt assets definition, or a loader= for other assets"
        )
    overrides = overrides_by_key(asset_configs)
    unknown = set(overrides) - {t.key for t in targets}
    if unknown:
        names = ", ".join(sorted(k.to_user_string() for k in unknown))
        raise dg.DagsterInvalidDefinitionError(
            f"asset_configs names asset(s) not in assets: {names}; add them to assets or "
            "remove their override"
        )
    extra = set(required_resource_keys)
    checks = []
    for target in targets:
        where = f"asset_configs[{target.key.to_user_string()!r}]"
        cfg = config_of(overrides[target.key], where) if target.key in overrides else base
        # A dbt model without a loader: profiled where it lives (its relation, in SQL).
        load = relation_loader(warehouse) if loader is None and target.dbt else loader
        checks.append(_build_one(target, cfg, mode, load, name, resource_key, extra, description))
    return checks


def _build_one(
    target: AssetTarget,
    cfg: ProfilingConfig,
    mode: PartitionBaseline,
    loader: Loader | None,
    name: str,
    resource_key: str,
    extra: set[str],
    description: str | None,
) -> dg.AssetChecksDefinition:
    resources = {resource_key, *extra}
    if loader is None:
        resources.add(target.io_manager_key)
    opts = CheckOptions(
        target=target, config=cfg, resource_key=resource_key, partitions=mode, loader=loader
    )
    blocking = cfg.on_drift is OnDrift.FAIL

    @dg.asset_check(
        asset=target.key,
        name=name,
        blocking=blocking,
        required_resource_keys=resources,
        description=description or spec_description(cfg),
        metadata=spec_metadata(cfg),
    )
    def _profile_check(context: AssetCheckExecutionContext) -> dg.AssetCheckResult:
        return evaluate(context, opts)

    return _profile_check
