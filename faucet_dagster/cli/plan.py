"""``faucet plan --impact``: who breaks if this asset's change ships."""

from __future__ import annotations

import argparse
import json
from typing import Any

from faucet_core.errors import ConfigError
from faucet_core.impact import DEFAULT_DEPTH, Severity, render_text
from faucet_dagster.cli.common import add_location_args, location_of

__all__ = ["EXIT_FAIL_ON", "add_plan_parser"]

EXIT_FAIL_ON = 3
"""Exit status when the report reaches ``--fail-on`` (1 stays "error")."""


def _cmd_plan(args: argparse.Namespace) -> int:
    from faucet_dagster.cli.catalog import open_catalog
    from faucet_dagster.plan import plan_asset_impact

    if not args.impact:
        raise ConfigError("faucet plan needs --impact (the only plan so far)")
    if args.depth < 0:
        raise ConfigError(f"--depth {args.depth} is negative: give 0 (the sink only) or more")
    location = location_of(args)
    if location is None:
        raise ConfigError("faucet plan --impact needs a code location: -m MODULE or -f FILE")
    with open_catalog(args, location) as catalog:
        report = plan_asset_impact(
            catalog, location.defs, args.select, sample=args.sample, depth=args.depth
        )
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        print(f"Plan for asset {args.select} ({location.name}):")
        print(render_text(report))
    if args.fail_on is not None and report.severity.rank >= Severity(args.fail_on).rank:
        return EXIT_FAIL_ON
    return 0


def add_plan_parser(sub: Any) -> None:
    p = sub.add_parser("plan", help="change impact: who breaks if this asset's change ships")
    add_location_args(p, required=True)
    p.add_argument("--impact", action="store_true", help="report the change's impact")
    p.add_argument("--select", required=True, help="asset key (a/b)")
    p.add_argument("--sample", help="JSON lines, CSV or Parquet of what the asset would write")
    p.add_argument("--depth", type=int, default=DEFAULT_DEPTH, help="hops downstream (default 5)")
    p.add_argument(
        "--fail-on",
        choices=[Severity.BREAKING.value, Severity.UNKNOWN.value, Severity.ADDITIVE.value],
        help=f"exit {EXIT_FAIL_ON} when the impact is this severe or worse (for CI)",
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=_cmd_plan)
