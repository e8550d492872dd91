"""``faucet doctor [--repair]``: is the store reachable, complete, and readable by the
detector? Exit 1 when it is not, naming each damaged run and what to do.

It reads what a profile check reads: every stored run of every baseline (as ``faucet
profiling show`` does) and each baseline's detection window, decoded and computed with
(as ``record`` does). ``--repair`` moves damaged and orphan runs to the quarantine table
``faucet_quarantine`` (raw row kept as JSON) and checks again. It also says which of the
profiler's fast paths this installation has (:mod:`faucet_core.profile.speedups`); a missing
one is advice, not a failure.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from faucet_core.config import ProfilingConfig
from faucet_core.profile.speedups import advice, speedups
from faucet_core.store import BaselineKey, ProfileStore, RunStatus
from faucet_core.store.quarantine import StoreHealth, diagnose, move_to_quarantine
from faucet_dagster.cli.common import location_of, open_store

__all__ = ["cmd_doctor"]

REPAIR = "run `faucet doctor --repair` to move them to the quarantine table (faucet_quarantine)"


def _configs(location: Any) -> dict[str, ProfilingConfig]:
    if location is None:
        return {}
    return {a.key.to_user_string(): a.config for a in location.profiled_assets()}


def _checks(
    store: ProfileStore, configs: dict[str, ProfilingConfig], health: StoreHealth
) -> list[dict[str, Any]]:
    known = {h.key: h for h in health.keys}
    names = sorted(set(configs) | {k.key for k in known})
    checks = []
    for name in names:
        cfg = configs.get(name, ProfilingConfig())
        parts = sorted(k for k in known if k.key == name) or [BaselineKey(name)]
        for key in parts:
            item = known.get(key)
            # What the detector can use: the readable runs of the window (damaged ones are
            # listed below and left out).
            depth = (
                item.baseline_runs
                if item is not None
                else store.baseline_depth(key.key, partition=key.partition or None)
            )
            latest = store.latest(key.key, partition=key.partition or None)
            if depth < cfg.min_history:
                state = f"warming up: {depth} of {cfg.min_history} run(s)"
            else:
                state = f"{depth} run(s) in the baseline"
            checks.append(
                {
                    "key": str(key),
                    "baseline_runs": depth,
                    "min_history": cfg.min_history,
                    "state": state,
                    "last_status": latest.status.value if latest else None,
                    "last_drifted": bool(latest and latest.status is RunStatus.DRIFTED),
                    "findings": len(latest.findings) if latest else 0,
                    "damaged": [d.to_dict() for d in item.damaged] if item else [],
                }
            )
    return checks


def _report(store: ProfileStore, configs: dict[str, ProfilingConfig]) -> dict[str, Any]:
    version = store.check()
    health = diagnose(store, configs)
    report: dict[str, Any] = {
        "store": store.url,
        "schema_version": version,
        "healthy": health.healthy,
        "schema_problems": list(health.schema_problems),
        "orphans": [o.to_dict() for o in health.orphans],
        "checks": [] if health.schema_problems else _checks(store, configs, health),
        "profiler": speedups(),
    }
    return report


def cmd_doctor(args: argparse.Namespace) -> int:
    location = location_of(args)
    configs = _configs(location)
    repaired = None
    with open_store(args, location) as store:
        report = _report(store, configs)
        if getattr(args, "repair", False) and not report["schema_problems"]:
            health = diagnose(store, configs)
            repaired = move_to_quarantine(store, [*health.damaged, *health.orphans])
            report = _report(store, configs)
    if repaired is not None:
        report["quarantined"] = repaired
    if args.json:
        print(json.dumps(report, indent=2))
        return 0 if report["healthy"] else 1
    print(f"store: {report['store']} (reachable, schema version {report['schema_version']})")
    for problem in report["schema_problems"]:
        print(f"  ! {problem}")
    fast = report["profiler"]
    hashed = "compiled" if fast["compiled_hash"] else "numpy"
    sort = "SIMD" if fast["simd_sort"] else "scalar"
    print(f"profiler: {hashed} distinct-count hash, numpy {sort} sort")
    for line in advice(fast):
        print(f"  - {line}")
    if not report["checks"] and not report["schema_problems"]:
        print("no profile checks or baselines found")
    damaged = 0
    for c in report["checks"]:
        last = c["last_status"] or "never ran"
        drift = f" ({c['findings']} finding(s))" if c["last_drifted"] else ""
        print(f"  {c['key']}: {c['state']}; last run {last}{drift}")
        for run in c["damaged"]:
            damaged += 1
            print(f"    ! damaged run (row {run['row']}): {run['reason']}")
    for orphan in report["orphans"]:
        print(f"  ! orphan run: {orphan['reason']}")
    if repaired is not None:
        print(f"repaired: moved {repaired} run(s) to the quarantine table faucet_quarantine")
    if report["schema_problems"]:
        print(
            "unhealthy: part of the store's schema is missing; restore the store from a "
            "backup, or point the store URL at a new database"
        )
        return 1
    if not report["healthy"]:
        counts = []
        if damaged:
            counts.append(f"{damaged} damaged run(s)")
        if report["orphans"]:
            counts.append(f"{len(report['orphans'])} orphan run(s)")
        print(f"unhealthy: {' and '.join(counts)}; {REPAIR}")
        return 1
    print("healthy: every stored run can be read, and every baseline used by the detector")
    return 0
