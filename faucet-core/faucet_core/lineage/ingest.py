"""Ingesting OpenLineage events: files, folders, standard input, request bodies.

A source holds JSON lines, a JSON array of events, or JSON values one after another
(pretty-printed events). Every event is validated before anything is written; if one is
malformed, :class:`EventsRejected` lists each bad event's index and reason, and the
catalog is left exactly as it was.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from faucet_core.catalog import Catalog, RecordSummary, RunRecord
from faucet_core.errors import LineageError
from faucet_core.lineage.parse import MalformedEvent, parse_event

__all__ = [
    "EVENT_FILE_SUFFIXES",
    "EventsRejected",
    "IngestResult",
    "Rejection",
    "ingest",
    "ingest_text",
    "parse_text",
]

EVENT_FILE_SUFFIXES = (".json", ".jsonl", ".ndjson")
MAX_LISTED = 20
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class Rejection:
    """One malformed event: its 0-based index in its source, where it is, and why."""

    index: int
    reason: str
    source: str = ""
    line: int | None = None

    def __str__(self) -> str:
        where = []
        if self.source:
            where.append(self.source)
        if self.line is not None:
            where.append(f"line {self.line}")
        suffix = f" ({' '.join(where)})" if where else ""
        return f"event {self.index}{suffix}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"index": self.index, "reason": self.reason}
        if self.source:
            out["source"] = self.source
        if self.line is not None:
            out["line"] = self.line
        return out


class EventsRejected(LineageError):
    """At least one event is malformed: nothing was written."""

    def __init__(self, rejections: Sequence[Rejection], total: int) -> None:
        self.rejections = tuple(rejections)
        self.total = total
        listed = [f"  {r}" for r in self.rejections[:MAX_LISTED]]
        if len(self.rejections) > MAX_LISTED:
            listed.append(f"  ... and {len(self.rejections) - MAX_LISTED} more")
        super().__init__(
            f"rejected {len(self.rejections)} of {total} event(s); nothing was written:\n"
            + "\n".join(listed)
        )


@dataclass(frozen=True)
class IngestResult:
    """What an ingest wrote."""

    sources: tuple[str, ...]
    summary: RecordSummary

    def to_dict(self) -> dict[str, Any]:
        return {"sources": list(self.sources), **self.summary.to_dict()}


def _values(text: str) -> Iterator[tuple[int, Any, str | None]]:
    """(line, value, error) for each JSON value in ``text``; an undecodable stretch yields an
    error and decoding resumes on the next line."""
    pos, end = 0, len(text)
    line, counted = 1, 0
    while True:
        while pos < end and text[pos] in " \t\r\n\ufeff":
            pos += 1
        if pos >= end:
            return
        line += text.count("\n", counted, pos)
        counted = pos
        try:
            value, pos = _DECODER.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            yield line, None, f"invalid JSON: {exc.msg} (line {exc.lineno} column {exc.colno})"
            nxt = text.find("\n", max(exc.pos, pos))
            pos = end if nxt < 0 else nxt + 1
            continue
        except (RecursionError, ValueError) as exc:  # nested too deep, an over-long integer
            reason = "nested too deep" if isinstance(exc, RecursionError) else "a number too long"
            yield line, None, f"invalid JSON: {reason}"
            nxt = text.find("\n", pos)
            pos = end if nxt < 0 else nxt + 1
            continue
        yield line, value, None


def parse_text(text: str, source: str = "") -> tuple[list[RunRecord], list[Rejection], int]:
    """Records, rejections and the number of events in one source's text. A top-level
    array's elements are events (their index counts on across the source)."""
    records: list[RunRecord] = []
    rejected: list[Rejection] = []
    index = 0
    for line, value, error in _values(text):
        if error is not None:
            rejected.append(Rejection(index, error, source, line))
            index += 1
            continue
        for item in value if isinstance(value, list) else [value]:
            try:
                records.append(parse_event(item))
            except MalformedEvent as exc:
                rejected.append(Rejection(index, str(exc), source, line))
            index += 1
    return records, rejected, index


def _files(path: Path) -> list[Path]:
    if path.is_dir():
        found = sorted(
            p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in EVENT_FILE_SUFFIXES
        )
        if not found:
            raise LineageError(
                f"{path} holds no event files ({', '.join(EVENT_FILE_SUFFIXES)}): point at a "
                "file, a folder of them, or - for standard input"
            )
        return found
    if not path.exists():
        raise LineageError(f"{path}: no such file or folder")
    return [path]


def _read(source: str) -> list[tuple[str, str]]:
    if source == "-":
        return [("<stdin>", sys.stdin.read())]
    out = []
    for file in _files(Path(source)):
        try:
            out.append((str(file), file.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError) as exc:
            raise LineageError(f"cannot read {file}: {exc}") from None
    return out


def ingest_text(catalog: Catalog, text: str, source: str = "") -> IngestResult:
    """Validate every event of ``text``, then record them all in one transaction."""
    records, rejected, total = parse_text(text, source)
    if rejected:
        raise EventsRejected(rejected, total)
    return IngestResult((source,), catalog.record(records))


def ingest(catalog: Catalog, sources: Iterable[str | Path]) -> IngestResult:
    """Ingest files, folders (every ``.json``, ``.jsonl``, ``.ndjson`` inside, sorted) and
    ``-`` (standard input): all or nothing."""
    records: list[RunRecord] = []
    rejected: list[Rejection] = []
    total = 0
    names = []
    for source in sources:
        for name, text in _read(str(source)):
            names.append(name)
            found, bad, count = parse_text(text, name)
            records.extend(found)
            rejected.extend(bad)
            total += count
    if rejected:
        raise EventsRejected(rejected, total)
    return IngestResult(tuple(names), catalog.record(records))
