"""dbt through dagster-dbt: profile each model in its warehouse, and plan change impact over
dbt's column lineage, contracts and exposures.

Nothing here imports dagster-dbt: everything is read from what ``@dbt_assets`` puts on each
asset's definition (the manifest and the node's unique id).
"""

from faucet_dagster.dbt.manifest import DbtNode, Relation, dbt_node
from faucet_dagster.dbt.warehouse import relation_loader, warehouse_engine

__all__ = ["DbtNode", "Relation", "dbt_node", "relation_loader", "warehouse_engine"]
