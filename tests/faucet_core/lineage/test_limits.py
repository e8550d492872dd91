"""What the receiver and ``faucet lineage ingest`` refuse before the store sees it: events
whose names do not fit the store's columns, NUL and lone surrogates, gzip bombs."""

from __future__ import annotations

import gzip
import json
import resource
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from faucet_core.catalog import Catalog
from faucet_core.db.schema import catalog_datasets, catalog_runs
from faucet_core.lineage import EventsRejected, ingest, parse_event
from faucet_core.lineage.parse import LIMITS, MalformedEvent
from faucet_core.lineage.receiver import (
    MAX_BODY_BYTES,
    BodyTooLarge,
    GzipInflater,
    create_receiver_app,
)
from tests.faucet_core.lineage.helpers import complete_event
from tests.faucet_core.lineage.server import serving


def test_the_limits_are_the_store_column_sizes() -> None:
    assert {
        "job.namespace": catalog_runs.c.job_namespace.type.length,
        "job.name": catalog_runs.c.job_name.type.length,
        "run.runId": catalog_runs.c.run_id.type.length,
        "namespace": catalog_datasets.c.namespace.type.length,
        "name": catalog_datasets.c.name.type.length,
        "uri": catalog_datasets.c.uri.type.length,
    } == LIMITS
    assert (LIMITS["job.name"], LIMITS["run.runId"], LIMITS["uri"]) == (512, 256, 2048)


def _with(path: str, value: Any) -> dict[str, Any]:
    event = complete_event()
    *parents, last = path.split(".")
    node: Any = event
    for part in parents:
        node = node[int(part)] if part.isdigit() else node[part]
    node[last] = value
    return event


@pytest.mark.parametrize(
    ("path", "value", "reason"),
    [
        ("job.name", "j" * 513, "job.name is 513 characters; the limit is 512"),
        ("job.namespace", "n" * 513, "job.namespace is 513 characters; the limit is 512"),
        ("run.runId", "r" * 257, "run.runId is 257 characters; the limit is 256"),
        ("outputs.0.name", "x" * 1025, "outputs[0].name is 1025 characters; the limit is 1024"),
        (
            "outputs.0.name",
            "x" * 1024,
            "outputs[0]: the dataset URI is 1049 characters; the limit is 2048: shorten the "
            "namespace or the name",
        ),
        ("job.name", "a\0b", "job.name holds a NUL character (\\u0000): remove it"),
        (
            "inputs.0.name",
            "a\udc00",
            "inputs[0].name holds a lone surrogate (\\ud800-\\udfff), which is not text: "
            "send valid UTF-8",
        ),
        ("producer", "p\0", "producer holds a NUL character (\\u0000): remove it"),
    ],
    ids=[
        "job-name",
        "job-namespace",
        "run-id",
        "dataset-name",
        "uri-fits",
        "nul",
        "surrogate",
        "nul-optional",
    ],
)
def test_names_that_no_store_can_hold_are_malformed(path: str, value: str, reason: str) -> None:
    event = _with(path, value)
    if reason.startswith("outputs[0]: the dataset URI"):
        event["outputs"][0]["namespace"] = "s3://" + "b" * 1019  # + 1024 of name > 2048
        reason = reason.replace("1049", str(len(f"s3://{'b' * 1019}/{'x' * 1024}")))
    with pytest.raises(MalformedEvent) as info:
        parse_event(event)
    assert str(info.value) == reason


def test_lengths_at_the_limits_are_accepted(sqlite_url: str) -> None:
    event = _with("job.name", "j" * 512)
    event["run"]["runId"] = "r" * 256
    with Catalog(sqlite_url) as catalog:
        from faucet_core.lineage import ingest_text

        assert ingest_text(catalog, json.dumps(event)).summary.events == 1


def test_lineage_ingest_from_files_refuses_too_deep_and_too_long_numbers(
    tmp_path: Path, sqlite_url: str
) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"a": ' + "[" * 50_000 + "]" * 50_000 + "}\n")
    digits = tmp_path / "digits.json"
    digits.write_text('{"eventTime": ' + "1" * 5000 + "}\n")
    with Catalog(sqlite_url) as catalog, pytest.raises(EventsRejected) as info:
        ingest(catalog, [deep, digits])
    assert [r.reason for r in info.value.rejections] == [
        "invalid JSON: nested too deep",
        "invalid JSON: a number too long",
    ]


def _bomb(size: int) -> bytes:
    pack = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = bytes(1 << 20)
    return b"".join([*(pack.compress(block) for _ in range(size >> 20)), pack.flush()])


def test_the_inflater_stops_at_its_limit() -> None:
    bomb = _bomb(64 << 20)
    inflater = GzipInflater(1 << 20)

    def feed_all() -> None:
        for i in range(0, len(bomb), 4096):
            inflater.feed(bomb[i : i + 4096])

    with pytest.raises(BodyTooLarge):
        feed_all()
    assert inflater.size == (1 << 20) + 1  # never more than the limit and one byte


def test_the_inflater_reads_several_members_as_gzip_does() -> None:
    body = gzip.compress(b'{"a": 1}\n') + gzip.compress(b'{"b": 2}\n')
    inflater = GzipInflater(100)
    for i in range(0, len(body), 7):
        inflater.feed(body[i : i + 7])
    assert inflater.finish() == gzip.decompress(body)
    cut = GzipInflater(100)
    cut.feed(body[:-3])
    with pytest.raises(zlib.error):
        cut.finish()


@pytest.fixture
def served(sqlite_url: str) -> Iterator[str]:
    with Catalog(sqlite_url) as catalog, serving(create_receiver_app(catalog)) as url:
        yield url


def _peak_rss() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB


def test_a_gzip_bomb_is_413_without_inflating_it(served: str) -> None:
    size = 512 << 20
    bomb = _bomb(size)  # half a GiB of zeros in about 500 KiB
    assert len(bomb) < MAX_BODY_BYTES
    before = _peak_rss()
    r = httpx.post(
        served + "/api/v1/lineage",
        content=bomb,
        headers={"Content-Encoding": "gzip"},
        timeout=120,
    )
    grown = _peak_rss() - before
    assert r.status_code == 413
    assert r.json() == {
        "error": f"the request body exceeds {MAX_BODY_BYTES} bytes once decompressed: "
        "send fewer events"
    }
    # a sanity bound, not a timing: the server (a thread of this process) never held the
    # half GiB, only up to the 16 MiB limit plus its working set
    assert grown < 128 << 20, grown
