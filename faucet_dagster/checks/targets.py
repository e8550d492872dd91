"""Turning the ``assets`` argument of the factories into asset keys, at definition time."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import dagster as dg

from faucet_dagster.dbt.manifest import dbt_node

__all__ = ["AssetTarget", "baseline_key_of", "resolve_targets"]


@dataclass(frozen=True)
class AssetTarget:
    """One asset to profile, with what its definition tells (if it was given)."""

    key: dg.AssetKey
    io_manager_key: str
    dbt: bool = False
    """True for a dbt model or seed of ``@dbt_assets`` (its definition carries the manifest)."""


def baseline_key_of(key: dg.AssetKey) -> str:
    """The store key of an asset: its user string, e.g. ``sales/orders``."""
    return key.to_user_string()


def _invalid(message: str) -> dg.DagsterInvalidDefinitionError:
    return dg.DagsterInvalidDefinitionError(message)


def resolve_targets(assets: Any, *, io_manager_key: str) -> list[AssetTarget]:
    """Keys or definitions -> targets, one per asset key, in the order given."""
    if assets is None or isinstance(assets, (str, dg.AssetKey)) or not isinstance(assets, Iterable):
        if isinstance(assets, (str, dg.AssetKey, dg.AssetsDefinition, dg.AssetSpec)):
            assets = [assets]
        else:
            raise _invalid(
                f"assets={assets!r} is not a list of assets: pass a list of asset keys, "
                "AssetSpecs or asset definitions, e.g. assets=[orders, 'customers']"
            )
    targets: dict[dg.AssetKey, AssetTarget] = {}
    for item in assets:
        for target in _targets_of(item, io_manager_key):
            targets.setdefault(target.key, target)
    if not targets:
        raise _invalid("assets is empty: pass at least one asset key or definition to profile")
    return list(targets.values())


def _targets_of(item: Any, io_manager_key: str) -> list[AssetTarget]:
    if isinstance(item, dg.AssetsDefinition):
        if not item.is_materializable:
            raise _invalid(
                f"{item.key.to_user_string()} is not materializable (an external or source "
                "asset); profile checks run after a materialization: pass materializable assets"
            )
        return [
            AssetTarget(
                key=key,
                io_manager_key=item.get_io_manager_key_for_asset_key(key),
                dbt=dbt_node(item.specs_by_key[key].metadata) is not None,
            )
            for key in item.keys
        ]
    if isinstance(item, dg.SourceAsset):
        raise _invalid(
            f"{item.key.to_user_string()} is a source asset, never materialized: profile checks "
            "run after a materialization; pass materializable assets"
        )
    if isinstance(item, dg.AssetSpec):
        return [AssetTarget(item.key, io_manager_key)]
    if isinstance(item, dg.AssetKey):
        return [AssetTarget(item, io_manager_key)]
    if isinstance(item, str):
        if not item.strip():
            raise _invalid("an empty string is not an asset key")
        return [AssetTarget(dg.AssetKey.from_user_string(item), io_manager_key)]
    if isinstance(item, Sequence) and item and all(isinstance(p, str) for p in item):
        return [AssetTarget(dg.AssetKey(list(item)), io_manager_key)]
    raise _invalid(
        f"{item!r} ({type(item).__name__}) is not an asset: pass an AssetKey, a key string "
        "such as 'sales/orders', a list of key parts, an AssetSpec or an asset definition"
    )


def config_keys(item: Any) -> list[dg.AssetKey]:
    """The asset key(s) a per-asset override names (every key of a multi-asset)."""
    if isinstance(item, dg.AssetKey):
        return [item]
    if isinstance(item, str):
        return [dg.AssetKey.from_user_string(item)]
    if isinstance(item, dg.AssetsDefinition):
        return list(item.keys)
    if isinstance(item, dg.AssetSpec):
        return [item.key]
    raise _invalid(f"per-asset config key {item!r} is not an asset key or definition")


def overrides_by_key(overrides: Mapping[Any, Any] | None) -> dict[dg.AssetKey, Any]:
    return {key: v for k, v in (overrides or {}).items() for key in config_keys(k)}
