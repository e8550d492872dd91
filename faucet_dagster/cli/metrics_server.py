"""``faucet metrics --port N``: a Prometheus scrape endpoint over the store."""

from __future__ import annotations

import time

from faucet_core.store import ProfileStore

__all__ = ["serve_metrics"]


def serve_metrics(store: ProfileStore, host: str, port: int) -> None:
    from prometheus_client import CollectorRegistry, start_http_server

    from faucet_core.store.metrics import StoreCollector

    registry = CollectorRegistry()
    registry.register(StoreCollector(store))
    start_http_server(port, addr=host, registry=registry)
    print(f"serving faucet metrics on http://{host}:{port}/metrics (Ctrl-C stops)", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
