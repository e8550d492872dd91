"""Files that ``faucet profile`` and ``profile_file`` must refuse with one line of ours.

Each is written into a directory under a fixed name, so that the expected messages
(``fixtures/file_errors.txt``) can name them relative to it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

__all__ = ["BAD_FILES", "LATE_LINE", "expected_errors", "write_bad_file"]

FIXTURES = Path(__file__).resolve().parent / "fixtures"
LATE_LINE = 1_000_000
"""The bad record of the ``late-*`` files is on this line (after this many good ones - 1)."""


def _write(data: bytes) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        path.write_bytes(data)

    return write


def _late_csv(bad: bytes) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        good = b"".join(b"%d,x\n" % i for i in range(LATE_LINE - 2))
        path.write_bytes(b"a,b\n" + good + bad)

    return write


def _late_jsonl(bad: bytes) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        good = b"".join(b'{"a": %d}\n' % i for i in range(LATE_LINE - 1))
        path.write_bytes(good + bad)

    return write


def _table() -> pa.Table:
    return pa.table({"a": list(range(200_000)), "s": [f"v{i}" for i in range(200_000)]})


def _corrupt_parquet(path: Path) -> None:
    """Two row groups, the second's first data page overwritten: readable until there."""
    pq.write_table(_table(), path, row_group_size=100_000, compression="snappy")
    data = bytearray(path.read_bytes())
    offset = pq.ParquetFile(path).metadata.row_group(1).column(0).data_page_offset
    data[offset + 40 : offset + 2000] = b"\x13" * 1960
    path.write_bytes(bytes(data))


def _truncated_stream(path: Path) -> None:
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, _table().schema) as writer:
        for batch in _table().to_batches(50_000):
            writer.write_batch(batch)
    data = sink.getvalue().to_pybytes()
    path.write_bytes(data[: len(data) * 3 // 4])


def _deep_json(path: Path) -> None:
    path.write_text("[" * 100_000 + "]" * 100_000)


def _deep_jsonl(path: Path) -> None:
    path.write_text(json.dumps({"ok": 1}) + "\n" + '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}\n")


BAD_FILES: dict[str, Callable[[Path], None]] = {
    "empty.csv": _write(b""),
    "ragged.csv": _write(b"a,b\n1,2\n3,4,5\n"),
    "bad.jsonl": _write(b'{"a": "\xff"}\n'),
    "broken.json": _write(b'[{"a": 1},\n {"a": '),
    "broken.jsonl": _write(b'{"a": 1}\n{"a": }\n'),
    "scalar.jsonl": _write(b'{"a": 1}\n[1, 2]\n'),
    "scalars.json": _write(b'[{"a": 1}, 2]'),
    "latin1.json": _write(b'[{"a": 1},\n {"a": "\xe9"}]'),
    "deep.json": _deep_json,
    "deep.jsonl": _deep_jsonl,
    "not.parquet": _write(b"hello, I am not a Parquet file"),
    "empty.parquet": _write(b""),
    "not.arrow": _write(b"hello, I am not Arrow IPC at all"),
    "empty.feather": _write(b""),
    "corrupt.parquet": _corrupt_parquet,
    "truncated.arrows": _truncated_stream,
    "late-ragged.csv": _late_csv(b"1,2,3\n"),
    "late-bytes.jsonl": _late_jsonl(b'{"a": "\xff\xfe"}\n'),
    "late-broken.jsonl": _late_jsonl(b'{"a": 1,}\n'),
    "notes.txt": _write(b"a,b\n"),
}
"""File name -> writer. The ``late-*`` files are large: write them only where needed."""


def write_bad_file(directory: Path, name: str) -> Path:
    path = directory / name
    BAD_FILES[name](path)
    return path


def expected_errors() -> dict[str, str]:
    """File name -> the exact error message, from ``fixtures/file_errors.txt``."""
    out: dict[str, str] = {}
    name = None
    for line in (FIXTURES / "file_errors.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            name = line[3:]
        elif line.strip() and name is not None:
            out[name] = line
            name = None
    return out
