"""The code location of ``serve_plan.py``: one asset, ``root``, that writes the first
dataset of the benchmark catalog and declares a schema dropping two of its five columns.

No ``from __future__ import annotations``: Dagster inspects the annotations.
"""

import dagster as dg

from faucet_core.catalog import DatasetRef

ROOT = DatasetRef("file", "/lake/d000000.parquet")


@dg.asset(
    owners=["team:bench"],
    metadata={
        "faucet/dataset": ROOT.uri,
        "dagster/column_schema": dg.TableSchema(
            columns=[dg.TableColumn(c, "integer") for c in ("c2", "c3", "c4")]
        ),
    },
)
def root() -> None:
    return None


defs = dg.Definitions(assets=[root])
