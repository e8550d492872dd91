"""The README's main job: eleven simulated days of the example project, end to end.

Each day runs ``dagster asset materialize`` on the example code location (on an
embedded SQLite Dagster instance and faucet store under ``.dagster_home/``), then
prints what the profile checks said. Days 1-5 warm the baselines up, 6-8 are
stable, and days 9-11 carry the faults of ``faucet_example.source``. The run
ends with ``faucet profiling show``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
HOME = HERE / ".dagster_home"
BIN = Path(sys.executable).parent
LOCATION = ["-m", "faucet_example.definitions"]
DAYS = 11


def _env(day: int) -> dict[str, str]:
    env = dict(os.environ)
    env.update(DAGSTER_HOME=str(HOME), FAUCET_EXAMPLE_DAY=str(day), PYTHONUNBUFFERED="1")
    env.pop("FAUCET_STORE_URL", None)  # the demo uses the default: $DAGSTER_HOME/faucet.db
    return env


def main() -> int:
    sys.path.insert(0, str(HERE / "src"))
    from faucet_example.source import FAULTS

    from faucet_core.store import ProfileStore

    shutil.rmtree(HOME, ignore_errors=True)
    HOME.mkdir(parents=True)
    (HOME / "dagster.yaml").write_text("telemetry:\n  enabled: false\n")
    print(f"DAGSTER_HOME={HOME}\n")
    for day in range(1, DAYS + 1):
        done = subprocess.run(
            [str(BIN / "dagster"), "asset", "materialize", *LOCATION, "--select", "*"],
            env=_env(day),
            cwd=HERE,
            capture_output=True,
            text=True,
        )
        note = f" ({FAULTS[day]})" if day in FAULTS else ""
        if done.returncode != 0:
            print(done.stdout[-3000:], done.stderr[-3000:], sep="\n")
            print(f"day {day}: dagster asset materialize failed", file=sys.stderr)
            return 1
        with ProfileStore(f"sqlite:///{HOME / 'faucet.db'}") as store:
            latest = [store.latest(k.key, partition=k.partition or None) for k in store.keys()]
        runs = [run for run in latest if run is not None]
        print(
            f"day {day:2d}{note}: "
            + "; ".join(
                f"{run.key}: {run.status.value}"
                + (f" ({len(run.findings)} finding(s))" if run.findings else "")
                for run in runs
            )
        )
        for run in runs:
            for finding in run.findings:
                print(f"        ! {run.key}: {finding.message}")
    print("\n$ faucet profiling show -m faucet_example.definitions\n", flush=True)
    return subprocess.run(
        [str(BIN / "faucet"), "profiling", "show", *LOCATION], env=_env(DAYS), cwd=HERE
    ).returncode


if __name__ == "__main__":
    sys.exit(main())
