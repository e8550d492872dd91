"""The HTTP API of ``faucet serve`` (plan, catalog, lineage, metrics) with roles and an
audit log, and ``faucet lineage serve``'s OpenLineage receiver; the web console
(:mod:`faucet_dagster.serve.console`) builds on it, never the other way."""

from faucet_dagster.serve.api.auth import Principal, Role, TokenTable, load_tokens
from faucet_dagster.serve.api.lineage_app import create_lineage_app

__all__ = ["Principal", "Role", "TokenTable", "create_lineage_app", "load_tokens"]
