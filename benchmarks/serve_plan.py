"""``faucet serve``: concurrent ``POST /v1/plan`` against a 1,000-dataset catalog.

    .venv/bin/python benchmarks/serve_plan.py
    .venv/bin/python benchmarks/serve_plan.py --postgres postgresql+psycopg://postgres@127.0.0.1:5432/test

Builds the catalog of ``impact_walk.py`` (N datasets, 5 columns each, ~5 N column-lineage
edges), starts ``faucet serve`` as a subprocess (uvicorn, one worker) over
``serve_location.py`` (one asset writing the first dataset and dropping two of its
columns), then sends ``--rounds`` bursts of ``--concurrency`` simultaneous plan requests
(depth 5) from an httpx AsyncClient and records every request's latency. Every request
also writes its ``plan`` audit entry. Prints markdown; results/serve.md is the last run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from impact_walk import build
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from faucet_core.catalog import Catalog
from faucet_core.store.audit import list_audit

HERE = Path(__file__).resolve().parent
TOKEN = "bench-viewer-token-0123456789"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def backend(name: str, pg: str | None, folder: Path) -> Iterator[str]:
    if name == "sqlite":
        yield f"sqlite:///{folder / 'bench.db'}"
        return
    assert pg is not None
    base = make_url(pg)
    schema = f"faucet_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield base.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(
            hide_password=False
        )
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@contextmanager
def server(url: str, workers: int) -> Iterator[str]:
    port = free_port()
    env = {**os.environ, "FAUCET_TOKENS": f"bench:viewer:{TOKEN}"}
    cmd = [
        sys.executable, "-c", "import sys; from faucet_dagster.cli import main; sys.exit(main())",
        "serve",
        "-f", str(HERE / "serve_location.py"), "--store", url,
        "--port", str(port), "--log-level", "warning", "--workers", str(workers),
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("faucet serve did not start")
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(30)


async def burst(base: str, concurrency: int) -> tuple[list[float], int, dict[str, int]]:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    body = {"select": "root", "impact": True, "depth": 5}
    limits = httpx.Limits(max_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, headers=headers, limits=limits) as client:

        async def one() -> tuple[float, int, int]:
            t0 = time.perf_counter()
            r = await client.post("/v1/plan", json=body, timeout=120)
            affected = len(r.json()["impact"]["affected"]) if r.status_code == 200 else -1
            return time.perf_counter() - t0, r.status_code, affected

        results = await asyncio.gather(*(one() for _ in range(concurrency)))
    errors = sum(1 for _, status, _ in results if status != 200)
    statuses: dict[str, int] = {}
    for _, status, _ in results:
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    return [t for t, _, _ in results], errors, {"affected": results[0][2], **statuses}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--datasets", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--postgres", help="also run on this PostgreSQL URL")
    parser.add_argument("--workers", type=int, default=1, help="faucet serve --workers")
    args = parser.parse_args()
    rows = []
    names = ["sqlite"] + (["postgres"] if args.postgres else [])
    for name in names:
        with tempfile.TemporaryDirectory() as tmp, backend(name, args.postgres, Path(tmp)) as url:
            with Catalog(url) as catalog:
                build(catalog, args.datasets)
                edges = catalog.counts()["edges"]
            with server(url, args.workers) as base:
                asyncio.run(burst(base, 1))  # warm up: code location, connections
                alone = [asyncio.run(burst(base, 1))[0][0] for _ in range(10)]
                latencies: list[float] = []
                errors = 0
                first_burst: list[float] = []
                info: dict[str, int] = {}
                t0 = time.perf_counter()
                for i in range(args.rounds):
                    lat, err, info = asyncio.run(burst(base, args.concurrency))
                    latencies += lat
                    errors += err
                    if i == 0:
                        first_burst = lat
                wall = time.perf_counter() - t0
            with Catalog(url) as catalog:
                audited = len(list_audit(catalog.engine, limit=100_000, action="plan"))
            assert audited == len(latencies) + 11, audited  # + the warm-up and the 10 alone
            rows.append(
                f"| {'SQLite' if name == 'sqlite' else 'PostgreSQL'} | {args.workers} | "
                f"{args.datasets:,} | "
                f"{edges:,} | {info.get('affected')} | {len(latencies)} | {errors} | "
                f"{audited} | {statistics.median(latencies) * 1000:.0f} ms | "
                f"{pct(latencies, 0.95) * 1000:.0f} ms | {max(latencies) * 1000:.0f} ms | "
                f"{pct(first_burst, 0.95) * 1000:.0f} ms | {len(latencies) / wall:.1f} | "
                f"{statistics.median(alone) * 1000:.0f} ms |"
            )
    print(
        "| store | workers | datasets | edges | affected | requests | errors | audit entries "
        "| p50 | p95 | max | p95 of the first burst | plans/s | one request alone (p50 of 10) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print()
    print(f"Machine: {platform.platform()}, Python {platform.python_version()}, "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}")  # fmt: skip
    print(f"Command: `{' '.join(['.venv/bin/python', *sys.argv])}`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
