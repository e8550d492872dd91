"""The planned schema of a sample: what the asset would now write, read from its output.

Two rules, and the report says which applied (:class:`SampleRule`):

* a **typed** sample (Parquet, Arrow IPC, CSV with a header) states its columns: a current
  column absent from it is removed. Parquet and Arrow also state each column's type
  (``int32``, ``timestamp``); a CSV's types are what its values show.
* **untyped** JSON lines (and records) only show keys with a value: a current column with
  no value is removed only when the asset declares it dropped.

Every sample is also profiled, so the delta can compare like with like: the values' JSON
type (what a profile check records in the catalog) and numeric range, per column.

Reading a sample never lets a raw error out: a malformed file (a ragged CSV, bytes that
are not Parquet), found when opening or while streaming its batches, is one
:class:`ImpactError` line naming the file and the fix.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from faucet_core.catalog.model import SchemaField
from faucet_core.errors import FaucetError, ImpactError
from faucet_core.impact.planned import Observed, PlannedSchema
from faucet_core.impact.report import PlannedFrom, SampleRule
from faucet_core.text import clip

__all__ = ["from_sample", "from_sample_file"]

_TYPED_SUFFIXES = {".parquet", ".arrow", ".arrows", ".ipc", ".feather"}
_FIX = "pass JSON lines, a CSV with a header, Parquet or Arrow IPC of what the asset would write"


def _json_type(types: Mapping[str, int]) -> str:
    seen = [t for t, n in types.items() if n and t != "null"]
    return "|".join(sorted(seen) + (["null"] if types.get("null") else []))


def _stated(arrow_type: Any) -> str | None:
    """An Arrow type as a type of the lattice (``faucet_core/impact/types.py``)."""
    import pyarrow as pa

    t = pa.types
    if t.is_dictionary(arrow_type):
        return _stated(arrow_type.value_type)
    if t.is_integer(arrow_type):
        return str(arrow_type)  # int8 .. uint64
    if t.is_floating(arrow_type):
        return f"float{arrow_type.bit_width}"
    if t.is_decimal(arrow_type):
        return "decimal"
    if t.is_boolean(arrow_type):
        return "boolean"
    if t.is_string(arrow_type) or t.is_large_string(arrow_type):
        return "string"
    if t.is_date(arrow_type):
        return "date"
    if t.is_timestamp(arrow_type):
        return "timestamp"
    if t.is_list(arrow_type) or t.is_large_list(arrow_type) or t.is_fixed_size_list(arrow_type):
        return "array"
    if t.is_struct(arrow_type) or t.is_map(arrow_type):
        return "object"
    if t.is_null(arrow_type):
        return None  # no value, no stated type: not judged
    return str(arrow_type)


def _one_line(text: object, limit: int = 400) -> str:
    """``text`` on one line; a reader's own long message is cut at ``limit`` characters."""
    line = " ".join(str(text).split())
    return clip(line, limit, "…")


def _unreadable(exc: Exception) -> bool:
    """An error reading the file's bytes (as opposed to a bug of ours)."""
    import pyarrow as pa

    return isinstance(exc, (pa.ArrowException, OSError, ValueError))


def _ours(exc: FaucetError, path: str) -> ImpactError:
    """Our own error about the file, on one line (its message names the file already, or
    gets it named)."""
    said = _one_line(exc)
    return ImpactError(said if path in said else f"sample {path}: {said}")


def _batches(reader: Any, where: str, path: str) -> Iterator[Any]:
    try:
        yield from reader
    except FaucetError as exc:
        raise _ours(exc, path) from None
    except Exception as exc:
        if not _unreadable(exc):
            raise
        raise ImpactError(f"{where}: not readable ({_one_line(exc)}); {_FIX}") from None


def _guarded(reader: Any, where: str, path: str) -> Any:
    """``reader`` whose batches turn read errors (raised while streaming) into one
    :class:`ImpactError` line."""
    import pyarrow as pa

    return pa.RecordBatchReader.from_batches(reader.schema, _batches(reader, where, path))


def _profile(data: Any) -> Any:
    from faucet_core.profile import profile

    return profile(data)


def from_sample(data: Any) -> PlannedSchema:
    """The planned schema of a sample: records or a DataFrame (read untyped: only keys with
    a value show), or a pyarrow Table/RecordBatchReader (typed: its schema states the
    columns and their types)."""
    import pyarrow as pa

    if isinstance(data, pa.Table):
        data = data.to_reader()
    if isinstance(data, pa.RecordBatchReader):
        return _typed(data, stated=True)
    prof = _profile(data)
    observed = {name: _observed(col) for name, col in prof.columns.items()}
    fields = tuple(SchemaField(name, o.json_type) for name, o in observed.items())
    return PlannedSchema(PlannedFrom.SAMPLE, fields, _skipped(prof), SampleRule.UNTYPED, observed)


def _observed(col: Any) -> Observed:
    numeric = col.numeric
    if numeric is None or not numeric.count:
        return Observed(_json_type(col.types))
    return Observed(_json_type(col.types), float(numeric.min), float(numeric.max))


def _skipped(prof: Any) -> tuple[str, ...]:
    if not prof.skipped_columns:
        return ()
    return (f"the sample has {prof.skipped_columns} column(s) past max_columns, not planned",)


def _typed(reader: Any, *, stated: bool) -> PlannedSchema:
    """Columns from the reader's schema; types stated by it (``stated``) or, for a CSV whose
    types are only inferred, what the values show."""
    schema = reader.schema
    prof = _profile(reader)
    observed = {name: _observed(col) for name, col in prof.columns.items()}
    fields = []
    for arrow_field in schema:
        name = arrow_field.name
        seen = observed.get(name, Observed())
        nulls = bool(seen.json_type and "null" in seen.json_type.split("|"))
        if stated:
            base = _stated(arrow_field.type)
            type_ = f"{base}|null" if base and nulls else base
        else:
            type_ = seen.json_type if seen.json_type and seen.json_type != "null" else None
            seen = replace(seen, inferred=_stated(arrow_field.type))
            observed[name] = seen
        fields.append(SchemaField(name, type_))
    return PlannedSchema(
        PlannedFrom.SAMPLE, tuple(fields), _skipped(prof), SampleRule.TYPED, observed
    )


def from_sample_file(path: str | Path) -> PlannedSchema:
    """The planned schema of a sample file (``.jsonl``/``.ndjson``/``.json``, ``.csv`` with a
    header, ``.parquet``, ``.arrow``/``.feather``/``.arrows``); a file that cannot be read
    is one :class:`ImpactError` line."""
    from faucet_core.profile.files import iter_file

    where = f"sample {path}"
    try:
        source = iter_file(path)
        if hasattr(source, "schema"):
            stated = Path(path).suffix.lower() in _TYPED_SUFFIXES
            return _typed(_guarded(source, where, str(path)), stated=stated)
        return from_sample(source)
    except ImpactError:
        raise
    except FaucetError as exc:
        raise _ours(exc, str(path)) from None
    except Exception as exc:
        if not _unreadable(exc):
            raise
        raise ImpactError(f"{where}: not readable ({_one_line(exc)}); {_FIX}") from None
