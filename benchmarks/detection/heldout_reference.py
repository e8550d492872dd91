"""The held-out half replayed with the detector of another commit: the reference figures
each held-out measurement is compared with (``corpus.md``: after a half is measured once,
the detector of its declaration's commit runs once on the same tables with the same
benchmark code).

    .venv/bin/python benchmarks/detection/heldout_reference.py 5acf0c0
    .venv/bin/python benchmarks/detection/heldout_reference.py 7b1a9a2 \
        --tables seattleweather,seattletemps,sftemps,crspday,arca   # the tenth half's

The commit's ``faucet_core`` is checked out into a temporary git worktree and put first on
the path of a child process, which replays the current corpus's held-out tables with this
tree's benchmark code (loaders, faults, scoring) and prints their report, the same tables
as ``run.py`` reports for the held-out half. The worktree is removed afterwards. Run it
once per half, after the half's own measurement, never to choose between detectors.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def _child(tables: str | None) -> int:
    from corpus import CORPUS
    from realreport import real_report
    from realsim import replay

    import faucet_core

    names = tables.split(",") if tables else [n for n, e in CORPUS.items() if e.half == "held-out"]
    unknown = [n for n in names if n not in CORPUS]
    if unknown:
        print(f"--tables: not corpus tables: {', '.join(unknown)}", file=sys.stderr)
        return 2
    with ProcessPoolExecutor(2) as pool:
        results = list(pool.map(replay, names))
    print(f"faucet_core from {Path(faucet_core.__file__).parent}")
    print("\n".join(real_report(results)))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("commit", help="the commit whose detector is the reference")
    parser.add_argument(
        "--tables",
        help="comma-separated corpus tables instead of the held-out half (a spent half's "
        "tables, to check a figure recorded earlier)",
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return _child(args.tables)
    with tempfile.TemporaryDirectory(prefix="faucet-reference-") as scratch:
        tree = Path(scratch) / "tree"
        add = ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), args.commit]
        made = subprocess.run(add, capture_output=True, text=True, check=False)
        if made.returncode != 0:
            print(f"cannot check out {args.commit!r}: {made.stderr.strip()}", file=sys.stderr)
            return 2
        try:
            # the engine's folder since the two distributions (faucet-core/faucet_core),
            # the tree's root before them (faucet_core/)
            engine = tree / "faucet-core"
            first = [str(engine)] if (engine / "faucet_core").is_dir() else []
            env = {**os.environ, "PYTHONPATH": os.pathsep.join([*first, str(tree), str(HERE)])}
            child = [sys.executable, str(Path(__file__).resolve()), args.commit, "--child"]
            if args.tables:
                child += ["--tables", args.tables]
            return subprocess.run(child, env=env, cwd=HERE, check=False).returncode
        finally:
            remove = ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)]
            subprocess.run(remove, capture_output=True, check=False)


if __name__ == "__main__":
    sys.exit(main())
