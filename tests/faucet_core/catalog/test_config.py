"""The ``catalog:`` block: strict, with messages that name the field and the rule."""

from __future__ import annotations

from typing import Any

import pytest

from faucet_core.catalog import CatalogConfig, Consumer, load_catalog_config
from faucet_core.errors import ConfigError


def test_the_seed_block_loads() -> None:
    config = load_catalog_config(
        {
            "url": "sqlite:./faucet-catalog.db",
            "datasets": [
                {
                    "dataset": "file://./out/records.jsonl",
                    "owners": ["data-platform"],
                    "consumers": [
                        {
                            "name": "records-dashboard",
                            "kind": "dashboard",
                            "contact": "#analytics",
                            "columns": ["id", "name"],
                        }
                    ],
                },
                {"dataset": "3f2a9c1e"},
            ],
        }
    )
    first = config.datasets[0]
    assert first.owners == ["data-platform"]
    assert first.consumers[0].to_consumer() == Consumer(
        "records-dashboard", "dashboard", "#analytics", ("id", "name")
    )
    assert config.datasets[1].owners is None
    assert load_catalog_config(None) == CatalogConfig()


@pytest.mark.parametrize(
    ("block", "message"),
    [
        (
            {"datasets": [{"dataset": "orders"}]},
            "'orders' is neither a dataset URI (scheme://..., e.g. dagster://orders) nor an id "
            "(4 to 12 hex digits, as `faucet catalog datasets` prints it)",
        ),
        (
            {"datasets": [{"dataset": "dagster://a", "consumers": [{"name": "x"}, {"name": "x"}]}]},
            "consumer name(s) x listed twice: names are unique",
        ),
        ({"datasets": [{"dataset": "dagster://a", "owner": ["x"]}]}, "catalog.datasets.0.owner"),
        ({"dataset": []}, "catalog.dataset"),
    ],
    ids=["bad-ref", "duplicate-consumer", "misspelt-owners", "misspelt-datasets"],
)
def test_bad_blocks_are_refused(block: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as err:
        load_catalog_config(block)
    assert message in str(err.value)
