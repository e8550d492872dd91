"""``faucet serve``: the HTTP API (plan, catalog, lineage, metrics) with roles and an
audit log."""

from faucet_dagster.server.app import MAX_BODY_BYTES, create_app
from faucet_dagster.server.auth import Principal, Role, TokenTable, load_tokens

__all__ = ["MAX_BODY_BYTES", "Principal", "Role", "TokenTable", "create_app", "load_tokens"]
