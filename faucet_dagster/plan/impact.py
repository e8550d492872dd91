"""``faucet plan --impact`` for a Dagster asset: resolve it in a code location, plan its
output schema, and hand the rest to :func:`faucet_core.impact.plan_impact`.

From the asset's definition metadata: its dataset (the catalog mapping), the declared
``dagster/column_schema`` and ``dagster/column_lineage``, and two faucet keys:

* ``faucet/renames``: ``{"old": "new"}``, columns the new code renames;
* ``faucet/drops``: ``["col", ...]``, columns the new code drops on purpose.

The Dagster dependencies of every asset of the location join the catalog's edges in the
walk (a catalog edge of the same asset wins: it holds the last run's lineage).

:func:`plan_change_impact` plans a change set: several ``--select`` values, each an asset
key or a Dagster asset selection (``tag:``, ``group:``, ``owner:``, ``kind:``, ``+``,
``*``, ``and``/``or``/``not``, parsed by Dagster's own ``AssetSelection.from_string``).
"""

from __future__ import annotations

import datetime as dt
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import dagster as dg
from dagster._check import CheckError  # Dagster 1.10 raises it for a bad selection

import faucet_dagster.metadata as md
from faucet_core.catalog import Catalog, ColumnInput, ColumnLineage, Edge, SchemaField
from faucet_core.errors import CatalogError, ConfigError, ImpactError
from faucet_core.impact import (
    DEFAULT_DEPTH,
    AssetPlan,
    ChangeImpact,
    ImpactReport,
    NoRecordedRunError,
    PlannedFrom,
    PlannedSchema,
    from_declared,
    from_lineage,
    from_sample_file,
    plan_impact,
    unknown,
)
from faucet_dagster.dbt.manifest import dbt_node
from faucet_dagster.dbt.plan import typed_like_observed
from faucet_dagster.lineage.mapping import (
    asset_dataset,
    asset_job,
    column_lineage_of,
    owners_of,
    schema_of,
)
from faucet_dagster.lineage.record import dataset_of_key
from faucet_dagster.metadata import unwrap
from faucet_dagster.plan.typeschema import type_schema_of, typed_like_profile

__all__ = [
    "DROPS_KEY",
    "RENAMES_KEY",
    "asset_edges",
    "plan_asset_impact",
    "plan_change_impact",
    "select_assets",
]

RENAMES_KEY = md.RENAMES
DROPS_KEY = md.DROPS
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)


def _renames(key: dg.AssetKey, metadata: Mapping[str, Any]) -> dict[str, str]:
    raw = unwrap(metadata.get(RENAMES_KEY))
    if raw is None:
        return {}
    if not isinstance(raw, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) and k and v for k, v in raw.items()
    ):
        raise ConfigError(
            f"asset {key.to_user_string()}: metadata {RENAMES_KEY} must map old column names "
            f'to new ones, e.g. {{"email": "mail"}}; found {raw!r}'
        )
    return dict(raw)


def _drops(key: dg.AssetKey, metadata: Mapping[str, Any]) -> list[str]:
    raw = unwrap(metadata.get(DROPS_KEY))
    if raw is None:
        return []
    if not isinstance(raw, (list, tuple)) or not all(isinstance(c, str) and c for c in raw):
        raise ConfigError(
            f"asset {key.to_user_string()}: metadata {DROPS_KEY} must list the column names "
            f'the asset drops, e.g. ["legacy_id"]; found {raw!r}'
        )
    return list(raw)


def asset_edges(graph: Any) -> list[Edge]:
    """Every Dagster dependency of ``graph`` as a catalog edge, with the declared column
    lineage of the child split per parent (a parent it does not name: opaque)."""
    out = []
    for key in sorted(graph.get_all_asset_keys()):
        node = graph.get(key)
        sink = asset_dataset(key, node.metadata, node.tags)
        lineage = column_lineage_of(
            node.metadata.get(md.DAGSTER_COLUMN_LINEAGE), lambda k: dataset_of_key(graph, k)
        )
        for parent in sorted(k for k in node.parent_keys if k != key):
            source = dataset_of_key(graph, parent)
            column_lineage = None
            if lineage is not None:
                fields = {
                    out_col: tuple(ColumnInput(r.field) for r in refs if r.dataset == source)
                    for out_col, refs in lineage.items()
                }
                fields = {k: v for k, v in fields.items() if v}
                column_lineage = ColumnLineage(fields) if fields else None
            out.append(
                Edge(
                    source.id,
                    source.uri,
                    sink.id,
                    sink.uri,
                    asset_job(key),
                    None,
                    _EPOCH,
                    column_lineage,
                )
            )
    return out


def _upstream_schemas(
    catalog: Catalog, uris: set[str]
) -> dict[str, tuple[SchemaField, ...] | None]:
    found: dict[str, tuple[SchemaField, ...] | None] = {}
    for uri in sorted(uris):
        try:
            found[uri] = catalog.dataset(uri).schema
        except CatalogError:
            found[uri] = None
    return found


def _observed_schema(catalog: Catalog, uri: str) -> tuple[SchemaField, ...] | None:
    try:
        return catalog.dataset(uri).schema
    except CatalogError:
        return None


def plan_asset_impact(
    catalog: Catalog,
    defs: dg.Definitions,
    asset: str,
    *,
    sample: str | Path | None = None,
    depth: int = DEFAULT_DEPTH,
) -> ImpactReport:
    """The impact report of shipping the current code of ``asset`` (``a/b`` key string):
    the planned schema from ``sample`` (a .jsonl/.csv/.parquet of what it would now write),
    else its declared column schema, else its Dagster type's table schema (dagster-pandera),
    else its column lineage, else unknown."""
    graph = defs.resolve_asset_graph()
    key = dg.AssetKey.from_user_string(asset)
    if not graph.has(key):
        known = ", ".join(sorted(k.to_user_string() for k in graph.get_all_asset_keys())[:10])
        raise ImpactError(
            f"--select {asset!r}: no such asset in the code location; its assets are: {known}"
        )
    node = graph.get(key)
    metadata = node.metadata
    dataset = asset_dataset(key, metadata, node.tags)
    planned: PlannedSchema
    declared = schema_of(metadata.get(md.COLUMN_SCHEMA))
    typed = type_schema_of(node) if declared is None else None
    lineage = column_lineage_of(
        metadata.get(md.DAGSTER_COLUMN_LINEAGE), lambda k: dataset_of_key(graph, k)
    )
    if sample is not None:
        planned = from_sample_file(sample)
    elif declared is not None:
        if dbt_node(metadata) is not None:
            declared = typed_like_observed(declared, _observed_schema(catalog, dataset.uri))
        planned = from_declared(declared)
    elif typed is not None:
        fields = typed_like_profile(typed, _observed_schema(catalog, dataset.uri))
        note = f"planned from the table schema of the asset's Dagster type (no {md.COLUMN_SCHEMA})"
        planned = PlannedSchema(PlannedFrom.DECLARED, fields, (note,))
    elif lineage is not None:
        origins = {o: [(r.dataset.uri, r.field) for r in refs] for o, refs in lineage.items()}
        uris = {uri for refs in origins.values() for uri, _ in refs}
        planned = from_lineage(origins, _upstream_schemas(catalog, uris))
    else:
        planned = unknown(
            f"asset {asset} declares no {md.COLUMN_SCHEMA} and no "
            f"{md.DAGSTER_COLUMN_LINEAGE}, and no sample was given"
        )
    return plan_impact(
        catalog,
        dataset.uri,
        planned,
        renames=_renames(key, metadata),
        drops=_drops(key, metadata),
        depth=depth,
        extra_edges=asset_edges(graph),
        extra_owners=asset_owners(graph),
    )


def asset_owners(graph: Any) -> dict[str, tuple[str, ...]]:
    """Dataset id -> the owners the code location declares on the asset writing it."""
    owners: dict[str, tuple[str, ...]] = {}
    for key in graph.get_all_asset_keys():
        node = graph.get(key)
        declared = owners_of(key, getattr(node, "owners", None), node.metadata)
        if declared:
            owners[asset_dataset(key, node.metadata, node.tags).id] = declared
    return owners


def _unknown_key(graph: Any, text: str) -> ImpactError:
    known = ", ".join(sorted(k.to_user_string() for k in graph.get_all_asset_keys())[:10])
    return ImpactError(
        f"--select {text!r}: no such asset in the code location; its assets are: {known}"
    )


_SYNTAX = ("key:", "tag:", "group:", "owner:", "kind:", "code_location:", "+", "*", " ", "(")


def select_assets(graph: Any, selections: Sequence[str]) -> list[str]:
    """The asset keys (``a/b`` strings, sorted) that ``selections`` name: each an asset key,
    or a Dagster asset selection string. Raises :class:`ImpactError` naming a value that is
    neither, or that selects nothing."""
    keys: set[dg.AssetKey] = set()
    for text in selections:
        plain = dg.AssetKey.from_user_string(text) if text else None
        if plain is not None and graph.has(plain):
            keys.add(plain)
            continue
        if not any(mark in text for mark in _SYNTAX):
            raise _unknown_key(graph, text)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # beta notes on Dagster's own parser
                found = dg.AssetSelection.from_string(text).resolve(graph)
        except (dg.DagsterError, CheckError) as exc:
            # Dagster 1.10 reports a string it cannot parse as a CheckError("Failure
            # condition: Invalid selection string: ..."), 1.11+ as a DagsterError
            reason = " ".join(str(exc).removeprefix("Failure condition: ").split())[:200]
            raise ImpactError(
                f"--select {text!r}: not an asset key or a Dagster asset selection ({reason}); "
                "give a key (a/b) or a selection such as 'tag:team=crm', 'group:marts', "
                "'customers+' or 'key:a or key:b'"
            ) from None
        if not found:
            raise ImpactError(
                f"--select {text!r} selects no asset of the code location; check the "
                "selection (faucet plans assets the location defines)"
            )
        keys.update(found)
    return sorted(k.to_user_string() for k in keys)


def plan_change_impact(
    catalog: Catalog,
    defs: dg.Definitions,
    selections: Sequence[str],
    *,
    sample: str | Path | None = None,
    depth: int = DEFAULT_DEPTH,
) -> ChangeImpact:
    """The impact of shipping every asset ``selections`` name, as one report.

    ``sample`` plans one asset: it is refused when the selection names several. An asset
    with no recorded run (a new asset) is listed as not planned; when no selected asset
    has one, that is an error (the first asset's).
    """
    graph = defs.resolve_asset_graph()
    assets = select_assets(graph, selections)
    if sample is not None and len(assets) != 1:
        raise ImpactError(
            f"--sample is what one asset would write, but --select names {len(assets)} "
            f"assets ({', '.join(assets[:5])}{', ...' if len(assets) > 5 else ''}); "
            "select one asset to plan it with a sample"
        )
    plans: list[AssetPlan] = []
    first: NoRecordedRunError | None = None
    for asset in assets:
        try:
            report = plan_asset_impact(catalog, defs, asset, sample=sample, depth=depth)
        except NoRecordedRunError as exc:
            first = first or exc
            plans.append(
                AssetPlan(
                    asset,
                    None,
                    f"{exc.dataset} has no recorded run (a new asset: nothing observed to "
                    "compare, nothing recorded reads it yet); materialize it once to plan it",
                )
            )
            continue
        plans.append(AssetPlan(asset, report))
    if first is not None and all(p.report is None for p in plans):
        raise first
    return ChangeImpact.of(plans)
