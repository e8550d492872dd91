"""Build column and table profiles with exactly the statistics a drift test needs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from faucet_core import ColumnProfile, NumericStats, StringStats, TableProfile, TopValue
from faucet_core.profile import SketchParams


def numeric(
    mean: float = 50.0,
    *,
    lo: float = 1.0,
    hi: float = 100.0,
    stddev: float = 10.0,
    count: int = 1000,
) -> NumericStats:
    return NumericStats(min=lo, max=hi, mean=mean, stddev=stddev, p50=mean, p95=hi, count=count)


def string(len_mean: float = 20.0, *, len_max: int = 40, count: int = 1000) -> StringStats:
    return StringStats(len_min=1, len_max=len_max, len_mean=len_mean, count=count)


def column(
    name: str = "c",
    *,
    rows: int = 1000,
    nulls: int = 0,
    distinct: int = 500,
    num: NumericStats | None = None,
    text: StringStats | None = None,
    top: Mapping[Any, float] | None = None,
    types: Mapping[str, int] | None = None,
    high_cardinality: bool = False,
    classified: Sequence[str] = (),
) -> ColumnProfile:
    """A column of ``rows`` records; ``top`` maps value -> share of the records."""
    if types is None:
        kind = "number" if num is not None else "string"
        types = {kind: rows - nulls, **({"null": nulls} if nulls else {})}
    top_values = None
    if top is not None:
        top_values = tuple(
            TopValue(value=v, count=round(share * rows), share=share)
            for v, share in sorted(top.items(), key=lambda item: -item[1])
        )
    return ColumnProfile(
        name=name,
        row_count=rows,
        null_count=nulls,
        types=dict(types),
        distinct=distinct,
        numeric=num,
        string=text,
        top_values=top_values,
        high_cardinality=high_cardinality,
        classified=tuple(classified),
    )


def table(*columns: ColumnProfile, top_values: int = 10) -> TableProfile:
    rows = max((c.row_count for c in columns), default=0)
    return TableProfile(
        row_count=rows,
        columns={c.name: c for c in columns},
        params=SketchParams(top_values=top_values),
    )


def category(
    shares: Mapping[Any, float], *, name: str = "region", rows: int = 10_000, top_values: int = 10
) -> TableProfile:
    """A one-column table of a categorical string column with these value shares."""
    listed = dict(sorted(shares.items(), key=lambda item: -item[1])[:top_values])
    return table(
        column(
            name,
            rows=rows,
            distinct=len(shares),
            top=listed,
            text=string(5.0, len_max=5, count=rows),
        ),
        top_values=top_values,
    )
