"""The tune half only: how a detector change moves its quiet-day alarms and fault trials.

The way a change is decided before the held-out half measures it (``corpus.md``): every
tune table replayed with the benchmark's own loaders, fault days, faults and scoring
(``realsim.py``, ``realreport.py``), the detector once as it is and once without the
named stages or clearing rules, and the two compared. It never loads a held-out table.

    .venv/bin/python benchmarks/detection/tunereplay.py --save /tmp/now.pkl
    .venv/bin/python benchmarks/detection/tunereplay.py --without-rule within_the_long_tail
    .venv/bin/python benchmarks/detection/tunereplay.py --against /tmp/before.pkl

``--without-stage`` drops a stage of ``faucet_core.drift.detector.STAGES``;
``--without-rule`` drops a clearing rule of ``faucet_core.drift.clearing.CLEARING_RULES``
by its name (``matched_by_a_past_run``, ``same_weekday``, ...; repeat it to drop several). With
``--against``, the saved replay (of another commit, say) is the baseline of the
comparison instead. About 3 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import pickle
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from corpus import CORPUS, load
from corpusfaults import fault_context
from realreport import _score
from realsim import _found, fault_trials, older_runs, recorded_at
from simulate import ZSCORE

from faucet_core import profile
from faucet_core.drift import clearing
from faucet_core.drift.detector import STAGES, run_detection

ROW_FAULTS = frozenset({"row_loss_40", "empty_run"})
"""Faults judged by the table's volume, not counted among the column faults."""

Replay = dict[str, Any]
"""One table's replay: "quiet" -> variant -> [findings per quiet judged day]; "faults" ->
(fault, variant) -> [(right column, right head) per trial]."""


Variant = tuple[tuple, tuple[str, ...]]
"""The stages to run and the clearing rules to switch off."""


def _variants(without_stages: Sequence[str], without_rules: Sequence[str]) -> dict[str, Variant]:
    """The detector as it is, and without the named stages and rules when any are named."""
    variants: dict[str, Variant] = {"with": (STAGES, ())}
    if without_stages or without_rules:
        stages = tuple(s for s in STAGES if s[0] not in without_stages)
        variants["without"] = (stages, tuple(without_rules))
    return variants


@contextmanager
def _rules_off(rules: Sequence[str]) -> Iterator[None]:
    kept = clearing.CLEARING_RULES
    try:
        clearing.CLEARING_RULES = tuple((n, r) for n, r in kept if n not in rules)
        yield
    finally:
        clearing.CLEARING_RULES = kept


def _detect(variant: Variant, current, past, now, times, older) -> list:
    stages, rules = variant
    with _rules_off(rules):
        return run_detection(
            current,
            past,
            ZSCORE,
            current_time=now,
            baseline_times=times,
            older=older,
            stages=stages,
        ).findings


def replay_table(name: str, variants: dict[str, Variant]) -> tuple[str, Replay]:
    table = load(name)
    days = table.days
    tables = [t for _, t in days]
    profiles = [profile(t) for t in tables]
    times = [recorded_at(d) for d, _ in days]
    out: Replay = {"quiet": {k: [] for k in variants}, "faults": {}}
    for i in range(ZSCORE.min_history, len(days)):
        if days[i][0] in table.events:
            continue
        lo = max(0, i - ZSCORE.window)
        for key, variant in variants.items():
            found = _detect(
                variant,
                profiles[i],
                profiles[lo:i],
                times[i],
                times[lo:i],
                older_runs(profiles, lo),
            )
            out["quiet"][key].append(_found(found))
    ctx = fault_context(tables, table.date_columns)
    for trial in fault_trials(tables, [d for d, _ in days], table.events, ctx):
        if not trial.changed:
            continue  # nothing was injected (the benchmark does not count it either)
        i = trial.day
        lo = max(0, i - ZSCORE.window)
        current = profile(trial.table)
        for key, variant in variants.items():
            found = _detect(
                variant, current, profiles[lo:i], times[i], times[lo:i], older_runs(profiles, lo)
            )
            out["faults"].setdefault((trial.fault.name, key), []).append(
                _score(trial.fault, trial.column, _found(found))
            )
    return name, out


def _replay(args: argparse.Namespace) -> dict[str, Replay]:
    names = [n for n, e in CORPUS.items() if e.half == "tune"]
    variants = _variants(args.without_stage, args.without_rule)
    with ProcessPoolExecutor(2) as pool:
        return dict(pool.map(replay_table, names, [variants] * len(names)))


def _alarmed(days: list[list]) -> int:
    return sum(1 for found in days if found)


def _totals(replays: dict[str, Replay], key: str) -> tuple[int, int, int]:
    trials = column = head = 0
    for r in replays.values():
        for (fault, k), scores in r["faults"].items():
            if k == key and fault not in ROW_FAULTS:
                trials += len(scores)
                column += sum(c for c, _ in scores)
                head += sum(h for _, h in scores)
    return trials, column, head


def _summary(label: str, replays: dict[str, Replay], key: str) -> str:
    quiet = sum(len(r["quiet"][key]) for r in replays.values())
    alarmed = sum(_alarmed(r["quiet"][key]) for r in replays.values())
    trials, column, head = _totals(replays, key)
    return (
        f"{label}: {alarmed} alarmed quiet days of {quiet} ({100 * alarmed / quiet:.2f} / 100); "
        f"column faults {column} / {head} of {trials} right column / head "
        f"({100 * column / trials:.1f} % / {100 * head / trials:.1f} %)"
    )


def _differences(a: dict[str, Replay], ka: str, b: dict[str, Replay], kb: str) -> list[str]:
    lines = []
    for name in a:
        if name not in b:
            continue
        qa, qb = _alarmed(a[name]["quiet"][ka]), _alarmed(b[name]["quiet"][kb])
        moved = []
        for (fault, k), scores in a[name]["faults"].items():
            if k != ka:
                continue
            other = b[name]["faults"].get((fault, kb), [])
            before = (sum(c for c, _ in scores), sum(h for _, h in scores))
            after = (sum(c for c, _ in other), sum(h for _, h in other))
            if before != after:
                moved.append(f"{fault} {before[0]}/{before[1]} -> {after[0]}/{after[1]}")
        if qa != qb or moved:
            total = len(a[name]["quiet"][ka])
            lines.append(
                f"- {name}: quiet {qa} -> {qb} of {total}" + "".join(f"; {m}" for m in moved)
            )
    return lines


def _per_fault(replays: dict[str, Replay], keys: Sequence[str]) -> list[str]:
    faults = sorted({fault for r in replays.values() for fault, _ in r["faults"]})
    lines = []
    for fault in faults:
        cells = []
        for key in keys:
            scores = [s for r in replays.values() for s in r["faults"].get((fault, key), [])]
            cells.append(f"{sum(c for c, _ in scores)}/{sum(h for _, h in scores)}/{len(scores)}")
        lines.append(f"- {fault}: " + " vs ".join(cells) + " (right column / head / trials)")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--without-stage", action="append", default=[], metavar="NAME")
    parser.add_argument("--without-rule", action="append", default=[], metavar="NAME")
    parser.add_argument("--save", type=Path, help="write this replay here (a pickle)")
    parser.add_argument("--against", type=Path, help="compare with a saved replay")
    args = parser.parse_args(argv)
    stages = {name for name, _ in STAGES}
    for name in args.without_stage:
        if name not in stages:
            parser.error(f"--without-stage {name!r}: not a stage ({', '.join(sorted(stages))})")
    rules = {name for name, _ in clearing.CLEARING_RULES}
    for name in args.without_rule:
        if name not in rules:
            parser.error(
                f"--without-rule {name!r}: not a clearing rule ({', '.join(sorted(rules))})"
            )
    replays = _replay(args)
    if args.save is not None:
        args.save.write_bytes(pickle.dumps(replays))
    changed = bool(args.without_stage or args.without_rule)
    if args.against is not None:
        before = pickle.loads(args.against.read_bytes())
        print(_summary(f"saved ({args.against})", before, "with"))
        print(_summary("now", replays, "with"))
        print(*_differences(before, "with", replays, "with"), sep="\n")
        return 0
    print(_summary("as it is", replays, "with"))
    if changed:
        print(
            _summary(
                "without " + ", ".join(args.without_stage + args.without_rule), replays, "without"
            )
        )
        print(*_per_fault(replays, ["with", "without"]), sep="\n")
        print(*_differences(replays, "with", replays, "without"), sep="\n")
    else:
        print(*_per_fault(replays, ["with"]), sep="\n")
    kinds = Counter(m for r in replays.values() for day in r["quiet"]["with"] for _, m in day)
    print("quiet-day findings by metric:", dict(kinds.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
