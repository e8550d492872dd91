"""Entry point of the ``faucet`` console script: one error handler, thin commands."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from faucet_core.errors import FaucetError

__all__ = ["main"]


def _cmd_profile(args: argparse.Namespace) -> int:
    from faucet_core.profile.files import profile_file
    from faucet_dagster.cli.render import render_profile

    prof = profile_file(args.path)
    if args.json:
        print(json.dumps(prof.to_dict(sketches=False), indent=2, default=str))
    else:
        print(render_profile(prof, title=args.path))
    return 0


def _cmd_schema(args: argparse.Namespace) -> int:
    from faucet_core.config import profiling_json_schema

    print(json.dumps(profiling_json_schema(), indent=2))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="faucet", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("profile", help="profile a JSON lines, CSV or Parquet file and print it")
    p.add_argument("path")
    p.add_argument("--json", action="store_true", help="print the profile as JSON")
    p.set_defaults(func=_cmd_profile)
    s = sub.add_parser("schema", help="print a config block's JSON Schema")
    s.add_argument("block", choices=["profiling"])
    s.set_defaults(func=_cmd_schema)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except FaucetError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
