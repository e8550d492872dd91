"""A code location for ``faucet plan --impact -f``: ``raw`` (a PostgreSQL table) ->
``customers`` (declared schema renaming email to mail, dropping legacy) -> ``contacts``
(declared column lineage; never materialized: its edge is known from Dagster only) and
``untyped`` (no schema, no lineage). ``customers`` and ``untyped`` form the group ``crm``.

No ``from __future__ import annotations``: Dagster inspects the annotations.
"""

import dagster as dg

raw = dg.AssetSpec(
    "raw", metadata={"dagster/table_name": "shop.raw", "dagster/storage_kind": "postgres"}
)


@dg.asset(
    deps=[raw],
    owners=["team:crm"],
    group_name="crm",
    metadata={
        "dagster/column_schema": dg.TableSchema(
            columns=[
                dg.TableColumn("id", "int64"),
                dg.TableColumn("mail", "string"),
                dg.TableColumn("score", "float64"),
            ]
        ),
        "faucet/renames": {"email": "mail"},
        "faucet/drops": ["legacy"],
    },
)
def customers() -> None:
    return None


@dg.asset(
    deps=[customers],
    owners=["team:contacts"],  # known only from the code location: no run recorded it
    metadata={
        "dagster/column_lineage": dg.TableColumnLineage(
            deps_by_column={
                "contact": [dg.TableColumnDep(dg.AssetKey("customers"), "email")],
                "cid": [dg.TableColumnDep(dg.AssetKey("customers"), "id")],
            }
        )
    },
)
def contacts() -> None:
    return None


@dg.asset(deps=[customers], group_name="crm")
def untyped() -> None:
    return None


defs = dg.Definitions(assets=[raw, customers, contacts, untyped])
