"""Profile files by streaming them: JSON lines, CSV and Parquet."""

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


def iter_file(path: str | Path) -> Any:
    """A streaming source for ``path``: a RecordBatchReader or a record generator."""
    p = Path(path)
    if not p.is_file():
        raise ProfilingInputError(f"{str(p)!r} is not a file; pass a .jsonl, .csv or .parquet path")
    suffix = p.suffix.lower()
    if suffix == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        pf = pq.ParquetFile(p)
        return pa.RecordBatchReader.from_batches(
            pf.schema_arrow, pf.iter_batches(batch_size=ARROW_BATCH_ROWS)
        )
    if suffix == ".csv":
        import pyarrow.csv as pcsv

        return pcsv.open_csv(p)
    if suffix in _JSONL:
        return _json_lines(p)
    raise ProfilingInputError(
        f"{str(p)!r}: unknown file type {suffix!r}; use .jsonl/.ndjson, .csv or .parquet"
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
    """Profile a JSON lines, CSV or Parquet file without loading it whole."""
    return profile(iter_file(path), config)
