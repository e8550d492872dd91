"""The same 1,000,000-row x 10-column pyarrow Table profiled by two source trees of
faucet_core, in alternating fresh processes (each: one warm-up, then the best of 3 timed
calls; CPU and wall seconds).

    git archive <commit> faucet-core/faucet_core | tar -x -C /tmp/before
    .venv/bin/python benchmarks/profile_before_after.py /tmp/before/faucet-core [--rounds 3]

(A commit from before the engine had its own folder keeps faucet_core/ at the root:
``git archive <commit> faucet_core`` and pass /tmp/before.)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from _common import BENCH_DIR, print_machine

CHILD = """
import json, sys, time
sys.path.insert(0, {bench!r})
from _common import mixed_table
import faucet_core
table = mixed_table(1_000_000)
faucet_core.profile(table.slice(0, 10_000))
cpu, wall = [], []
for _ in range(3):
    c, w = time.process_time(), time.perf_counter()
    faucet_core.profile(table)
    cpu.append(time.process_time() - c)
    wall.append(time.perf_counter() - w)
print(json.dumps({{"source": faucet_core.__file__, "cpu": min(cpu), "wall": min(wall)}}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="a folder holding an older faucet_core/")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    after = str(BENCH_DIR.parent / "faucet-core")
    trees = {"before": str(Path(args.before).resolve()), "after": after}
    runs: dict[str, list[dict[str, float]]] = {label: [] for label in trees}
    for _ in range(args.rounds):
        for label, root in trees.items():
            env = {**os.environ, "PYTHONPATH": root}
            done = subprocess.run(
                [sys.executable, "-c", CHILD.format(bench=str(BENCH_DIR))],
                env=env,
                capture_output=True,
                text=True,
                check=True,
                cwd=root,
            )
            out = json.loads(done.stdout.strip().splitlines()[-1])
            if not out["source"].startswith(root):
                raise SystemExit(f"{label}: imported {out['source']}, not the tree in {root}")
            runs[label].append(out)
            print(label, out, flush=True)
    print()
    print("| faucet_core | CPU s (median of best-of-3) | wall s (median of best-of-3) |")
    print("|---|---|---|")
    for label, outs in runs.items():
        cpu = statistics.median(o["cpu"] for o in outs)
        wall = statistics.median(o["wall"] for o in outs)
        print(f"| {label} | {cpu:.3f} | {wall:.3f} |")
    print()
    print_machine()


if __name__ == "__main__":
    main()
