"""The schema delta at the sink: added, removed, retyped and renamed columns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from faucet_core.catalog.model import SchemaField
from faucet_core.impact.planned import PlannedSchema
from faucet_core.impact.report import ChangeKind, ColumnChange, PlannedFrom, Severity
from faucet_core.impact.types import TypeChange, compare_types

__all__ = ["schema_delta"]


def schema_delta(
    current: Sequence[SchemaField],
    planned: PlannedSchema,
    *,
    renames: Mapping[str, str] | None = None,
    drops: Sequence[str] = (),
) -> tuple[tuple[ColumnChange, ...], tuple[str, ...]]:
    """The delta from ``current`` (the catalog's last observed schema) to ``planned``, and
    notes on what it could not judge.

    A removed + added pair that ``renames`` (``{old: new}``) maps is a rename. With a
    sample, a current column the sample has no value for is removed only when it is in
    ``drops`` or renamed away; otherwise it is named in the notes. A type the current
    schema already allows is not a retype.
    """
    renames = dict(renames or {})
    sample = planned.source is PlannedFrom.SAMPLE
    old = {f.name: f.type for f in current}
    new = planned.types()
    # with a sample, a column whose values are all null says nothing about its type
    valued = {k: v for k, v in new.items() if not sample or (v and v != "null")}
    changes: list[ColumnChange] = []
    notes: list[str] = []
    renamed_to: set[str] = set()
    for name, before in old.items():
        target = renames.get(name)
        if name in valued:
            after = valued[name]
            direction = compare_types(before, after, sample=sample)
            if direction is TypeChange.UNKNOWN:
                if before != after:
                    notes.append(f"{name}: type {before or '?'} -> {after or '?'} not judged")
                continue
            if direction is not TypeChange.SAME:
                severity = Severity.BREAKING if direction.breaking else Severity.ADDITIVE
                changes.append(
                    ColumnChange(name, ChangeKind.RETYPED, before, after, severity, direction)
                )
            continue
        if target is not None and target in new and target not in old:
            renamed_to.add(target)
            changes.append(ColumnChange(name, ChangeKind.RENAMED, name, target, Severity.BREAKING))
            continue
        if sample and name not in drops and target is None:
            notes.append(
                f"{name}: the sample has no value for it, and the asset does not declare it "
                "dropped (faucet/drops), so it is left out of the delta"
            )
            continue
        changes.append(ColumnChange(name, ChangeKind.REMOVED, before, None, Severity.BREAKING))
    for name, after in new.items():
        if name not in old and name not in renamed_to:
            changes.append(ColumnChange(name, ChangeKind.ADDED, None, after, Severity.ADDITIVE))
    return tuple(sorted(changes, key=lambda c: c.column)), tuple(notes)
