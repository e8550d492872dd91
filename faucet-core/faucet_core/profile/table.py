"""``TableProfile``: the profile of everything one materialization wrote."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from faucet_core.errors import SketchError
from faucet_core.profile.model import PROFILE_FORMAT, ColumnProfile
from faucet_core.profile.sketches import SketchParams
from faucet_core.profile.state import ColumnState

__all__ = ["TableProfile"]


@dataclass(frozen=True)
class TableProfile:
    """Per-column profiles of one table (or one part of it), with a JSON round trip."""

    row_count: int
    columns: Mapping[str, ColumnProfile]
    skipped_columns: int = 0
    params: SketchParams = field(default_factory=SketchParams)

    def __getitem__(self, name: str) -> ColumnProfile:
        return self.columns[name]

    def to_dict(self, *, sketches: bool = True) -> dict[str, Any]:
        """A JSON-ready dict; ``sketches=False`` leaves out the mergeable state."""
        return {
            "format": PROFILE_FORMAT,
            "row_count": self.row_count,
            "skipped_columns": self.skipped_columns,
            "params": self.params.to_dict(),
            "columns": [c.to_dict(sketches=sketches) for c in self.columns.values()],
        }

    def to_json(self, *, sketches: bool = True) -> str:
        return json.dumps(self.to_dict(sketches=sketches), separators=(",", ":"), allow_nan=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, check_sketches: bool = True) -> TableProfile:
        """Read what :meth:`to_dict` wrote. ``check_sketches=False`` skips deserializing
        every sketch to validate it (for readers that only use the published statistics)."""
        if not isinstance(data, Mapping):
            raise SketchError(f"a table profile must be a JSON object, got {type(data).__name__}")
        fmt = data.get("format")
        if fmt != PROFILE_FORMAT:
            raise SketchError(
                f"table profile format {fmt!r} is not supported (this faucet reads format "
                f"{PROFILE_FORMAT}); upgrade faucet-dagster or re-profile"
            )
        try:
            params = SketchParams(**{str(k): int(v) for k, v in dict(data["params"]).items()})
            columns = [ColumnProfile.from_dict(c) for c in data["columns"]]
            profile = cls(
                row_count=int(data["row_count"]),
                columns={c.name: c for c in columns},
                skipped_columns=int(data.get("skipped_columns", 0)),
                params=params,
            )
        except SketchError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise SketchError(f"table profile is damaged: {exc!r}") from None
        if check_sketches:
            for column in columns:  # a damaged sketch fails here, not in a later merge
                if column.sketches:
                    ColumnState.from_profile(column, params)
        return profile

    @classmethod
    def from_json(cls, text: str | bytes, *, check_sketches: bool = True) -> TableProfile:
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise SketchError(f"table profile is not valid JSON: {exc}") from None
        return cls.from_dict(data, check_sketches=check_sketches)

    def merge(self, other: TableProfile) -> TableProfile:
        """The profile of both parts together (partitions, batches): exact counts,
        sketch-accurate distinct counts, quantiles and top values."""
        if self.params != other.params:
            raise SketchError(
                f"cannot merge profiles made with different sketch settings "
                f"({self.params.to_dict()} vs {other.params.to_dict()}); profile both parts "
                "with the same top_values and categorical_max_distinct"
            )
        merged: dict[str, ColumnProfile] = {}
        for name in list(self.columns) + [n for n in other.columns if n not in self.columns]:
            state = _state_or_nulls(self.columns.get(name), name, self.row_count, self.params)
            state.merge(
                _state_or_nulls(other.columns.get(name), name, other.row_count, self.params)
            )
            merged[name] = state.to_profile()
        return TableProfile(
            row_count=self.row_count + other.row_count,
            columns=merged,
            skipped_columns=max(self.skipped_columns, other.skipped_columns),
            params=self.params,
        )


def _state_or_nulls(
    column: ColumnProfile | None, name: str, rows: int, params: SketchParams
) -> ColumnState:
    if column is not None:
        return ColumnState.from_profile(column, params)
    # A column absent from one part is null in every record of that part.
    state = ColumnState(name, params)
    state.add_rows(rows, rows)
    return state
