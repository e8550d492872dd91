"""Learned freshness of ``partner_rates``: exchange rates a partner delivers each morning.

The asset is external (Dagster does not build it): each delivery is reported as an
observation stating ``dagster/last_updated_timestamp``, and the faucet freshness check
learns the delivery cadence from those times. No threshold is written down; the check is
overdue once a delivery is later than the learned range allows. The sensor evaluates it
on every tick, so a partner that stops delivering is reported even though nothing runs;
``on_overdue: notify`` sends one ``profile_freshness`` message per overdue episode.
"""

import dagster as dg

from faucet_dagster import build_freshness_checks, build_freshness_sensor

partner_rates = dg.AssetSpec(
    "partner_rates",
    group_name="orders",
    owners=["team:ingest"],
    description="Exchange rates the partner delivers every morning (external).",
)

(partner_rates_freshness,) = build_freshness_checks(
    [partner_rates], config={"on_overdue": "notify", "timezone": "UTC"}
)

freshness_sensor = build_freshness_sensor()
