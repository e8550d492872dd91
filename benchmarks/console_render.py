"""How long the web console takes to build its two heaviest pages (issue 27).

1. A dataset page of 200 columns x 20 runs: the profiles come from the real profiler (300
   rows a run: 100 numeric, 60 categorical, 40 id-like text columns) and each run's
   findings and status from the real detector against the runs before it (the newest
   run drifts on 6 columns), as the store would hold them. Timed: ``profile_view`` (the
   bands of the newest run from ``series_bands``, every chart, the findings history)
   plus rendering ``dataset.html``; the store read is not (see ``catalog_scale.py``).
   Peer, in the same run: one ``detect_drift`` of the newest run against its baseline.
2. The datasets list of 10,000 datasets (1,000 of them profiled, 100 drifted, 50 with a
   check error, the rest not profiled; 20 assets that never ran): ``dataset_rows``,
   ``sorted_rows``, ``status_counts`` and rendering one page (200 rows) of
   ``datasets.html``. Peer: the same rows sorted by URI alone.
3. The same list end to end, ``GET /ui/datasets`` of a signed-in viewer (Starlette's
   TestClient, in process), over a SQLite catalog of those 10,000 datasets with 1,000
   recorded profiles: the store reads (datasets, last drift, latest outcomes, check
   errors) and the page.

Prints markdown to stdout::

    .venv/bin/python benchmarks/console_render.py            # --repeats N
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import sys
from pathlib import Path

import dagster as dg
import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _common import LOAD_AT_START, markdown_table, time_runs

from faucet_core import ProfilingConfig, profile
from faucet_core.catalog import DatasetEntry, DatasetRef, LatestOutcome
from faucet_core.catalog.model import DatasetProfileRun
from faucet_core.drift import detect_drift
from faucet_dagster.serve.console.dataset_view import profile_view
from faucet_dagster.serve.console.render import page
from faucet_dagster.serve.console.views import (
    dataset_rows,
    sorted_rows,
    status_counts,
)

ROWS = 300
RUNS = 20
COLUMNS = (100, 60, 40)
"""numeric, categorical, id-like text."""
DRIFTED = 6
LIST_SIZE = 10_000
START = dt.datetime(2026, 3, 1, 6, 0, tzinfo=dt.timezone.utc)
CONFIG = ProfilingConfig()
REGIONS = ["north", "south", "east", "west", "centre", "islands"]


def _table(run: int) -> pa.Table:
    drift = run == RUNS - 1
    numeric, categorical, text = COLUMNS
    data: dict[str, list[object]] = {}
    for c in range(numeric):
        shift = 1000.0 if drift and c < DRIFTED // 2 else 0.0
        data[f"n{c:03}"] = [
            shift + 50.0 + ((i * 37 + run * 11 + c) % 97) / 3.0 for i in range(ROWS)
        ]
    for c in range(categorical):
        data[f"k{c:03}"] = [
            "mars" if drift and c < DRIFTED // 2 and i % 4 == 0 else REGIONS[(i + c) % 6]
            for i in range(ROWS)
        ]
    for c in range(text):
        data[f"t{c:03}"] = [f"id-{run}-{i}-{c}" for i in range(ROWS)]
    return pa.table(data)


def dataset_history() -> list[DatasetProfileRun]:
    profiles = [profile(_table(run)) for run in range(RUNS)]
    runs = []
    for i, prof in enumerate(profiles):
        baseline = profiles[max(0, i - CONFIG.window) : i]
        findings = (
            detect_drift(prof, baseline, CONFIG) if len(baseline) >= CONFIG.min_history else []
        )
        status = (
            "warming"
            if len(baseline) < CONFIG.min_history
            else ("drifted" if findings else "stable")
        )
        runs.append(
            DatasetProfileRun(
                dataset_id="d" * 16,
                run_id=f"{i:08x}-0000-4000-8000-000000000000",
                partition="",
                recorded_at=START + dt.timedelta(days=i),
                status=status,
                row_count=prof.row_count,
                findings=tuple(f.to_dict() for f in findings),
                profile=prof,
            )
        )
    return runs


def render_dataset(history: list[DatasetProfileRun]) -> str:
    view = profile_view(history, config=CONFIG, dagster="http://dagster.test:3000", types={})
    entry = DatasetEntry(
        id="d" * 16,
        uri="dagster://wide",
        namespace="dagster",
        name="wide",
        owners=(),
        schema=None,
        schema_run_id=None,
        created_at=START,
        updated_at=START,
    )
    from faucet_core.catalog import DatasetDetail
    from faucet_dagster.serve.console.views import Status, ts

    detail = DatasetDetail(entry, (), (), (), (), (), tuple(history))
    html = page(
        "dataset.html",
        d=entry,
        detail=detail,
        health=Status.DRIFTED,
        error_at="-",
        profile=view,
        upstream=[],
        downstream=[],
        kind="Dagster asset",
        dagster_link=None,
        asset_key="wide",
        can_edit=False,
        ts=ts,
    ).body
    return bytes(html).decode()


def list_inputs() -> tuple[
    list[DatasetEntry],
    dict[str, LatestOutcome],
    dict[str, dt.datetime],
    dict[str, DatasetRef],
    dict[str, object],
]:
    entries, outcomes, errors = [], {}, {}
    finding = {"column": "amount", "metric": "mean", "message": "amount.mean: moved"}
    for i in range(LIST_SIZE):
        ref = DatasetRef("s3://lake", f"area{i % 50:02}/table{i:05}.parquet")
        entries.append(
            DatasetEntry(
                id=ref.id,
                uri=ref.uri,
                namespace=ref.namespace,
                name=ref.name,
                owners=(f"team:t{i % 40}",),
                schema=None,
                schema_run_id=None,
                created_at=START,
                updated_at=START,
                last_run_at=START + dt.timedelta(minutes=i),
            )
        )
        if i < 1000:
            drifted = i < 100
            outcomes[ref.id] = LatestOutcome(
                run_id=f"run-{i}",
                recorded_at=START + dt.timedelta(minutes=i),
                status="drifted" if drifted else "stable",
                findings=(finding, {**finding, "column": "region"}) if drifted else (),
            )
            if 100 <= i < 150:
                errors[ref.id] = START + dt.timedelta(days=1)
    never = {
        DatasetRef("dagster", f"report{i}").id: DatasetRef("dagster", f"report{i}")
        for i in range(20)
    }
    assets = {ref_id: dg.AssetKey(ref_id) for ref_id in list(outcomes)[:1000]}
    return entries, outcomes, errors, never, assets


def render_list(inputs: tuple) -> str:  # type: ignore[type-arg]
    entries, outcomes, errors, never, assets = inputs
    rows = dataset_rows(
        entries, {}, assets, outcomes=outcomes, errors=errors, never_run=never, checked=set(assets)
    )
    counts = status_counts(rows)
    shown = sorted_rows(rows, "status")
    html = page(
        "datasets.html",
        rows=shown[:200],
        first=1,
        found=len(shown),
        total=len(rows),
        q="",
        chosen="",
        chosen_label="",
        sort="status",
        counts=counts,
        page_number=1,
        pages=-(-len(shown) // 200),
        link=lambda **_: "/ui/datasets",
    ).body
    return bytes(html).decode()


def end_to_end_list(repeats: int, folder: Path) -> tuple[object, int]:
    """``GET /ui/datasets`` timings over a real SQLite catalog of the list's datasets."""
    import re

    from starlette.testclient import TestClient

    from faucet_core.catalog import Catalog, JobRef, RunRecord, RunState
    from faucet_core.catalog.model import Observation
    from faucet_dagster.location import load_code_location
    from faucet_dagster.serve import create_app
    from faucet_dagster.serve.api.auth import Role, TokenTable

    url = f"sqlite:///{folder / 'console.db'}"
    entries, outcomes, _, _, _ = list_inputs()
    small = profile(pa.table({"a": [1, 2, 3]}))
    with Catalog(url) as catalog:
        catalog.record(
            [
                RunRecord(
                    job=JobRef("airflow", "fan-out"),
                    run_id="bench",
                    state=RunState.COMPLETE,
                    event_time=START,
                    outputs=tuple(
                        Observation(DatasetRef(e.namespace, e.name), owners=e.owners)
                        for e in entries
                    ),
                )
            ]
        )
        for e in entries[:1000]:
            o = outcomes[e.id]
            catalog.record_profile(
                DatasetRef(e.namespace, e.name),
                run_id=o.run_id,
                profile=small,
                status=o.status,
                findings=list(o.findings),
                recorded_at=o.recorded_at,
            )
    token = "bench-viewer-token-0123456789abcdef"
    location = load_code_location(file=str(Path(__file__).with_name("serve_location.py")))
    app = create_app(location, TokenTable([("bench", Role.VIEWER, token)]), url)
    with TestClient(app) as client:
        form = client.get("/ui/signin").text
        csrf = re.search(r'name="csrf" value="([^"]+)"', form)
        assert csrf is not None
        client.post(
            "/ui/signin",
            data={"token": token, "csrf": csrf.group(1), "next": ""},
            headers={"Origin": "http://testserver"},
        )
        answer = client.get("/ui/datasets")
        assert answer.status_code == 200, answer.status_code
        rows = answer.text.count('<tr class="st-')
        return time_runs(lambda: client.get("/ui/datasets"), repeats), rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()

    history = dataset_history()
    latest, before = history[-1], history[:-1]
    html = render_dataset(history)
    findings = len(latest.findings)
    charts = html.count('<svg class="chart"')
    page_timing = time_runs(lambda: render_dataset(history), args.repeats)
    peer = time_runs(
        lambda: detect_drift(latest.profile, [p.profile for p in before[-CONFIG.window :]], CONFIG),
        args.repeats,
    )

    inputs = list_inputs()
    listing = render_list(inputs)
    list_timing = time_runs(lambda: render_list(inputs), args.repeats, warmup=lambda: None)
    entries = inputs[0]
    list_peer = time_runs(lambda: sorted(entries, key=lambda e: e.uri), args.repeats)
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        e2e, e2e_rows = end_to_end_list(args.repeats, Path(folder))

    ms = lambda s: f"{s * 1000:.1f} ms"  # noqa: E731
    print("# Console pages: build and render time\n")
    print(
        markdown_table(
            [
                "page",
                "size",
                "median wall",
                "best wall",
                "median CPU",
                "best CPU",
                "budget",
                "peer (median)",
                "ratio",
            ],
            [
                [
                    "dataset (`profile_view` + `dataset.html`)",
                    f"{sum(COLUMNS)} columns x {RUNS} runs, {findings} findings, {charts} charts, "
                    f"{len(html) / 1e6:.1f} MB HTML",
                    ms(page_timing.median),
                    ms(page_timing.best),
                    ms(statistics.median(page_timing.cpu)),
                    ms(page_timing.best_cpu),
                    "300 ms",
                    f"`detect_drift` of the newest run: {ms(peer.median)}",
                    f"{page_timing.median / peer.median:.1f}x",
                ],
                [
                    "datasets list (rows, sort, counts, one page of `datasets.html`)",
                    f"{LIST_SIZE + 20:,} datasets, 200 shown, {len(listing) / 1e3:.0f} KB HTML",
                    ms(list_timing.median),
                    ms(list_timing.best),
                    ms(statistics.median(list_timing.cpu)),
                    ms(list_timing.best_cpu),
                    "300 ms",
                    f"sorting the entries by URI: {ms(list_peer.median)}",
                    f"{list_timing.median / list_peer.median:.0f}x",
                ],
                [
                    "`GET /ui/datasets` end to end (TestClient, SQLite, store reads included)",
                    f"{LIST_SIZE:,} catalog datasets (1,000 profiled), {e2e_rows} rows shown",
                    ms(e2e.median),  # type: ignore[attr-defined]
                    ms(e2e.best),  # type: ignore[attr-defined]
                    ms(statistics.median(e2e.cpu)),  # type: ignore[attr-defined]
                    ms(e2e.best_cpu),  # type: ignore[attr-defined]
                    "-",
                    "the list's render above",
                    f"{e2e.median / list_timing.median:.1f}x",  # type: ignore[attr-defined]
                ],
            ],
        )
    )
    print(
        f"\nMachine: {platform.platform()}, Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs (shared); 1-minute load average {LOAD_AT_START:.1f} at start, "
        f"{os.getloadavg()[0]:.1f} at the end. {args.repeats} timed runs each.\n"
    )
    print("Command: `.venv/bin/python benchmarks/console_render.py`")


if __name__ == "__main__":
    main()
