"""``faucet serve``: the HTTP API (plan, catalog, lineage, metrics) with roles and an
audit log; ``faucet lineage serve``: the OpenLineage receiver alone, behind the same
tokens."""

from faucet_dagster.serve.api.auth import Principal, Role, TokenTable, load_tokens
from faucet_dagster.serve.api.lineage_app import create_lineage_app
from faucet_dagster.serve.app import MAX_BODY_BYTES, create_app

__all__ = [
    "MAX_BODY_BYTES",
    "Principal",
    "Role",
    "TokenTable",
    "create_app",
    "create_lineage_app",
    "load_tokens",
]
