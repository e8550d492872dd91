"""``dagster://<asset key>`` for an asset whose dataset has another URI.

An asset's catalog dataset is ``dagster://<key>`` only when its metadata names no other
(``faucet/dataset``, ``dagster/uri``, ``dagster/table_name``: see
:mod:`faucet_dagster.lineage.mapping`). A client that asks for ``dagster://members`` means
the asset ``members`` all the same, so :class:`AssetRefs` turns that into the URI the
asset's dataset has.
"""

from __future__ import annotations

import functools
import threading

import dagster as dg

from faucet_core.errors import FaucetError
from faucet_dagster.lineage.mapping import DAGSTER_NAMESPACE, asset_dataset

__all__ = ["AssetRefs"]

_PREFIX = f"{DAGSTER_NAMESPACE}://"


class AssetRefs:
    """The dataset URIs of a code location's assets, read once."""

    def __init__(self, defs: dg.Definitions) -> None:
        self._defs = defs
        self._lock = threading.Lock()

    @functools.cached_property
    def _uris(self) -> dict[str, str]:
        graph = self._defs.resolve_asset_graph()
        out: dict[str, str] = {}
        for key in graph.get_all_asset_keys():
            node = graph.get(key)
            try:
                out[key.to_user_string()] = asset_dataset(key, node.metadata, node.tags).uri
            except FaucetError:  # a bad faucet/dataset entry: that asset has no alias
                continue
        return out

    def dataset_of(self, ref: str) -> str | None:
        """The URI of the dataset the asset ``ref`` (``dagster://<key>``) writes, when it
        is another URI than ``ref``; None otherwise."""
        if not ref.startswith(_PREFIX):
            return None
        with self._lock:
            uris = self._uris
        found = uris.get(ref[len(_PREFIX) :].strip("/"))
        return found if found is not None and found != ref else None
