"""Profile files by streaming them: JSON lines, CSV, Parquet and Arrow IPC.

Every problem with a file's content is a :class:`ProfilingInputError` whose one-line
message starts with the file (and the line, where the format has lines) and says what
is wrong, also when it turns up late in the stream: the readers are wrapped so that no
pyarrow, ``json`` or codec exception escapes while the batches are consumed.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from faucet_core.config import ProfilingConfig
from faucet_core.errors import ProfilingInputError, message_line
from faucet_core.profile.dispatch import profile
from faucet_core.profile.profiler import ARROW_BATCH_ROWS
from faucet_core.profile.table import TableProfile
from faucet_core.text import clip

__all__ = ["iter_file", "profile_file"]

_JSONL = {".jsonl", ".ndjson", ".json"}
_ARROW_IPC = {".arrow", ".arrows", ".ipc", ".feather"}
_IPC_FILE_MAGIC = b"ARROW1"
_UTF8_BOM = b"\xef\xbb\xbf"


class _CsvTypeChange(ProfilingInputError):
    """A CSV value late in the file does not fit the type Arrow inferred for its column."""

    def __init__(self, message: str, column: str) -> None:
        super().__init__(message)
        self.column = column


def _first_line(exc: BaseException) -> str:
    """The first line of a reader's message, printable and at most 200 characters."""
    text = "".join(c if c.isprintable() else "?" for c in message_line(exc))
    return clip(text.strip() or type(exc).__name__, 200)


def _is_ipc_file(path: Path) -> bool:
    """True for the Arrow IPC file format (Feather v2), False for the stream format."""
    with path.open("rb") as fh:
        return fh.read(len(_IPC_FILE_MAGIC)) == _IPC_FILE_MAGIC


def iter_file(path: str | Path, *, csv_text_columns: frozenset[str] = frozenset()) -> Any:
    """A streaming source for ``path``: a RecordBatchReader or a record generator.

    ``csv_text_columns``: CSV columns to read as text rather than the inferred type."""
    p = Path(path)
    if not p.is_file():
        raise ProfilingInputError(
            f"{str(p)!r} is not a file; pass a .jsonl, .csv, .parquet or .arrow path"
        )
    suffix = p.suffix.lower()
    if suffix not in _JSONL | _ARROW_IPC | {".parquet", ".csv"}:
        raise ProfilingInputError(
            f"{str(p)!r}: unknown file type {suffix!r}; "
            "use .jsonl/.ndjson, .csv, .parquet or .arrow/.feather (Arrow IPC)"
        )
    try:
        if p.stat().st_size == 0 and suffix not in _JSONL:
            raise ProfilingInputError(f"{p}: the file is empty; {_EMPTY_HINT[suffix]}")
        if suffix == ".parquet":
            return _parquet(p)
        if suffix in _ARROW_IPC:
            return _arrow_ipc(p)
        if suffix == ".csv":
            return _csv(p, csv_text_columns)
    except OSError as exc:
        raise ProfilingInputError(f"{p}: cannot read the file ({exc.strerror or exc})") from None
    return _json_records(p)


_EMPTY_HINT = {
    ".csv": "a CSV file needs at least a header line naming its columns",
    ".parquet": "a Parquet file holds at least its footer, even with no rows",
    **dict.fromkeys(_ARROW_IPC, "an Arrow IPC file or stream holds at least its schema"),
}


def _guarded(p: Path, batches: Iterator[Any], what: str) -> Iterator[Any]:
    """``batches``, with any reader error turned into a ProfilingInputError."""
    import pyarrow as pa

    rows = 0
    while True:
        try:
            batch = next(batches)
        except StopIteration:
            return
        except (pa.ArrowException, OSError, ValueError) as exc:
            raise ProfilingInputError(
                f"{p}: unreadable {what} after row {rows:,} ({_first_line(exc)}); "
                "the file is damaged or truncated"
            ) from None
        rows += batch.num_rows
        yield batch


def _parquet(p: Path) -> Any:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        # No pre-buffering (it reads a whole row group's column chunks, and with the
        # default read-ahead most of the file, before the first batch), and column
        # chunks streamed in pieces: peak memory stays bounded by the batch, not the file.
        pf = pq.ParquetFile(p, pre_buffer=False, buffer_size=_PARQUET_READ_BUFFER)
        schema = pf.schema_arrow
    except (pa.ArrowException, ValueError) as exc:
        raise ProfilingInputError(
            f"{p}: not a readable Parquet file ({_first_line(exc)}); check that it is "
            "Parquet and complete, or give it the extension of its real format"
        ) from None
    batches = _guarded(p, _parquet_batches(pf), "Parquet data")
    return pa.RecordBatchReader.from_batches(schema, batches)


_PARQUET_READ_BUFFER = 1 << 20
"""Bytes read from the file at a time per column chunk (0 would read each chunk whole)."""


def _parquet_batches(pf: Any) -> Iterator[Any]:
    """The file's batches, one row group at a time: the reader holds only the row group
    it is decoding (one reader over the whole file reads ahead across row groups)."""
    for group in range(pf.metadata.num_row_groups):
        yield from pf.iter_batches(
            batch_size=ARROW_BATCH_ROWS, row_groups=[group], use_threads=False
        )


def _arrow_ipc(p: Path) -> Any:
    import pyarrow as pa

    try:
        if not _is_ipc_file(p):
            stream = pa.ipc.open_stream(p)
            return pa.RecordBatchReader.from_batches(
                stream.schema, _guarded(p, iter(stream), "Arrow IPC data")
            )
        ipc = pa.ipc.open_file(p)
    except (pa.ArrowException, ValueError) as exc:
        raise ProfilingInputError(
            f"{p}: not a readable Arrow IPC file or stream ({_first_line(exc)}); check that "
            "it is Arrow IPC (Feather v2) and complete, or give it the extension of its real "
            "format"
        ) from None
    batches = (ipc.get_batch(i) for i in range(ipc.num_record_batches))
    return pa.RecordBatchReader.from_batches(ipc.schema, _guarded(p, batches, "Arrow IPC data"))


# -- CSV ------------------------------------------------------------------------------------
_CONVERSION = re.compile(
    r"In CSV column #(\d+): .*CSV conversion error to (\S+?): invalid value '(.*)'"
)


def _csv(p: Path, text_columns: frozenset[str]) -> Any:
    import pyarrow as pa
    import pyarrow.csv as pcsv

    convert = pcsv.ConvertOptions(column_types=dict.fromkeys(text_columns, pa.string()))
    try:
        reader = pcsv.open_csv(p, convert_options=convert)
    except (pa.ArrowException, ValueError) as exc:
        raise _csv_error(p, exc, 0) from None
    return pa.RecordBatchReader.from_batches(reader.schema, _csv_batches(p, reader))


def _csv_batches(p: Path, reader: Any) -> Iterator[Any]:
    import pyarrow as pa

    rows = 0
    while True:
        try:
            batch = reader.read_next_batch()
        except StopIteration:
            return
        except (pa.ArrowException, ValueError) as exc:
            raise _csv_error(p, exc, rows, reader.schema.names) from None
        rows += batch.num_rows
        yield batch


def _csv_error(
    p: Path, exc: BaseException, rows: int, names: list[str] | None = None
) -> ProfilingInputError:
    """Our error for a CSV reader error: the file, the line (found by re-reading the file
    with Python's csv module, only on this error path) and the problem."""
    message = _first_line(exc)
    if "Empty CSV file" in message:
        return ProfilingInputError(f"{p}: the file is empty; {_EMPTY_HINT['.csv']}")
    ragged = re.search(r"Expected (\d+) columns, got (\d+)", message)
    if ragged:
        expected, got = int(ragged.group(1)), int(ragged.group(2))
        line = _csv_line(p, lambda row: len(row) == got and len(row) != expected)
        return ProfilingInputError(
            f"{p}:{line or '?'}: {got} field(s) where the header has {expected}; every "
            "line of a CSV file needs one field per header column (quote a field that holds "
            "a comma)"
        )
    conversion = _CONVERSION.search(message)
    if conversion and names is not None:
        index, arrow_type, value = (
            int(conversion.group(1)),
            conversion.group(2),
            conversion.group(3),
        )
        name = names[index] if index < len(names) else f"#{index}"
        line = _csv_line(p, lambda row: len(row) > index and row[index] == value)
        return _CsvTypeChange(
            f"{p}:{line or '?'}: column {name!r} holds {value!r}, but its values before "
            f"were read as {arrow_type} (CSV types are inferred from the first rows); "
            "profile_file reads such a column as text",
            name,
        )
    return ProfilingInputError(
        f"{p}: unreadable CSV after row {rows:,} ({message}); check the file's format"
    )


def _csv_line(p: Path, bad: Any) -> int | None:
    """The number of the first line (after the header) whose fields make ``bad`` true."""
    try:
        with p.open("r", encoding="utf-8", errors="replace", newline="") as fh:
            reader = csv.reader(fh)
            next(reader, None)
            for row in reader:
                if bad(row):
                    return reader.line_num
    except (OSError, csv.Error):
        return None
    return None


# -- JSON -----------------------------------------------------------------------------------
def _json_records(path: Path) -> Iterator[Any]:
    try:
        with path.open("rb") as fh:
            head = fh.read(64).removeprefix(_UTF8_BOM).lstrip()
    except OSError as exc:
        raise ProfilingInputError(f"{path}: cannot read the file ({exc.strerror or exc})") from None
    if head.startswith(b"["):
        return _json_array(path)
    return _json_lines(path)


def _json_lines(path: Path) -> Iterator[Any]:
    with path.open("rb") as fh:
        for number, raw in enumerate(fh, start=1):
            if number == 1:
                raw = raw.removeprefix(_UTF8_BOM)
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ProfilingInputError(
                    f"{path}:{number}: not UTF-8 text (byte 0x{raw[exc.start]:02x} at column "
                    f"{exc.start + 1}); JSON lines must be UTF-8: re-encode the file"
                ) from None
            if not line.strip():
                continue
            record = _parse(line, f"{path}:{number}")
            if not isinstance(record, dict):
                raise ProfilingInputError(
                    f"{path}:{number}: a JSON {_json_kind(record)} where a record was expected; "
                    "each line must hold one JSON object"
                )
            yield record


def _json_array(path: Path) -> Iterator[Any]:
    """A JSON array of records (read whole: the format has no record boundaries)."""
    data = path.read_bytes().removeprefix(_UTF8_BOM)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ProfilingInputError(
            f"{path}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02x}); a JSON file must "
            "be UTF-8: re-encode the file"
        ) from None
    records = _parse(text, str(path), whole=True)
    if not isinstance(records, list):  # pragma: no cover - sniffed as an array
        raise ProfilingInputError(f"{path}: expected a JSON array of records")
    for index, record in enumerate(records):
        if not isinstance(record, dict):
            raise ProfilingInputError(
                f"{path}: item {index} of the array is a JSON {_json_kind(record)}; a JSON "
                "file must hold an array of objects (one per record) or one object per line"
            )
        yield record


def _parse(text: str, where: str, *, whole: bool = False) -> Any:
    """``text`` parsed; an error names ``where`` and the line:column (``whole``: of the file,
    else the column of the line ``where`` names)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        at = f":{exc.lineno}:{exc.colno}" if whole else f":{exc.colno}"
        raise ProfilingInputError(
            f"{where}{at}: not valid JSON ({exc.msg}); each line must hold one JSON object, "
            "or the file one JSON array of objects"
        ) from None
    except RecursionError:
        raise ProfilingInputError(
            f"{where}: JSON nested too deeply to read (Python's JSON reader stops at about "
            "1,000 levels); flatten the data"
        ) from None


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return "null" if value is None else type(value).__name__


def profile_file(path: str | Path, config: ProfilingConfig | None = None) -> TableProfile:
    """Profile a JSON lines, CSV, Parquet or Arrow IPC file without loading it whole.

    A CSV column whose later values do not fit the type inferred from its first rows is
    read again as text (the file is re-read from the start, once per such column)."""
    text_columns: frozenset[str] = frozenset()
    while True:
        try:
            return profile(iter_file(path, csv_text_columns=text_columns), config)
        except _CsvTypeChange as exc:
            if exc.column in text_columns:
                raise
            text_columns = text_columns | {exc.column}
