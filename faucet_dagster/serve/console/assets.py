"""What the console knows of the code location's assets: their keys (the impact page's
choices), which catalog dataset each writes (for the link to the Dagster UI, and for the
assets that never ran, which the catalog does not hold yet) and the configuration of each
one's profile check (the detector's settings, for the bands the charts draw)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from urllib.parse import quote

import dagster as dg

from faucet_core.catalog import DatasetRef
from faucet_core.config import ProfilingConfig
from faucet_core.errors import ConfigError, FaucetError
from faucet_dagster.lineage.mapping import asset_dataset
from faucet_dagster.location import ProfiledAsset

__all__ = ["ENV_DAGSTER_URL", "AssetIndex", "dagster_url"]

ENV_DAGSTER_URL = "FAUCET_DAGSTER_URL"


def dagster_url(value: str | None) -> str | None:
    """A Dagster UI base URL (``http(s)://host[:port][/prefix]``), without its trailing
    slash; None when unset. Anything else is refused in one line."""
    if value is None or not value.strip():
        return None
    url = value.strip().rstrip("/")
    if not url.lower().startswith(("http://", "https://")) or any(c in url for c in "\"'<> "):
        raise ConfigError(
            f"Dagster UI URL {value!r} is not an http(s) URL: give one such as "
            "http://127.0.0.1:3000 (--dagster-url or FAUCET_DAGSTER_URL)"
        )
    return url


@dataclass(frozen=True)
class AssetIndex:
    keys: tuple[str, ...]
    """Every asset key of the location, as ``a/b``, sorted."""
    by_dataset: dict[str, dg.AssetKey]
    """Catalog dataset id -> the asset that writes it."""
    refs: dict[str, DatasetRef] = field(default_factory=dict)
    """Catalog dataset id -> the dataset the asset writes (its URI, run or not)."""
    configs: dict[str, ProfilingConfig] = field(default_factory=dict)
    """Catalog dataset id -> the settings of the asset's profile check (profiled assets)."""
    per_partition: frozenset[str] = frozenset()
    """Dataset ids whose asset has static partitions: one baseline per partition, as
    ``partitions="auto"`` keeps them (time windows share one; the check definition does
    not say when another mode was chosen)."""

    @classmethod
    def of(cls, defs: dg.Definitions, profiled: Sequence[ProfiledAsset] = ()) -> AssetIndex:
        graph = defs.resolve_asset_graph()
        keys = sorted(graph.get_all_asset_keys())
        by_dataset: dict[str, dg.AssetKey] = {}
        refs: dict[str, DatasetRef] = {}
        static: set[str] = set()
        for key in keys:
            node = graph.get(key)
            try:
                ref = asset_dataset(key, node.metadata, node.tags)
            except FaucetError:  # a bad faucet/dataset entry: no link for that asset only
                continue
            by_dataset[ref.id] = key
            refs[ref.id] = ref
            pdef = node.partitions_def
            if pdef is not None and not isinstance(pdef, dg.TimeWindowPartitionsDefinition):
                static.add(ref.id)
        ids = {key: dataset for dataset, key in by_dataset.items()}
        configs = {ids[p.key]: p.config for p in profiled if p.key in ids}
        return cls(
            tuple(k.to_user_string() for k in keys), by_dataset, refs, configs, frozenset(static)
        )

    def key_of(self, dataset_id: str) -> str | None:
        """The key (``a/b``) of the asset that writes the dataset, if one does."""
        key = self.by_dataset.get(dataset_id)
        return key.to_user_string() if key is not None else None

    def dataset_named(self, ref: str) -> str | None:
        """The id of the dataset an asset of the location writes, named by its id or URI
        (as the dataset page's path gives it), else None."""
        if ref in self.refs:
            return ref
        return next((i for i, r in self.refs.items() if r.uri == ref), None)

    def config_of(self, dataset_id: str) -> ProfilingConfig | None:
        """The profile check's settings of the asset that writes the dataset, if any."""
        return self.configs.get(dataset_id)

    def link(self, base: str | None, dataset_id: str) -> str | None:
        """The asset's page in the Dagster UI, when ``base`` is set and the dataset is an
        asset of the location."""
        key = self.by_dataset.get(dataset_id)
        if base is None or key is None:
            return None
        return f"{base}/assets/" + "/".join(quote(part, safe="") for part in key.path)
