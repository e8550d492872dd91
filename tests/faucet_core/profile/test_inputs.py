"""Every supported input gives the same profile for the same data, and streams are streamed."""

from __future__ import annotations

import base64
import datetime as dt
import random
from collections.abc import Callable, Iterator
from typing import Any

import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

from faucet_core import Profiler, ProfilingInputError, TableProfile, profile
from faucet_core.profile.profiler import ARROW_BATCH_ROWS, RECORD_BATCH_ROWS
from tests.faucet_core.profile.helpers import comparable, exact, without_quantiles


def _records() -> list[dict[str, Any]]:
    rng = random.Random(5)

    def maybe(value: Any) -> Any:
        return None if rng.random() < 0.15 else value

    start = dt.datetime(2024, 1, 1)
    return [
        {
            "id": maybe(i * 3),
            "amount": maybe(rng.randint(0, 400) / 4),
            "region": maybe(rng.choice(["eu", "us", "é", "😀"])),
            "flag": maybe(rng.random() < 0.3),
            "ts": maybe(start + dt.timedelta(seconds=rng.randint(0, 10**6), microseconds=500)),
            "day": maybe(start.date() + dt.timedelta(days=rng.randint(0, 30))),
            "tags": maybe(rng.sample(["a", "b", "c"], rng.randint(0, 2))),
            "meta": maybe({"k": rng.randint(0, 3), "v": rng.choice(["x", "y"])}),
        }
        for i in range(150)  # below the KLL's k: quantiles are exact whatever the batching
    ]


RECORDS = _records()
COLS = {name: [r[name] for r in RECORDS] for name in RECORDS[0]}


def _pandas(region_dtype: str) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "id": pd.array(COLS["id"], dtype="Int64"),
            "amount": pd.Series(COLS["amount"], dtype="float64"),  # None -> NaN -> null
            "region": pd.Series(COLS["region"], dtype=region_dtype),
            "flag": pd.array(COLS["flag"], dtype="boolean"),
            "ts": pd.Series(COLS["ts"], dtype="datetime64[us]"),
            "day": pd.Series(COLS["day"], dtype=object),
            "tags": pd.Series(COLS["tags"], dtype=object),
            "meta": pd.Series(COLS["meta"], dtype=object),
        }
    )


def _pandas_ns_with_missing_markers() -> pd.DataFrame:
    frame = _pandas("str")
    frame["ts"] = frame["ts"].astype("datetime64[ns]")  # NaT; same instants, other unit
    frame["region"] = pd.Series([pd.NA if v is None else v for v in COLS["region"]], dtype=object)
    return frame


def _table() -> pa.Table:
    return pa.Table.from_pylist(RECORDS)


INPUTS: dict[str, Callable[[], Any]] = {
    "list-of-dicts": lambda: RECORDS,
    "generator": lambda: (dict(r) for r in RECORDS),
    "tuple-of-dicts": lambda: tuple(RECORDS),
    "pandas-nullable": lambda: _pandas("str"),
    "pandas-categorical": lambda: _pandas("category"),
    "pandas-object": lambda: _pandas("object"),
    "pandas-ns-NA-NaT": _pandas_ns_with_missing_markers,
    "polars": lambda: pl.DataFrame(RECORDS),
    "polars-lazy": lambda: pl.DataFrame(RECORDS).lazy(),
    "polars-categorical": lambda: pl.DataFrame(RECORDS).with_columns(
        pl.col("region").cast(pl.Categorical)
    ),
    "arrow-table": _table,
    "arrow-table-chunked": lambda: pa.concat_tables([_table().slice(0, 70), _table().slice(70)]),
    "record-batch": lambda: _table().combine_chunks().to_batches()[0],
    "record-batch-reader": lambda: pa.RecordBatchReader.from_batches(
        _table().schema, _table().to_batches(max_chunksize=40)
    ),
    "iterable-of-record-batches": lambda: iter(_table().to_batches(max_chunksize=40)),
    "list-of-record-batches": lambda: _table().to_batches(max_chunksize=40),
}


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    return comparable(profile(RECORDS))


@pytest.mark.parametrize("make", list(INPUTS.values()), ids=list(INPUTS))
def test_every_input_type_gives_the_same_profile(
    make: Callable[[], Any], reference: dict[str, Any]
) -> None:
    prof = profile(make())
    assert prof.row_count == len(RECORDS)
    assert list(prof.columns) == list(RECORDS[0])
    assert comparable(prof) == reference


def _count(name: str) -> int:
    return sum(v is not None for v in COLS[name])


def test_the_reference_profile_is_what_the_records_hold(reference: dict[str, Any]) -> None:
    assert reference["ts"]["types"] == {"null": 150 - _count("ts"), "string": _count("ts")}
    assert reference["id"]["types"] == {"integer": _count("id"), "null": 150 - _count("id")}
    assert reference["amount"]["types"]["number"] == _count("amount")
    assert reference["meta"]["types"]["object"] == _count("meta")
    assert reference["tags"]["types"]["array"] == _count("tags")
    assert reference["flag"]["types"]["boolean"] == _count("flag")
    assert reference["region"]["top_values"][0]["value"] in {"eu", "us", "é", "😀"}
    assert reference["day"]["string"]["len_min"] == len("2024-01-01")
    assert reference["ts"]["string"]["len_max"] == len("2024-01-01T00:00:00.0005")


class _Counting:
    """A record source that remembers how many items were pulled from it."""

    def __init__(self, items: Iterator[Any]) -> None:
        self.items = items
        self.pulled = 0

    def __iter__(self) -> Iterator[Any]:
        for item in self.items:
            self.pulled += 1
            yield item


def test_a_generator_is_profiled_batch_by_batch() -> None:
    # A bad record in the second batch stops the run. Had the profiler drained the
    # generator first, all 50,000 records would have been pulled by then.
    bad_at = RECORD_BATCH_ROWS + 10
    source = _Counting(
        ({"n": i} if i != bad_at else "oops")
        for i in range(50_000)  # type: ignore[misc]
    )
    with pytest.raises(ProfilingInputError, match=f"record {bad_at} is a str"):
        profile(source)
    assert source.pulled == 2 * RECORD_BATCH_ROWS


def test_a_generator_of_50000_records_is_profiled_in_full() -> None:
    source = _Counting({"n": i, "s": f"v{i % 7}"} for i in range(50_000))
    prof = profile(source)
    assert source.pulled == 50_000
    assert prof.row_count == 50_000
    assert prof["n"].numeric is not None
    assert prof["n"].numeric.max == 49_999
    assert prof["s"].top_values is not None
    assert sum(t.count for t in prof["s"].top_values) == 50_000


def test_record_batches_are_pulled_one_at_a_time() -> None:
    batch = pa.record_batch({"n": list(range(10))})
    items: list[Any] = [batch, batch, batch, {"n": 1}, batch]
    source = _Counting(iter(items))
    with pytest.raises(
        ProfilingInputError,
        match=exact(
            "item 3 of the iterable is a dict but the first was a RecordBatch; pass Arrow "
            "batches only, or dict records only"
        ),
    ):
        profile(source)
    assert source.pulled == 4


def test_a_large_dataframe_is_profiled_in_slices() -> None:
    rows = ARROW_BATCH_ROWS * 2 + 123
    frame = pd.DataFrame({"n": range(rows), "s": [f"v{i % 5}" for i in range(rows)]})
    prof = profile(frame)
    assert without_quantiles(prof) == without_quantiles(profile(pa.Table.from_pandas(frame)))
    assert prof.row_count == rows
    assert prof["s"].top_values is not None
    assert [t.count for t in prof["s"].top_values] == [rows // 5 + (rows % 5 > i) for i in range(5)]


@pytest.mark.parametrize("split", [1, 7, 75, 149], ids=["first-row", "seven", "middle", "last-row"])
def test_feeding_a_profiler_in_parts_equals_one_pass(split: int) -> None:
    profiler = Profiler()
    profiler.add(RECORDS[:split])
    profiler.add(pa.Table.from_pylist(RECORDS[split:]))
    assert without_quantiles(profiler.finish()) == without_quantiles(profile(RECORDS))


def test_a_finished_profiler_refuses_more_data() -> None:
    profiler = Profiler()
    profiler.add(RECORDS[:3])
    profiler.finish()
    with pytest.raises(
        ProfilingInputError, match=exact("this Profiler has finished; start a new one")
    ):
        profiler.add(RECORDS[3:])


def test_a_pandas_series_is_one_column() -> None:
    prof = profile(pd.Series([1, 2, None], name="n", dtype="Int64"))
    assert list(prof.columns) == ["n"]
    assert prof["n"].types == {"integer": 2, "null": 1}


def test_missing_key_counts_as_null() -> None:
    prof = profile([{"a": 1, "b": "x"}, {"a": 2}, {"b": None}])
    assert (prof["a"].null_count, prof["b"].null_count) == (1, 2)
    assert prof["a"].types == {"integer": 2, "null": 1}
    assert prof["b"].types == {"null": 2, "string": 1}


def test_a_late_column_has_the_earlier_rows_as_nulls() -> None:
    records = [{"a": i} for i in range(RECORD_BATCH_ROWS + 5)] + [{"a": 0, "late": "x"}]
    prof = profile(iter(records))
    late = prof["late"]
    assert late.row_count == prof.row_count == len(records)
    assert late.null_count == len(records) - 1
    assert late.types == {"null": len(records) - 1, "string": 1}
    assert late.top_values is not None
    assert late.top_values[0].share == 1 / len(records)


def test_nested_values_are_one_column_of_canonical_json() -> None:
    prof = profile(
        [
            {"o": {"b": 1, "a": {"y": [1, 2], "x": "é"}}, "l": [3, {"z": 1, "a": None}]},
            {"o": {"a": {"x": "é", "y": [1, 2]}, "b": 1}, "l": []},
            {"o": None, "l": (1, 2)},
        ]
    )
    assert list(prof.columns) == ["o", "l"]
    assert prof["o"].types == {"null": 1, "object": 2}
    assert prof["l"].types == {"array": 3}
    assert prof["o"].distinct == 1  # key order does not matter
    assert prof["o"].top_values is not None
    assert prof["o"].top_values[0].value == {"a": {"x": "é", "y": [1, 2]}, "b": 1}
    assert prof["o"].top_values[0].count == 2
    assert prof["o"].string is None
    raw = [t.value for t in prof["l"].top_values or ()]
    assert raw == [[1, 2], [3, {"a": None, "z": 1}], []]
    sketch = prof["o"].sketches["freq"]
    assert isinstance(sketch, str)
    assert b'{"a":{"x":"\xc3\xa9","y":[1,2]},"b":1}' in base64.b64decode(sketch)


def test_profile_has_no_columns_for_an_empty_iterable() -> None:
    prof = profile([])
    assert (prof.row_count, dict(prof.columns)) == (0, {})
    assert isinstance(profile(iter(())), TableProfile)


def test_pandas_object_columns_match_the_records() -> None:
    values = {
        "mixed": [1, "x", 2.5, None, True, "x"],
        "dicts": [{"a": 1}, {"b": 2}, None, {"a": 1, "c": [1]}, {}, {"b": 2}],
        "lists": [[1], None, ["a", 2], [], [1], [None]],
    }
    frame = pd.DataFrame({name: pd.Series(v, dtype=object) for name, v in values.items()})
    records = [dict(zip(values, row, strict=True)) for row in zip(*values.values(), strict=True)]
    assert comparable(profile(frame)) == comparable(profile(records))
    dicts = profile(frame)["dicts"].top_values
    assert dicts is not None
    assert dicts[0].value == {"b": 2}  # each dict as written, no keys of the other rows


def test_an_empty_record_batch_in_an_iterable_declares_its_columns() -> None:
    empty = pa.record_batch({"a": pa.array([], pa.int64())})
    prof = profile([empty])
    assert (prof.row_count, list(prof.columns)) == (0, ["a"])
    later = profile(iter([empty, pa.record_batch({"a": [1, None]})]))
    assert later["a"].types == {"integer": 1, "null": 1}
