"""A baseline run and the catalog's copy of its profile commit together: a process killed
before the commit leaves neither, a finished one leaves both."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

from sqlalchemy import text

from faucet_core.catalog import Catalog, DatasetRef
from faucet_core.store import ProfileStore

SCRIPT = textwrap.dedent(
    """
    import os, signal, sys
    from faucet_core import ProfilingConfig
    from faucet_core.catalog import DatasetRef
    from faucet_core.catalog.write import lock_catalog, write_profile
    from faucet_core.store import ProfileStore
    from tests.faucet_core.store.helpers import day

    url, crash = sys.argv[1], sys.argv[2] == "crash"
    dataset = DatasetRef("dagster", "orders")

    def catalog_copy(conn, outcome):
        lock_catalog(conn)
        write_profile(conn, dataset, run_id="r1", profile=prof, status=outcome.status.value,
                      recorded_at=outcome.recorded_at)
        if crash:  # killed after both writes, before the commit
            os.kill(os.getpid(), signal.SIGKILL)

    prof = day(1)
    with ProfileStore(url) as store:
        outcome = store.record("orders", prof, ProfilingConfig(), run_id="r1",
                               in_transaction=catalog_copy)
    assert outcome.in_transaction_error is None, outcome.in_transaction_error
    """
)


def _run(url: str, mode: str) -> int:
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, url, mode], env=env, capture_output=True, check=False
    )
    return done.returncode


def _state(url: str) -> tuple[int, int]:
    with ProfileStore(url) as store:
        runs = len(store.history("orders"))
    with Catalog(url) as catalog, catalog.engine.connect() as conn:
        copies = conn.execute(text("SELECT count(*) FROM faucet_dataset_profiles")).scalar()
    return runs, int(copies or 0)


def test_killed_before_the_commit_leaves_neither(store_url: str) -> None:
    ProfileStore(store_url).close()
    assert _run(store_url, "crash") == -signal.SIGKILL
    assert _state(store_url) == (0, 0)
    assert _run(store_url, "finish") == 0
    assert _state(store_url) == (1, 1)
    with Catalog(store_url) as catalog:
        (copy,) = catalog.profiles(DatasetRef("dagster", "orders").uri)
    assert copy.run_id == "r1"


def test_a_failing_callback_rolls_back_only_its_own_writes(store_url: str) -> None:
    from faucet_core import ProfilingConfig
    from faucet_core.catalog.write import write_profile
    from tests.faucet_core.store.helpers import day

    def broken(conn, outcome) -> None:  # type: ignore[no-untyped-def]
        write_profile(
            conn,
            DatasetRef("dagster", "orders"),
            run_id="r1",
            profile=day(1),
            status="stable",
            recorded_at=outcome.recorded_at,
        )
        conn.execute(text("SELECT * FROM no_such_table"))

    with ProfileStore(store_url) as store:
        outcome = store.record("orders", day(1), ProfilingConfig(), in_transaction=broken)
    assert outcome.in_transaction_error is not None
    assert "no_such_table" in outcome.in_transaction_error
    assert _state(store_url) == (1, 0)
