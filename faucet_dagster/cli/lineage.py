"""``faucet lineage ingest|serve``."""

from __future__ import annotations

import argparse
import json
from typing import Any

from faucet_dagster.cli.catalog import open_catalog
from faucet_dagster.cli.common import add_location_args
from faucet_dagster.cli.proxy import add_proxy_args, proxy_options

__all__ = ["add_lineage_parser"]


def _cmd_ingest(args: argparse.Namespace) -> int:
    from faucet_core.lineage import ingest

    with open_catalog(args, writes=True) as catalog:
        result = ingest(catalog, args.sources)
        if args.json:
            print(json.dumps({"catalog": catalog.url, **result.to_dict()}))
            return 0
        s = result.summary
        print(
            f"ingested {s.events} event(s) from {len(result.sources)} source(s) into "
            f"{catalog.url}: {s.complete} COMPLETE, {s.runs} run(s), {s.datasets} dataset(s) "
            f"({s.new_datasets} new), {s.edges} edge(s) written"
        )
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from faucet_core.lineage import LINEAGE_PATH
    from faucet_dagster.serve.api.auth import load_tokens
    from faucet_dagster.serve.api.lineage_app import check_bind, create_lineage_app

    tokens = load_tokens(args.tokens, required=False)
    check_bind(args.host, tokens)
    proxies = proxy_options(args)
    with open_catalog(args, writes=True) as catalog:
        app = create_lineage_app(
            catalog, tokens, host=args.host, allowed_hosts=args.allowed_host or ()
        )
        print(
            f"faucet: receiving OpenLineage events on http://{args.host}:{args.port}"
            f"{LINEAGE_PATH} into {catalog.url}",
            flush=True,
        )
        if len(tokens):
            print(
                f"faucet: {len(tokens)} token(s); posts need an ingest, operator or admin one",
                flush=True,
            )
        else:
            print("faucet: no tokens: anyone on this machine may post (loopback only)", flush=True)
        uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, **proxies)
    return 0


def add_lineage_parser(sub: Any) -> None:
    """``faucet lineage ...``."""
    lin = sub.add_parser("lineage", help="OpenLineage: ingest events, receive them over HTTP")
    lsub = lin.add_subparsers(dest="lineage_command", required=True)

    ing = lsub.add_parser("ingest", help="ingest RunEvents from files, folders or - (stdin)")
    ing.add_argument("sources", nargs="+", metavar="FILE|DIR|-")
    add_location_args(ing)
    ing.add_argument("--json", action="store_true")
    ing.set_defaults(func=_cmd_ingest)

    srv = lsub.add_parser("serve", help="receive events on POST /api/v1/lineage")
    add_location_args(srv)
    srv.add_argument("--port", type=int, default=5000)
    srv.add_argument(
        "--host", default="127.0.0.1", help="address to listen on; not loopback: tokens needed"
    )
    srv.add_argument(
        "--tokens", help="JSON or YAML file of name/role/token (adds $FAUCET_TOKENS); ingest role"
    )
    srv.add_argument(
        "--allowed-host",
        action="append",
        metavar="NAME",
        help="also accept this Host name (repeatable); without tokens only the listening "
        "address and localhost are accepted",
    )
    add_proxy_args(srv)
    srv.add_argument(
        "--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"]
    )
    srv.set_defaults(func=_cmd_serve)
