"""One seed of one table: profile its days, replay the rolling baseline, run every detector.

The baseline is replayed as the store keeps it under ``on_drift: warn``: every run
joins, the newest ``window`` runs are used, and nothing is judged before
``min_history`` runs. faucet gets the runs' recorded times (02:00 UTC the day after
each date), as the store passes them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from faults import FAULTS
from literal import literal_detect
from tables import TABLES, run_date, to_arrow

from faucet_core import ProfilingConfig, TableProfile, profile
from faucet_core.config import DriftMethod
from faucet_core.drift import DriftFinding, detect_drift

Finding = tuple[str, str]
Detector = Callable[[TableProfile, Sequence[TableProfile], int, int], list[Finding]]
"""(current, baseline window, seed, day) -> findings."""

ZSCORE = ProfilingConfig()
IQR = ProfilingConfig(method=DriftMethod.IQR)


def recorded_at(seed: int, day: int) -> dt.datetime:
    """A nightly job: 02:00 UTC the day after the data's date."""
    return dt.datetime.combine(
        run_date(seed, day) + dt.timedelta(days=1), dt.time(2, 0), dt.timezone.utc
    )


def faucet_detect(
    current: TableProfile,
    baseline: Sequence[TableProfile],
    config: ProfilingConfig,
    seed: int,
    day: int,
) -> list[DriftFinding]:
    """detect_drift with the runs' recorded times, as the store passes them."""
    first = day - len(baseline)
    return detect_drift(
        current,
        baseline,
        config,
        current_time=recorded_at(seed, day),
        baseline_times=[recorded_at(seed, first + i) for i in range(len(baseline))],
    )


def _ours(config: ProfilingConfig) -> Detector:
    def run(
        current: TableProfile, baseline: Sequence[TableProfile], seed: int, day: int
    ) -> list[Finding]:
        return [
            (f.column, f.metric.value) for f in faucet_detect(current, baseline, config, seed, day)
        ]

    return run


def _literal(config: ProfilingConfig) -> Detector:
    def run(
        current: TableProfile, baseline: Sequence[TableProfile], seed: int, day: int
    ) -> list[Finding]:
        return literal_detect(current, baseline, config)

    return run


DETECTORS: dict[str, Detector] = {
    "faucet zscore": _ours(ZSCORE),
    "faucet iqr": _ours(IQR),
    "literal zscore": _literal(ZSCORE),
    "literal iqr": _literal(IQR),
}

FAULT_DAYS = (5, 6, 8, 12, 19, 26, 33, 40, 47, 54)
EXAMPLE_DAY = 19
"""Fault days: 5 and 6 judge against the shortest baseline (min_history runs)."""
PERSIST_FROM = 26
PERSIST_RUNS = 12


@dataclass
class SeedResult:
    table: str
    seed: int
    stable: dict[str, list[tuple[int, list[Finding]]]] = field(default_factory=dict)
    faults: dict[str, dict[str, list[tuple[int, list[Finding]]]]] = field(default_factory=dict)
    repeats: dict[str, dict[str, list[tuple[int, list[Finding]]]]] = field(default_factory=dict)
    persist: dict[str, dict[str, int]] = field(default_factory=dict)
    examples: dict[str, list[str]] = field(default_factory=dict)
    """faucet zscore's messages for each fault on EXAMPLE_DAY (seed 0 only)."""
    profiles: int = 0


def _window(profiles: Sequence[TableProfile], day: int) -> list[TableProfile]:
    return list(profiles[max(0, day - ZSCORE.window) : day])


def run_seed(table: str, seed: int, days: int, persist: bool) -> SeedResult:
    gen, types = TABLES[table]
    result = SeedResult(table, seed)
    clean = [profile(to_arrow(gen(seed, d), types)) for d in range(days)]
    result.profiles += days
    for name, detect in DETECTORS.items():
        result.stable[name] = [
            (d, detect(clean[d], _window(clean, d), seed, d))
            for d in range(ZSCORE.min_history, days)
        ]
    if table != "orders":
        return result
    fault_days = [d for d in FAULT_DAYS if d < days]
    faulted: dict[tuple[str, int], TableProfile] = {}
    for index, fault in enumerate(FAULTS):
        for d in fault_days:
            rng = np.random.default_rng([3, seed, d, index])
            faulted[fault.name, d] = profile(to_arrow(fault.edit(gen(seed, d), rng), types))
            result.profiles += 1
    if seed == 0 and EXAMPLE_DAY in fault_days:
        for fault in FAULTS:
            found = faucet_detect(
                faulted[fault.name, EXAMPLE_DAY],
                _window(clean, EXAMPLE_DAY),
                ZSCORE,
                seed,
                EXAMPLE_DAY,
            )
            result.examples[fault.name] = [f.message for f in found]
    for name, detect in DETECTORS.items():
        result.faults[name] = {}
        result.repeats[name] = {}
        for fault in FAULTS:
            result.faults[name][fault.name] = [
                (d, detect(faulted[fault.name, d], _window(clean, d), seed, d)) for d in fault_days
            ]
            repeats = []
            for d in fault_days:
                earlier = d - 7
                if (fault.name, earlier) not in faulted:
                    continue
                history = list(clean)
                history[earlier] = faulted[fault.name, earlier]  # joined under warn
                repeats.append((d, detect(faulted[fault.name, d], _window(history, d), seed, d)))
            result.repeats[name][fault.name] = repeats
    if persist and days > PERSIST_FROM:
        _persistent(result, seed, clean, days)
    return result


def _persistent(result: SeedResult, seed: int, clean: list[TableProfile], days: int) -> None:
    """The fault stays from PERSIST_FROM on and every run joins the baseline (warn):
    how many runs in a row report the fault's column before it becomes the norm?"""
    gen, types = TABLES["orders"]
    for index, fault in enumerate(FAULTS):
        history = list(clean[:PERSIST_FROM])
        for d in range(PERSIST_FROM, min(days, PERSIST_FROM + PERSIST_RUNS)):
            rng = np.random.default_rng([4, seed, d, index])
            history.append(profile(to_arrow(fault.edit(gen(seed, d), rng), types)))
            result.profiles += 1
        for name, detect in DETECTORS.items():
            streak = 0
            for d in range(PERSIST_FROM, len(history)):
                found = detect(history[d], _window(history, d), seed, d)
                if not any(col == fault.column for col, _ in found):
                    break
                streak += 1
            result.persist.setdefault(name, {})[fault.name] = streak
