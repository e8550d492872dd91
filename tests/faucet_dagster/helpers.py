"""Assets, data and result readers shared by the Dagster check tests.

``orders`` reads the module-level :data:`FEED` when it runs, so a test moves the
simulated calendar (``FEED.day``) or injects a fault (``FEED.null_share``) between
materializations, the way new data arrives from day to day.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import dagster as dg
import pandas as pd

from faucet_dagster import FaucetResource

ROWS = 400
NORMAL_NULL_SHARE = 0.01


@dataclass
class Feed:
    """What ``orders`` produces when it runs next."""

    day: int = 0
    null_share: float = NORMAL_NULL_SHARE
    rows: int = ROWS

    def reset(self) -> None:
        self.day, self.null_share, self.rows = 0, NORMAL_NULL_SHARE, ROWS


FEED = Feed()


def orders_frame(
    day: int, *, null_share: float = NORMAL_NULL_SHARE, rows: int = ROWS
) -> pd.DataFrame:
    """One day of orders: ``amount`` (with ``null_share`` nulls) and ``region``."""
    rng = random.Random(day)
    amounts = [
        None if rng.random() < null_share else round(rng.uniform(10, 100), 2) for _ in range(rows)
    ]
    regions = [rng.choice(["eu", "us", "apac"]) for _ in range(rows)]
    return pd.DataFrame({"amount": amounts, "region": regions})


def todays_frame() -> pd.DataFrame:
    return orders_frame(FEED.day, null_share=FEED.null_share, rows=FEED.rows)


@dg.asset
def orders() -> pd.DataFrame:
    return todays_frame()


@dg.asset
def report(orders: pd.DataFrame) -> int:
    """Downstream of ``orders``: must not run when a blocking check fails."""
    return len(orders)


def materialize(
    defs: Sequence[Any], instance: dg.DagsterInstance, store_url: str, **kwargs: Any
) -> dg.ExecuteInProcessResult:
    return dg.materialize(
        list(defs),
        instance=instance,
        resources={"faucet": FaucetResource(store_url=store_url)},
        raise_on_error=False,
        **kwargs,
    )


def evaluation(result: dg.ExecuteInProcessResult) -> dg.AssetCheckEvaluation:
    """The one check evaluation of a run."""
    evaluations = result.get_asset_check_evaluations()
    assert len(evaluations) == 1, evaluations
    return evaluations[0]


def evaluations_by_asset(result: dg.ExecuteInProcessResult) -> dict[str, dg.AssetCheckEvaluation]:
    return {e.asset_key.to_user_string(): e for e in result.get_asset_check_evaluations()}


def materialized(result: dg.ExecuteInProcessResult) -> list[str]:
    """The asset keys a run materialized, in order."""
    return [e.asset_key.to_user_string() for e in result.get_asset_materialization_events()]


def meta(evaluation: dg.AssetCheckEvaluation, key: str) -> Any:
    """A metadata value of a check evaluation, unwrapped."""
    value = evaluation.metadata[key]
    return getattr(value, "value", value)


def failure_message(event: dg.DagsterEvent) -> str:
    """What a failed step reported: a ``dg.Failure``'s description, else the error."""
    data = event.step_failure_data
    user = data.user_failure_data
    return user.description if user is not None else data.error.message


def failures(result: dg.ExecuteInProcessResult) -> list[str]:
    """What each failed step reported (:func:`failure_message`)."""
    return [failure_message(e) for e in result.all_events if e.is_step_failure]


def finding_keys(evaluation: dg.AssetCheckEvaluation) -> list[str]:
    found = meta(evaluation, "faucet/findings")
    return [f"{f['column']}.{f['metric']}" if f["column"] else f["metric"] for f in found]
