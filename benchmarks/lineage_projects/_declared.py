"""The declared column lineage of the pandas projects: one table per project, read both by
the assets (as ``dagster/column_lineage``) and by the benchmark (as the known pairs)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import dagster as dg

__all__ = ["Declared", "column_lineage"]


@dataclass(frozen=True)
class Declared:
    """What one asset reads of one upstream asset."""

    fields: Mapping[str, Mapping[str, str]]
    """``{output column: {input column: OpenLineage type}}`` (``DIRECT/IDENTITY`` for a
    copy, ``DIRECT/TRANSFORMATION`` for a computation)."""
    rows: frozenset[str] = field(default_factory=frozenset)
    """Input columns that decide the output's rows (filter, join, group, window)."""


def column_lineage(
    asset: str, lineage: Mapping[str, Mapping[str, Declared]]
) -> dg.TableColumnLineage:
    """``dagster/column_lineage`` of ``asset`` from its project's declared lineage."""
    deps: dict[str, list[dg.TableColumnDep]] = {}
    for upstream, declared in lineage[asset].items():
        for column, inputs in declared.fields.items():
            deps.setdefault(column, []).extend(
                dg.TableColumnDep(asset_key=dg.AssetKey(upstream), column_name=c) for c in inputs
            )
    return dg.TableColumnLineage(deps_by_column=deps)
