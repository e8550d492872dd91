"""Profile files by streaming them: JSON lines, CSV, Parquet and Arrow IPC."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from faucet_core.config import ProfilingConfig
from faucet_core.errors import ProfilingInputError
from faucet_core.profile.profiler import ARROW_BATCH_ROWS, profile
from faucet_core.profile.table import TableProfile

__all__ = ["iter_file", "profile_file"]

_JSONL = {".jsonl", ".ndjson", ".json"}
_ARROW_IPC = {".arrow", ".arrows", ".ipc", ".feather"}
_IPC_FILE_MAGIC = b"ARROW1"


def _is_ipc_file(path: Path) -> bool:
    """True for the Arrow IPC file format (Feather v2), False for the stream format."""
    with path.open("rb") as fh:
        return fh.read(len(_IPC_FILE_MAGIC)) == _IPC_FILE_MAGIC


def iter_file(path: str | Path) -> Any:
    """A streaming source for ``path``: a RecordBatchReader or a record generator."""
    p = Path(path)
    if not p.is_file():
        raise ProfilingInputError(
            f"{str(p)!r} is not a file; pass a .jsonl, .csv, .parquet or .arrow path"
        )
    suffix = p.suffix.lower()
    if suffix == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        pf = pq.ParquetFile(p)
        return pa.RecordBatchReader.from_batches(
            pf.schema_arrow, pf.iter_batches(batch_size=ARROW_BATCH_ROWS)
        )
    if suffix in _ARROW_IPC:
        import pyarrow as pa

        if not _is_ipc_file(p):
            return pa.ipc.open_stream(p)
        ipc = pa.ipc.open_file(p)
        batches = (ipc.get_batch(i) for i in range(ipc.num_record_batches))
        return pa.RecordBatchReader.from_batches(ipc.schema, batches)
    if suffix == ".csv":
        import pyarrow.csv as pcsv

        return pcsv.open_csv(p)
    if suffix in _JSONL:
        return _json_lines(p)
    raise ProfilingInputError(
        f"{str(p)!r}: unknown file type {suffix!r}; "
        "use .jsonl/.ndjson, .csv, .parquet or .arrow/.feather (Arrow IPC)"
    )


def _json_lines(path: Path) -> Iterator[Any]:
    with path.open("r", encoding="utf-8") as fh:
        first = fh.read(1)
        fh.seek(0)
        if first == "[":  # a JSON array of records
            yield from json.load(fh)
            return
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except ValueError as exc:
                raise ProfilingInputError(
                    f"{path}:{number}: not a JSON record ({exc}); each line must hold one object"
                ) from None


def profile_file(path: str | Path, config: ProfilingConfig | None = None) -> TableProfile:
    """Profile a JSON lines, CSV, Parquet or Arrow IPC file without loading it whole."""
    return profile(iter_file(path), config)
