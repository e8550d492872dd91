"""A code location file for ``faucet catalog sync -f`` (store from FAUCET_STORE_URL)."""

from __future__ import annotations

import os

from tests.faucet_dagster.lineage.assets import definitions

defs = definitions(
    os.environ["FAUCET_STORE_URL"],
    catalog={"datasets": [{"dataset": "dagster://report", "owners": ["team:bi"]}]},
)
