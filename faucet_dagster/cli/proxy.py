"""Which proxies ``faucet serve`` and ``faucet lineage serve`` believe.

uvicorn, left to itself, takes the client address and scheme from ``X-Forwarded-For`` and
``X-Forwarded-Proto`` of any request that comes from 127.0.0.1 (or from the addresses in
``$FORWARDED_ALLOW_IPS``). Then anything on this machine, or any proxy, names the client
it likes: the audit log records a forged address, and the bound on refusals per client
counts each forged address apart. So the headers are ignored unless the operator names
the proxies that set them, with ``--forwarded-allow-ips``.
"""

from __future__ import annotations

import argparse
import ipaddress
from typing import Any

from faucet_core.errors import ConfigError

__all__ = ["add_proxy_args", "proxy_options"]


def add_proxy_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--forwarded-allow-ips",
        metavar="ADDRESSES",
        help="comma-separated addresses or networks of the reverse proxies whose "
        "X-Forwarded-For / X-Forwarded-Proto are believed (default: none, not even 127.0.0.1)",
    )


def _checked(value: str) -> str:
    items = [item.strip() for item in value.split(",") if item.strip()]
    if not items:
        raise ConfigError(
            f"--forwarded-allow-ips {value!r} names no address: give the proxies' addresses "
            "or networks, comma-separated (e.g. 127.0.0.1 or 10.0.0.0/8)"
        )
    for item in items:
        if item == "*":
            continue
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ConfigError(
                f"--forwarded-allow-ips: {item!r} is not an IP address or network: give the "
                "proxies' addresses (e.g. 127.0.0.1, 10.0.0.0/8), or * to believe any client"
            ) from None
    return ",".join(items)


def proxy_options(args: argparse.Namespace) -> dict[str, Any]:
    """uvicorn's ``proxy_headers`` / ``forwarded_allow_ips`` for ``args``."""
    value = getattr(args, "forwarded_allow_ips", None)
    if value is None:
        return {"proxy_headers": False, "forwarded_allow_ips": ""}
    return {"proxy_headers": True, "forwarded_allow_ips": _checked(value)}
