"""The ``catalog:`` block as a ProfilingComponent attribute (defs.yaml)."""

from __future__ import annotations

from tests.faucet_dagster.test_component import _load_error, loaded


def test_the_component_passes_its_catalog_block_to_the_resource() -> None:
    attributes = (
        "  assets: [orders]\n"
        "  catalog:\n"
        "    datasets:\n"
        "      - dataset: dagster://orders\n"
        "        owners: [data-platform]\n"
        "        consumers: [{name: dash, kind: dashboard, columns: [id]}]\n"
    )
    with loaded(attributes) as (component, defs):
        assert component.catalog is not None
        resource = (defs.resources or {})["faucet"]
        (entry,) = resource.catalog_config().datasets
        assert (entry.dataset, entry.owners) == ("dagster://orders", ["data-platform"])
        assert entry.consumers[0].columns == ["id"]


def test_a_bad_catalog_block_fails_when_the_definitions_load() -> None:
    error = _load_error("  assets: [orders]\n  catalog:\n    datasets:\n      - dataset: orders\n")
    assert "'orders' is neither a dataset URI" in error
