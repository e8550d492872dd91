"""Fixtures of the Dagster check tests: a real Dagster instance on SQLite storage."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import pytest

from tests.faucet_dagster.helpers import FEED, Feed
from tests.faucet_dagster.processes import DagsterHome, make_home


@pytest.fixture
def instance() -> Iterator[dg.DagsterInstance]:
    with dg.instance_for_test() as inst:
        yield inst


@pytest.fixture
def feed() -> Iterator[Feed]:
    FEED.reset()
    yield FEED
    FEED.reset()


@pytest.fixture
def dagster_home(tmp_path: Path) -> DagsterHome:
    """An empty ``DAGSTER_HOME`` for subprocesses, with a SQLite faucet store beside it."""
    return make_home(tmp_path)
