"""``faucet plan --impact``: who breaks if this change ships (one asset or a change set)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from faucet_core.errors import ConfigError
from faucet_core.impact import (
    DEFAULT_DEPTH,
    ChangeImpact,
    ImpactSeverity,
    render_change_text,
    render_markdown,
    render_text,
)
from faucet_dagster.cli.common import add_location_args, location_of

__all__ = ["EXIT_FAIL_ON", "FORMATS", "add_plan_parser"]

EXIT_FAIL_ON = 3
"""Exit status when the report reaches ``--fail-on`` (1 stays "error")."""

FORMATS = ("text", "json", "markdown")


def _render(change: ChangeImpact, fmt: str, location: str) -> str:
    """One asset keeps the single-report shapes (``{"impact": ...}``); several are one
    combined report (``{"change": ...}``). Markdown is always the pull-request comment."""
    if fmt == "markdown":
        return render_markdown(change).rstrip("\n")
    single = change.plans[0] if len(change.plans) == 1 else None
    if fmt == "json":
        data = single.report.to_dict() if single and single.report else change.to_dict()
        return json.dumps(data, indent=2)
    if single is not None and single.report is not None:
        return f"Plan for asset {single.asset} ({location}):\n{render_text(single.report)}"
    return f"Plan for {len(change.plans)} assets ({location}):\n{render_change_text(change)}"


def _cmd_plan(args: argparse.Namespace) -> int:
    from faucet_dagster.cli.catalog import open_catalog
    from faucet_dagster.plan.impact import plan_change_impact

    if not args.impact:
        raise ConfigError("faucet plan needs --impact (the only plan so far)")
    if args.depth < 0:
        raise ConfigError(f"--depth {args.depth} is negative: give 0 (the sink only) or more")
    fmt = "json" if args.json else args.format
    if args.json and args.format not in ("text", "json"):
        raise ConfigError(f"--json and --format {args.format} disagree: give one of them")
    location = location_of(args, needed_by="faucet plan --impact")
    assert location is not None
    with open_catalog(args, location) as catalog:
        change = plan_change_impact(
            catalog, location.defs, args.select, sample=args.sample, depth=args.depth
        )
    print(_render(change, fmt, location.name))
    if args.fail_on is not None and change.severity.rank >= ImpactSeverity(args.fail_on).rank:
        return EXIT_FAIL_ON
    return 0


def add_plan_parser(sub: Any) -> None:
    p = sub.add_parser("plan", help="change impact: who breaks if this change ships")
    add_location_args(p)
    p.add_argument("--impact", action="store_true", help="report the change's impact")
    p.add_argument(
        "--select",
        required=True,
        action="append",
        help="asset key (a/b) or Dagster asset selection (tag:, group:, +, ...); repeat it "
        "to plan a change set as one report",
    )
    p.add_argument(
        "--sample",
        help="JSON lines, CSV with a header, Parquet or Arrow IPC of what the (one) selected "
        "asset would write",
    )
    p.add_argument("--depth", type=int, default=DEFAULT_DEPTH, help="hops downstream (default 5)")
    p.add_argument(
        "--fail-on",
        choices=[
            ImpactSeverity.BREAKING.value,
            ImpactSeverity.UNKNOWN.value,
            ImpactSeverity.ADDITIVE.value,
        ],
        help=f"exit {EXIT_FAIL_ON} when the impact is this severe or worse (for CI)",
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text (default), json, or markdown (a pull-request comment)",
    )
    p.add_argument("--json", action="store_true", help="the same as --format json")
    p.set_defaults(func=_cmd_plan)
