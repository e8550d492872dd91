"""What a Spark executor runs needs faucet_core and its pure dependencies only.

The task functions run here in a subprocess where Dagster (and faucet_dagster) cannot be
imported, as on an executor that received only a zip of faucet_core; importing
faucet_core never imports pyspark either.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = textwrap.dedent(
    """
    import importlib.abc, json, sys

    BLOCKED = ("dagster", "dagster_shared", "dagster_webserver", "faucet_dagster", "pyspark")

    class Blocker(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ImportError(f"{name} is not installed on this executor")
            return None

    sys.meta_path.insert(0, Blocker())

    import pyarrow as pa
    from faucet_core import PolicyConfig, PolicyRule, ProfilingConfig, ValueDetector, profile
    from faucet_core.profile import TableProfile
    from faucet_core.profile.spark import decide_detectors, detector_counts, partial_profiles

    rows = [{"n": i, "mail": f"u{i}@example.com" if i % 2 else f"x{i}"} for i in range(400)]
    batches = [pa.RecordBatch.from_pylist(rows[i : i + 100]) for i in range(0, 400, 100)]
    rule = PolicyRule(label="pii.email", detectors=[ValueDetector.EMAIL], min_share=0.5)
    config = ProfilingConfig(policy=PolicyConfig(rules=[rule]))
    counts = [json.loads(b.column(0)[0].as_py()) for b in detector_counts(
        ["mail"], [ValueDetector.EMAIL], iter(batches))]
    labels = decide_detectors(config.policy, counts)
    out = list(partial_profiles(ProfilingConfig(), labels, iter(batches)))
    partial = TableProfile.from_json(out[0].column(0)[0].as_py())
    print(json.dumps({
        "counts": counts,
        "labels": labels,
        "rows": partial.row_count,
        "classified": list(partial["mail"].classified),
        "same_as_local": partial["n"] == profile(rows)["n"],
        "leaked": "example.com" in out[0].column(0)[0].as_py().decode(),
        "loaded": sorted(m for m in ("dagster", "faucet_dagster", "pyspark") if m in sys.modules),
    }))
    """
)


def test_task_functions_run_without_dagster_or_pyspark() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "counts": [{"mail": [400, {"email": 200}]}],
        "labels": {"mail": ["pii.email"]},
        "rows": 400,
        "classified": ["pii.email"],
        "same_as_local": True,
        "leaked": False,
        "loaded": [],
    }
