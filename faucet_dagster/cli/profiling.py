"""``faucet profiling show|reset`` (``faucet doctor`` lives in :mod:`.doctor`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from faucet_core.config import ProfilingConfig
from faucet_core.errors import ConfigError
from faucet_core.store import BaselineKey, ProfileRun, ProfileStore, SkippedRun
from faucet_dagster.checks.summary import drift_marks, sparkline
from faucet_dagster.cli.common import location_of, open_store
from faucet_dagster.cli.render import render_column

__all__ = ["cmd_reset", "cmd_show"]


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
            marks = drift_marks(col.name, (r.findings for r in seen))
            lines.append(f"        null-rate trend {sparkline(rates, marks)}")
    return "\n".join(lines)


def _warn_damaged(skipped: list[SkippedRun]) -> None:
    for run in skipped:
        print(
            f"warning: {run.reason}; it is left out (run `faucet doctor --repair` to move it "
            "to the quarantine table)",
            file=sys.stderr,
        )


def cmd_show(args: argparse.Namespace) -> int:
    location, _configs_by_key = _configs(args)
    with open_store(args, location) as store:
        keys = _selected(store, args.select)
        reads = [
            (key, store.read_history(key.key, partition=key.partition or None)) for key in keys
        ]
    for _, read in reads:
        _warn_damaged(read.skipped)
    if args.json:
        out = []
        for key, read in reads:
            runs = read.runs
            out.append(
                {
                    "key": key.key,
                    "partition": key.partition or None,
                    "baseline_runs": sum(1 for r in runs if r.in_baseline),
                    "latest": runs[-1].to_dict(sketches=False) if runs else None,
                    "damaged_runs": [s.to_dict() for s in read.skipped],
                }
            )
        print(json.dumps(out, indent=2, default=str))
        return 0
    if not keys:
        print(f"no profiles recorded in {store.url}")
        return 0
    blocks = [render_key(key, read.runs, full=args.full) for key, read in reads if read.runs]
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
