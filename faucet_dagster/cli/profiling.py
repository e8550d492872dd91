"""``faucet profiling show|reset`` and ``faucet doctor``."""

from __future__ import annotations

import argparse
import json
from typing import Any

from faucet_core.config import ProfilingConfig
from faucet_core.errors import ConfigError
from faucet_core.store import BaselineKey, ProfileRun, ProfileStore, RunStatus
from faucet_dagster.cli.common import location_of, open_store
from faucet_dagster.cli.render import render_column
from faucet_dagster.summary import sparkline

__all__ = ["cmd_doctor", "cmd_reset", "cmd_show"]


def _selected(store: ProfileStore, select: list[str] | None) -> list[BaselineKey]:
    keys = store.keys()
    if select:
        keys = [k for k in keys if k.key in select]
    return keys


def _configs(args: argparse.Namespace) -> tuple[Any, dict[str, ProfilingConfig]]:
    location = location_of(args)
    configs = {}
    if location is not None:
        configs = {a.key.to_user_string(): a.config for a in location.profiled_assets()}
    return location, configs


def render_key(key: BaselineKey, runs: list[ProfileRun], *, full: bool) -> str:
    latest = runs[-1]
    depth = sum(1 for r in runs if r.in_baseline)
    prof = latest.profile
    lines = [
        f"{key} — {depth} run(s) in the baseline",
        f"  latest run {latest.run_id or latest.seq} at "
        f"{latest.recorded_at.strftime('%Y-%m-%dT%H:%M:%SZ')}: "
        f"{prof.row_count:,} row(s), {len(prof.columns)} column(s) [{latest.status.value}]",
    ]
    if latest.findings:
        lines.append(f"  drift: {len(latest.findings)} finding(s)")
        lines.extend(f"    ! {f.headline}" for f in latest.findings)
    else:
        lines.append("  drift: none")
    lines.append("  columns:")
    for col in prof.columns.values():
        text = render_column(col, full=full)
        lines.append("  " + text.replace("\n", "\n  "))
        if full:
            seen = [r for r in runs if col.name in r.profile.columns]
            rates = [r.profile.columns[col.name].null_rate for r in seen]
            marks = [any(f.column == col.name for f in r.findings) for r in seen]
            lines.append(f"        null-rate trend {sparkline(rates, marks)}")
    return "\n".join(lines)


def cmd_show(args: argparse.Namespace) -> int:
    location, _configs_by_key = _configs(args)
    with open_store(args, location) as store:
        keys = _selected(store, args.select)
        if args.json:
            out = []
            for key in keys:
                runs = store.history(key.key, partition=key.partition or None)
                out.append(
                    {
                        "key": key.key,
                        "partition": key.partition or None,
                        "baseline_runs": sum(1 for r in runs if r.in_baseline),
                        "latest": runs[-1].to_dict(sketches=False) if runs else None,
                    }
                )
            print(json.dumps(out, indent=2, default=str))
            return 0
        if not keys:
            print(f"no profiles recorded in {store.url}")
            return 0
        blocks = []
        for key in keys:
            runs = store.history(key.key, partition=key.partition or None)
            if runs:
                blocks.append(render_key(key, runs, full=args.full))
        print("\n\n".join(blocks))
    return 0


def cmd_reset(args: argparse.Namespace) -> int:
    if not args.select and not args.all:
        raise ConfigError("say what to reset: --select ASSET (repeatable) or --all")
    location, _ = _configs(args)
    with open_store(args, location) as store:
        keys = sorted({k.key for k in store.keys()}) if args.all else args.select
        total = 0
        for key in keys:
            count = store.reset(key, column=args.column, partition=args.partition)
            what = key + (f" partition {args.partition}" if args.partition else "")
            what += f" column {args.column}" if args.column else ""
            print(f"reset {what}: {count} run(s) affected")
            total += count
        if args.json:
            print(json.dumps({"reset": keys, "runs": total}))
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    location, configs = _configs(args)
    report: dict[str, Any] = {"store": None, "schema_version": None, "checks": []}
    with open_store(args, location) as store:
        report["store"] = store.url
        report["schema_version"] = store.check()
        known = set(store.keys())
        names = sorted(set(configs) | {k.key for k in known})
        for name in names:
            cfg = configs.get(name, ProfilingConfig())
            parts = sorted(k for k in known if k.key == name) or [BaselineKey(name)]
            for key in parts:
                depth = store.baseline_depth(key.key, partition=key.partition or None)
                latest = store.latest(key.key, partition=key.partition or None)
                if depth < cfg.min_history:
                    state = f"warming up: {depth} of {cfg.min_history} run(s)"
                else:
                    state = f"{depth} run(s) in the baseline"
                report["checks"].append(
                    {
                        "key": str(key),
                        "baseline_runs": depth,
                        "min_history": cfg.min_history,
                        "state": state,
                        "last_status": latest.status.value if latest else None,
                        "last_drifted": bool(latest and latest.status is RunStatus.DRIFTED),
                        "findings": len(latest.findings) if latest else 0,
                    }
                )
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"store: {report['store']} (reachable, schema version {report['schema_version']})")
    if not report["checks"]:
        print("no profile checks or baselines found")
    for c in report["checks"]:
        last = c["last_status"] or "never ran"
        drift = f" ({c['findings']} finding(s))" if c["last_drifted"] else ""
        print(f"  {c['key']}: {c['state']}; last run {last}{drift}")
    return 0
