"""ColumnLineage as ``--json`` and the API show it: inputs per output column and for the
whole dataset, each with its transformations."""

from __future__ import annotations

from faucet_core.catalog import ColumnInput, ColumnLineage, Transformation


def test_to_json_keeps_dataset_inputs_and_transformations() -> None:
    lineage = ColumnLineage(
        fields={
            "total": (
                ColumnInput("amount", ("DIRECT/AGGREGATION",)),
                ColumnInput("amount", ("INDIRECT/CONDITIONAL",)),
                ColumnInput("fx"),
            ),
        },
        dataset=(ColumnInput("status", ("INDIRECT",)),),
    )
    assert lineage.to_json() == {
        "fields": {
            "total": [
                {
                    "field": "amount",
                    "transformations": [
                        {"type": "DIRECT", "subtype": "AGGREGATION"},
                        {"type": "INDIRECT", "subtype": "CONDITIONAL"},
                    ],
                },
                {"field": "fx", "transformations": []},
            ]
        },
        "dataset": [
            {"field": "status", "transformations": [{"type": "INDIRECT", "subtype": None}]}
        ],
    }
    # Stored and read back, nothing is lost.
    assert ColumnLineage.from_dict(lineage.to_dict()).to_json() == lineage.to_json()


def test_a_join_only_edge_is_not_an_empty_map() -> None:
    lineage = ColumnLineage(fields={}, dataset=(ColumnInput("customer_id", ("INDIRECT/JOIN",)),))
    assert lineage.to_json() == {
        "fields": {},
        "dataset": [
            {"field": "customer_id", "transformations": [{"type": "INDIRECT", "subtype": "JOIN"}]}
        ],
    }
    assert lineage.reads() == {"customer_id"}


def test_transformation_parse_and_text() -> None:
    assert Transformation.parse("DIRECT/IDENTITY") == Transformation("DIRECT", "IDENTITY")
    assert Transformation.parse("INDIRECT") == Transformation("INDIRECT", None)
    assert [str(t) for t in ColumnInput("a", ("DIRECT/IDENTITY", "INDIRECT")).transformations] == [
        "DIRECT/IDENTITY",
        "INDIRECT",
    ]
