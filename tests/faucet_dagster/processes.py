"""Running the ``dagster`` and ``dagster-webserver`` commands against a test code location."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import dagster as dg

from tests.faucet_dagster.helpers import failure_message

LOCATION = Path(__file__).parent / "locations" / "orders_location.py"
BIN = Path(sys.executable).parent
CHECK_KEY = dg.AssetCheckKey(dg.AssetKey("orders"), "faucet_profile")


@dataclass(frozen=True)
class DagsterHome:
    """A ``DAGSTER_HOME`` with an empty ``dagster.yaml`` and a faucet store next to it."""

    path: Path
    store_url: str

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("FAUCET_", "DAGSTER_"))}
        env.update(
            DAGSTER_HOME=str(self.path),
            FAUCET_STORE_URL=self.store_url,
            DAGSTER_DISABLE_TELEMETRY="1",  # nothing leaves 127.0.0.1
        )
        env.update(extra)
        return env

    def instance(self) -> dg.DagsterInstance:
        return dg.DagsterInstance.from_config(str(self.path))


def make_home(tmp: Path) -> DagsterHome:
    path = tmp / "dagster_home"
    path.mkdir()
    (path / "dagster.yaml").write_text("")
    return DagsterHome(path=path, store_url=f"sqlite:///{tmp / 'faucet.db'}")


def materialize_cli(home: DagsterHome, **env: str) -> subprocess.CompletedProcess[str]:
    """``dagster asset materialize -f <location> --select orders`` in a subprocess."""
    command = [str(BIN / "dagster"), "asset", "materialize", "-f", str(LOCATION)]
    return subprocess.run(
        [*command, "--select", "orders"],
        env=home.env(**env),
        cwd=home.path.parent,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def latest_evaluation(instance: dg.DagsterInstance) -> dg.AssetCheckEvaluation:
    records = instance.event_log_storage.get_latest_asset_check_execution_by_key([CHECK_KEY])
    event = records[CHECK_KEY].event
    assert event is not None
    assert event.dagster_event is not None
    data = event.dagster_event.asset_check_evaluation_data
    assert isinstance(data, dg.AssetCheckEvaluation)
    return data


def latest_step_failures(instance: dg.DagsterInstance) -> list[str]:
    """The error message of each failed step of the latest run, read from the event log.

    The console copy of these events passes through the step process's log capture, which
    can exit before it has copied the last lines; the event log always has them.
    """
    runs = instance.get_runs(limit=1)
    assert runs, "no run was recorded"
    entries = instance.all_logs(runs[0].run_id, of_type=dg.DagsterEventType.STEP_FAILURE)
    events = [entry.dagster_event for entry in entries]
    return [failure_message(e) for e in events if e is not None]
