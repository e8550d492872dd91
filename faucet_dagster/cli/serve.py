"""``faucet serve`` (the HTTP API) and ``faucet audit`` (its audit log)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from faucet_core.errors import ConfigError
from faucet_dagster.cli.common import (
    add_location_args,
    location_from,
    location_of,
    location_target,
)
from faucet_dagster.cli.proxy import add_proxy_args, proxy_options

__all__ = ["add_serve_parsers"]


def _cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from faucet_dagster.serve import create_app, load_tokens

    target = location_target(args)  # once: the workers load what is found here
    location = location_from(target, needed_by="faucet serve")
    assert location is not None
    if args.workers < 1:
        raise ConfigError(f"--workers {args.workers}: give 1 or more")
    proxies = proxy_options(args)
    tokens = load_tokens(args.tokens)
    from faucet_dagster.serve.console import (
        ENV_DAGSTER_URL,
        ENV_SESSION_SECRET,
        dagster_url,
        session_secret,
    )

    dagster = dagster_url(args.dagster_url or os.environ.get(ENV_DAGSTER_URL))
    session_secret()  # a FAUCET_SESSION_SECRET too short is refused before serving
    if args.workers > 1 and not os.environ.get(ENV_SESSION_SECRET):
        print(
            f"faucet serve: {ENV_SESSION_SECRET} is not set, so each of the {args.workers} "
            "workers signs console sessions with its own random secret and a browser is signed "
            f"out whenever another worker answers: set {ENV_SESSION_SECRET} (32+ characters)",
            file=sys.stderr,
            flush=True,
        )
    from faucet_dagster.cli.common import announce_new_store

    announce_new_store(args.store or location.store_url())
    print(
        f"faucet serve: {location.name} on http://{args.host}:{args.port} "
        f"({len(tokens)} token(s), {args.workers} worker(s)); Ctrl-C stops\n"
        f"  web console: http://{args.host}:{args.port}/ui/",
        flush=True,
    )
    options: dict[str, Any] = {
        "host": args.host,
        "port": args.port,
        "log_level": args.log_level,
        "ws": "none",
        **proxies,
    }
    if args.workers == 1:
        uvicorn.run(create_app(location, tokens, args.store, dagster_url=dagster), **options)
        return 0
    from faucet_dagster.serve.app import ENV_SERVE

    spec = {
        **(target or {}),  # as found here: -m/-f/-d or the project files
        "store": args.store,
        "tokens": args.tokens,
        "dagster_url": dagster,
    }
    os.environ[ENV_SERVE] = json.dumps(spec)  # each worker process builds its own app
    uvicorn.run(
        "faucet_dagster.serve.app:app_from_env", factory=True, workers=args.workers, **options
    )
    return 0


def _cmd_audit(args: argparse.Namespace) -> int:
    from faucet_core.store.audit import list_audit
    from faucet_dagster.cli.common import open_store

    with open_store(args, location_of(args)) as store:
        entries = list_audit(store.engine, limit=args.limit, action=args.action, actor=args.actor)
    if args.json:
        print(json.dumps([e.to_dict() for e in entries], indent=2))
        return 0
    if not entries:
        print("no audit entries")
        return 0
    for e in entries:
        when = e.at.strftime("%Y-%m-%dT%H:%M:%SZ")
        print(
            f"{when}  {e.actor} ({e.role})  {e.action} {e.target or '-'}  "
            f"{e.outcome.value} {e.status}"
        )
    return 0


def add_serve_parsers(sub: Any) -> None:
    """``faucet serve`` and ``faucet audit``."""
    s = sub.add_parser("serve", help="the HTTP API: plan, catalog, lineage, metrics")
    add_location_args(s)
    s.add_argument("--host", default="127.0.0.1", help="address to listen on")
    s.add_argument("--port", type=int, default=8765, help="port to listen on (default 8765)")
    s.add_argument("--workers", type=int, default=1, help="uvicorn worker processes (default 1)")
    s.add_argument("--tokens", help="JSON or YAML file of name/role/token (adds $FAUCET_TOKENS)")
    s.add_argument(
        "--dagster-url",
        help="the Dagster UI's base URL, for the console's asset links (else $FAUCET_DAGSTER_URL)",
    )
    add_proxy_args(s)
    s.add_argument(
        "--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"]
    )
    s.set_defaults(func=_cmd_serve)

    a = sub.add_parser("audit", help="list the HTTP API's audit log, newest first")
    add_location_args(a)
    a.add_argument("--limit", type=int, default=100, help="entries to show (default 100)")
    a.add_argument("--action", help="only this action (plan, catalog.annotate, lineage.ingest)")
    a.add_argument("--actor", help="only this token name")
    a.add_argument("--json", action="store_true")
    a.set_defaults(func=_cmd_audit)
