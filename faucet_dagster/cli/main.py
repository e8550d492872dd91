"""Entry point of the ``faucet`` console script: one error handler, thin commands."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from faucet_core.errors import FaucetError

__all__ = ["build_parser", "main"]


def _cmd_profile(args: argparse.Namespace) -> int:
    from faucet_core.profile.files import profile_file
    from faucet_dagster.cli.render import render_profile

    prof = profile_file(args.path)
    if args.json:
        print(json.dumps(prof.to_dict(sketches=False), indent=2, default=str, allow_nan=False))
    else:
        print(render_profile(prof, title=args.path, every_value=True))
    return 0


def _cmd_schema(args: argparse.Namespace) -> int:
    from faucet_core.config import profiling_json_schema

    print(json.dumps(profiling_json_schema(), indent=2))
    return 0


def _cmd_metrics(args: argparse.Namespace) -> int:
    if args.rules or args.dashboard:  # shipped files: no store is opened
        from faucet_core import monitoring

        sys.stdout.write(monitoring.read(monitoring.RULES if args.rules else monitoring.DASHBOARD))
        return 0
    from faucet_core.store.metrics import exposition
    from faucet_dagster.cli.common import location_of, open_store

    with open_store(args, location_of(args)) as store:
        if args.port is None:
            sys.stdout.write(exposition(store).decode())
            return 0
        from faucet_dagster.cli.metrics_server import serve_metrics

        serve_metrics(store, args.host, args.port)
    return 0


def build_parser() -> argparse.ArgumentParser:
    from faucet_dagster.cli import profiling
    from faucet_dagster.cli.common import add_location_args
    from faucet_dagster.cli.doctor import cmd_doctor

    parser = argparse.ArgumentParser(
        prog="faucet", description="faucet: column profiling, drift and change impact for Dagster"
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser(
        "profile", help="profile a JSON lines, CSV, Parquet or Arrow IPC file and print it"
    )
    p.add_argument("path")
    p.add_argument("--json", action="store_true", help="print the profile as JSON")
    p.set_defaults(func=_cmd_profile)

    prof = sub.add_parser("profiling", help="inspect or reset profile baselines")
    psub = prof.add_subparsers(dest="profiling_command", required=True)
    show = psub.add_parser("show", help="latest profile and drift per baseline")
    add_location_args(show)
    show.add_argument("--select", action="append", help="asset key (repeatable)")
    show.add_argument("--full", action="store_true", help="every statistic and trend")
    show.add_argument("--json", action="store_true")
    show.set_defaults(func=profiling.cmd_show)
    reset = psub.add_parser("reset", help="forget baseline history (re-baseline)")
    add_location_args(reset)
    reset.add_argument("--select", action="append", help="asset key (repeatable)")
    reset.add_argument("--all", action="store_true", help="every baseline in the store")
    reset.add_argument("--column", help="only this column's history")
    reset.add_argument("--partition", help="only this partition's baseline")
    reset.add_argument("--json", action="store_true")
    reset.set_defaults(func=profiling.cmd_reset)

    doctor = sub.add_parser(
        "doctor", help="store reachable, schema complete, every baseline readable; exit 1 if not"
    )
    add_location_args(doctor)
    doctor.add_argument("--json", action="store_true")
    doctor.add_argument(
        "--repair",
        action="store_true",
        help="move damaged and orphan runs to the quarantine table faucet_quarantine",
    )
    doctor.set_defaults(func=cmd_doctor)

    m = sub.add_parser("metrics", help="print (or serve) the Prometheus metrics of the store")
    add_location_args(m)
    m.add_argument("--port", type=int, help="serve /metrics on this port instead of printing")
    m.add_argument("--host", default="127.0.0.1", help="address to serve on (with --port)")
    shipped = m.add_mutually_exclusive_group()
    shipped.add_argument(
        "--rules", action="store_true", help="print the shipped Prometheus alerting rules"
    )
    shipped.add_argument(
        "--dashboard", action="store_true", help="print the shipped Grafana dashboard (JSON)"
    )
    m.set_defaults(func=_cmd_metrics)

    from faucet_dagster.cli.catalog import add_catalog_parser
    from faucet_dagster.cli.lineage import add_lineage_parser
    from faucet_dagster.cli.plan import add_plan_parser
    from faucet_dagster.cli.serve import add_serve_parsers

    add_catalog_parser(sub)
    add_lineage_parser(sub)
    add_plan_parser(sub)
    add_serve_parsers(sub)

    s = sub.add_parser("schema", help="print a config block's JSON Schema")
    s.add_argument("block", choices=["profiling"])
    s.set_defaults(func=_cmd_schema)
    return parser


SIGPIPE_EXIT = 141
"""Exit status when the reader of our output went away (128 + SIGPIPE, what a shell reports
for a Unix tool that the signal ended, e.g. ``faucet ... | head``)."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = int(args.func(args))
        sys.stdout.flush()  # inside the handler: a closed pipe shows up here, not at exit
        return code
    except FaucetError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        _silence_stdout()
        return SIGPIPE_EXIT


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that Python's final flush of the output still buffered
    for the closed pipe does not print a second error at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout is not a real file (embedded use): nothing to do
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
