"""The schema delta at the sink: added, removed, retyped and renamed columns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from faucet_core.catalog.model import SchemaField
from faucet_core.impact.planned import Observed, PlannedSchema
from faucet_core.impact.report import (
    ChangeKind,
    ColumnChange,
    ImpactSeverity,
    PlannedFrom,
    SampleRule,
)
from faucet_core.impact.types import TypeChange, compare_types, parse_type

__all__ = ["schema_delta"]


def schema_delta(
    current: Sequence[SchemaField],
    planned: PlannedSchema,
    *,
    renames: Mapping[str, str] | None = None,
    drops: Sequence[str] = (),
    dialect: str | None = None,
) -> tuple[tuple[ColumnChange, ...], tuple[str, ...]]:
    """The delta from ``current`` (the catalog's last observed schema) to ``planned``, and
    notes on what it could not judge.

    A removed + added pair that ``renames`` (``{old: new}``) maps is a rename. A column
    absent from a typed sample (its schema states the columns) is removed; with JSON lines
    (:attr:`SampleRule.UNTYPED`), a current column the sample has no value for is removed
    only when it is in ``drops`` or renamed away, otherwise it is named in the notes. A
    type the current schema already allows is not a retype: a sample's values are compared
    by their stated type and, failing that, by what they show (their JSON type and range).
    Types compare by meaning (``dialect``: the warehouse's, for SQL spellings; see
    :mod:`faucet_core.impact.types`). A current column the plan does not cover (column
    lineage that does not mention it) is unknown: named in the notes, never removed.
    """
    renames = dict(renames or {})
    sample = planned.source is PlannedFrom.SAMPLE
    typed = planned.rule is SampleRule.TYPED
    untyped = planned.rule is SampleRule.UNTYPED
    old = {f.name: f.type for f in current}
    new = planned.types()
    # JSON lines show only keys with a value: an all-null column says nothing; a typed
    # sample states its columns, valued or not
    valued = {k: v for k, v in new.items() if not sample or typed or (v and v != "null")}
    changes: list[ColumnChange] = []
    notes: list[str] = []
    renamed_to: set[str] = set()
    uncovered = []
    for name, before in old.items():
        target = renames.get(name)
        covered = planned.covers is None or name in planned.covers
        if not covered and target is None and name not in drops:
            uncovered.append(name)
            continue
        if name in valued:
            after = valued[name]
            seen = planned.observed.get(name)
            direction = _direction(before, after, seen, sample=sample, dialect=dialect)
            if direction.breaking and untyped and _json_cannot_say(before, after):
                notes.append(
                    f"{name}: JSON has no {before} type, so the sample's strings are not "
                    "judged against it (a Parquet or Arrow sample states it)"
                )
                continue
            if direction is TypeChange.UNKNOWN:
                if before != after:
                    notes.append(f"{name}: type {before or '?'} -> {after or '?'} not judged")
                continue
            if direction is not TypeChange.SAME:
                severity = (
                    ImpactSeverity.BREAKING if direction.breaking else ImpactSeverity.ADDITIVE
                )
                changes.append(
                    ColumnChange(name, ChangeKind.RETYPED, before, after, severity, direction)
                )
            continue
        if target is not None and target in new and target not in old:
            renamed_to.add(target)
            changes.append(
                ColumnChange(name, ChangeKind.RENAMED, name, target, ImpactSeverity.BREAKING)
            )
            continue
        if sample and not typed and name not in drops and target is None:
            notes.append(
                f"{name}: the sample has no value for it, and the asset does not declare it "
                "dropped (faucet/drops), so it is left out of the delta"
            )
            continue
        changes.append(
            ColumnChange(name, ChangeKind.REMOVED, before, None, ImpactSeverity.BREAKING)
        )
    for name, after in new.items():
        if name not in old and name not in renamed_to:
            changes.append(
                ColumnChange(name, ChangeKind.ADDED, None, after, ImpactSeverity.ADDITIVE)
            )
    if uncovered:
        notes.append(
            f"{', '.join(sorted(uncovered))}: the declared column lineage does not mention "
            f"{'it' if len(uncovered) == 1 else 'them'}, so what the asset now writes there is "
            "unknown; left out of the delta (declare the column schema, or the column in "
            "dagster/column_lineage, to plan it)"
        )
    return tuple(sorted(changes, key=lambda c: c.column)), tuple(notes)


def _direction(
    before: str | None,
    after: str | None,
    seen: Observed | None,
    *,
    sample: bool,
    dialect: str | None = None,
) -> TypeChange:
    values = seen.values if seen else None
    direction = compare_types(before, after, sample=sample, values=values, dialect=dialect)
    if not sample or seen is None or direction in (TypeChange.SAME, TypeChange.UNKNOWN):
        return direction
    # a type the current one does not hold, with values it does (a Parquet timestamp the
    # current schema, recorded by a profile, calls string; a CSV column of ISO times the
    # declared schema calls timestamp): compare like with like
    for other in (seen.json_type, seen.inferred):
        if not other or other == after:
            continue
        again = compare_types(before, other, sample=True, values=seen.values, dialect=dialect)
        if again is TypeChange.SAME:
            return TypeChange.SAME
    return direction


def _json_cannot_say(before: str | None, after: str | None) -> bool:
    """JSON has no date or time type: its strings are not judged against one."""
    old = {a.family for a in parse_type(before or "")} - {"null"}
    new = {a.family for a in parse_type(after or "")} - {"null"}
    return new == {"string"} and bool(old) and old <= {"date", "timestamp"}
