"""pandas and polars DataFrames -> column batches (imported only when such a frame is given).

pandas: each column slice becomes an Arrow array with ``from_pandas=True``, so
NaN, ``None``, ``pd.NA`` and ``NaT`` are nulls; a categorical becomes a
dictionary array. An ``object`` column is handed to Arrow only when pandas'
C-speed type inference finds one plain kind of scalar in it (strings, bytes,
integers, floats, booleans, decimals, datetimes, dates, times): Arrow's
conversion of other object columns can crash the process (numpy scalars mixed
with other values, e.g. ``[np.datetime64(...), np.float32(2)]``, end in a
segmentation fault inside ``from_pandas``), so those, and any column Arrow
refuses, are profiled value by value. So is an ``object`` column of dicts (Arrow
would give every dict every key of the column, the missing ones null, where a
JSON writer writes each dict as it is). polars: ``to_arrow()`` per slice; an
``Object`` column is profiled value by value.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pyarrow as pa

__all__ = ["pandas_batches", "polars_batches"]


def pandas_batches(df: Any, batch_rows: int) -> Iterator[tuple[str, Any]]:
    import pandas as pd

    if isinstance(df, pd.Series):
        df = df.to_frame()
    if not isinstance(df, pd.DataFrame):
        from faucet_core.errors import ProfilingInputError

        raise ProfilingInputError(f"cannot profile a pandas {type(df).__name__}; pass a DataFrame")
    names = [_name(c) for c in df.columns]
    rows = len(df)
    for offset in range(0, max(rows, 1), batch_rows):
        part = df.iloc[offset : offset + batch_rows]
        columns: list[tuple[Any, Any]] = []
        for name, (_, series) in zip(names, part.items(), strict=True):
            columns.append((name, _pandas_column(series)))
        yield "columns", (len(part), columns)


def _name(column: Any) -> Any:
    return column


_ARROW_SAFE_OBJECTS = frozenset(
    {
        "empty",
        "string",
        "bytes",
        "integer",
        "floating",
        "mixed-integer-float",
        "boolean",
        "decimal",
        "datetime",
        "date",
        "time",
    }
)
"""What ``pandas.api.types.infer_dtype`` may call an object column for it to go to Arrow."""


def _pandas_column(series: Any) -> Any:
    if series.dtype == object:
        from pandas.api.types import infer_dtype

        if infer_dtype(series, skipna=True) not in _ARROW_SAFE_OBJECTS:
            return series.tolist()  # nested or mixed values: never through from_pandas
    try:
        array = pa.array(series, from_pandas=True)
    except Exception:
        return series.tolist()
    if series.dtype == object and _has_struct(array.type):
        # Arrow would give every dict every key seen in the column (the missing ones null);
        # a JSON writer writes each dict as it is.
        return series.tolist()
    return array


def _has_struct(t: pa.DataType) -> bool:
    if pa.types.is_struct(t):
        return True
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        return _has_struct(t.value_type)
    return False


def polars_batches(df: Any, batch_rows: int) -> Iterator[tuple[str, Any]]:
    import polars as pl

    if isinstance(df, pl.LazyFrame):
        df = df.collect()
    if isinstance(df, pl.Series):
        df = df.to_frame()
    rows = df.height
    for offset in range(0, max(rows, 1), batch_rows):
        part = df.slice(offset, batch_rows)
        columns: list[tuple[str, Any]] = []
        for series in part.get_columns():
            if series.dtype == pl.Object:
                columns.append((series.name, series.to_list()))
            else:
                columns.append((series.name, series.to_arrow()))
        yield "columns", (part.height, columns)
