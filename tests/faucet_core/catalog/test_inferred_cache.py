"""The in-process cache of inferred lineage, on real SQLite catalogs and real profiles:
a second ask with nothing new stored is answered from the cache; a new profile of the sink
or of an input, a replaced profile of the same run, or another store is a miss; the
cache keeps at most CACHE_SIZE sinks."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from faucet_core.catalog import (
    Catalog,
    DatasetRef,
    JobRef,
    Observation,
    RunRecord,
    RunState,
    inferred,
)
from faucet_core.catalog.inferred import clear_cache, infer_into
from faucet_core.profile import profile

T0 = dt.datetime(2026, 9, 1, tzinfo=dt.timezone.utc)
RAW, CLEAN = DatasetRef("demo", "raw"), DatasetRef("demo", "clean")


def _raw(day: int, rows: int = 1500) -> pa.Table:
    rng = np.random.default_rng(day)
    return pa.table(
        {
            "id": np.arange(day * 10_000, day * 10_000 + rows),
            "amount": np.round(rng.lognormal(3, 0.5, rows), 2),
            "country": rng.choice(["de", "fr", "us"], rows),
        }
    )


def _record_day(catalog: Catalog, day: int, clean: pa.Table | None = None) -> None:
    raw = _raw(day)
    when = T0 + dt.timedelta(days=day)
    catalog.record(
        [
            RunRecord(
                job=JobRef("demo", "clean"),
                run_id=f"run-{day}",
                state=RunState.COMPLETE,
                event_time=when,
                inputs=(Observation(RAW),),
                outputs=(Observation(CLEAN),),
            )
        ]
    )
    catalog.record_profile(
        RAW, run_id=f"raw-{day}", profile=profile(raw), status="ok", recorded_at=when
    )
    kept = clean if clean is not None else raw.filter(pa.array(np.asarray(raw["amount"]) > 20))
    catalog.record_profile(
        CLEAN,
        run_id=f"clean-{day}",
        profile=profile(kept),
        status="ok",
        recorded_at=when + dt.timedelta(minutes=1),
    )


@pytest.fixture
def catalog(tmp_path: Path) -> Iterator[Catalog]:
    clear_cache()
    with Catalog(f"sqlite:///{tmp_path / 'cache.db'}") as cat:
        for day in (1, 2, 3):
            _record_day(cat, day)
        yield cat
    clear_cache()


def _into(catalog: Catalog) -> dict[str, inferred.InferredEdge]:
    with catalog.engine.connect() as conn:
        return infer_into(conn, CLEAN.id)


def test_nothing_new_stored_is_answered_from_the_cache(catalog: Catalog) -> None:
    first = _into(catalog)
    (edge,) = first.values()
    assert edge.runs == 3
    assert ("id", "id") in {(c.column, c.source) for c in edge.confident}
    again = _into(catalog)
    assert again[RAW.id] is edge  # the same object: not inferred again
    # the per-edge entry point and the catalog's read share it
    (catalog_edge,) = catalog.detail(CLEAN.uri).upstream
    assert catalog.inferred_lineage(catalog_edge) is edge


def test_a_new_profile_of_the_sink_or_an_input_is_inferred_anew(catalog: Catalog) -> None:
    edge = _into(catalog)[RAW.id]
    _record_day(catalog, 4)
    newer = _into(catalog)[RAW.id]
    assert newer is not edge
    assert newer.runs == 4
    # only the input gets a new run: the pairing may stay the same, but it is read anew
    catalog.record_profile(
        RAW,
        run_id="raw-5",
        profile=profile(_raw(5)),
        status="ok",
        recorded_at=T0 + dt.timedelta(days=5),
    )
    assert _into(catalog)[RAW.id] is not newer


def test_a_replaced_profile_of_the_same_run_is_inferred_anew(catalog: Catalog) -> None:
    edge = _into(catalog)[RAW.id]
    assert ("amount", "amount") in {(c.column, c.source) for c in edge.confident}
    # the newest clean run recorded again (same run id), now with amounts in cents
    raw = _raw(3)
    cents = pa.table(
        {
            "id": raw["id"],
            "amount": pa.array(np.asarray(raw["amount"]) * 100),
            "country": raw["country"],
        }
    )
    catalog.record_profile(
        CLEAN,
        run_id="clean-3",
        profile=profile(cents),
        status="ok",
        recorded_at=T0 + dt.timedelta(days=3, minutes=2),
    )
    again = _into(catalog)[RAW.id]
    assert again is not edge
    assert ("amount", "amount") not in {(c.column, c.source) for c in again.confident}


def test_another_store_with_the_same_ids_is_not_mixed_up(catalog: Catalog, tmp_path: Path) -> None:
    edge = _into(catalog)[RAW.id]
    with Catalog(f"sqlite:///{tmp_path / 'other.db'}") as other:
        for day in (1, 2, 3):
            _record_day(other, day)
        got = _into(other)[RAW.id]
    assert got is not edge
    assert got == edge  # the same data: the same answer, computed for that store


def test_the_cache_keeps_at_most_cache_size_sinks(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(inferred, "CACHE_SIZE", 1)
    edge = _into(catalog)[RAW.id]
    with catalog.engine.connect() as conn:
        infer_into(conn, RAW.id)  # another sink (no inputs): pushes the first out
    assert _into(catalog)[RAW.id] is not edge
    assert len(inferred._cache) == 1


def test_in_memory_stores_are_never_cached() -> None:
    clear_cache()
    found = []
    for _ in range(2):
        with Catalog("sqlite://") as cat:
            for day in (1, 2, 3):
                _record_day(cat, day)
            found.append(_into(cat)[RAW.id])
    assert found[0] is not found[1]
    assert found[0] == found[1]
    assert not inferred._cache
