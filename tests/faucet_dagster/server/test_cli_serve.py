"""``faucet serve`` as a real process (the console entry point, uvicorn, 2 workers)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from faucet_core.catalog import Catalog
from faucet_core.store.audit import list_audit
from tests.faucet_dagster.plan.test_cli import LOCATION, _record
from tests.faucet_dagster.server.conftest import TOKENS, auth

ENTRY = "import sys; from faucet_dagster.cli import main; sys.exit(main())"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(
    ("workers", "discovered"), [("1", False), ("2", False), ("2", True)], ids=["1", "2", "2-found"]
)
def test_serve_process(sqlite_url: str, workers: str, discovered: bool, tmp_path: Path) -> None:
    """``2-found``: no -f, the location named by the folder's workspace.yaml, which every
    worker process must load as the command found it."""
    _record(sqlite_url)
    port = _free_port()
    env = {
        **os.environ,
        "FAUCET_TOKENS": ",".join(f"{role}-user:{role}:{t}" for role, t in TOKENS.items()),
    }
    where = ["-f", LOCATION]
    if discovered:
        (tmp_path / "workspace.yaml").write_text(f"load_from:\n  - python_file: {LOCATION}\n")
        where = []
    cmd = [sys.executable, "-c", ENTRY, "serve", *where, "--store", sqlite_url]
    cmd += ["--port", str(port), "--workers", workers, "--log-level", "warning"]
    proc = subprocess.Popen(
        cmd,
        env=env,
        cwd=tmp_path if discovered else None,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(base + "/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "faucet serve did not start"
            time.sleep(0.2)
        for _ in range(4):
            r = httpx.post(base + "/v1/plan", json={"select": "customers"}, headers=auth("viewer"))
            assert r.status_code == 200, r.text
        assert httpx.post(base + "/v1/plan", json={"select": "customers"}).status_code == 401
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=60)
    assert b"faucet serve:" in out
    for token in TOKENS.values():
        assert token.encode() not in out + err
    with Catalog(sqlite_url) as catalog:
        assert len(list_audit(catalog.engine, action="plan")) == 5
