"""1,000 findings in one check evaluation: delivered in one tick, inside its time budget,
exactly once. The tick's duration is printed (run with -s), not asserted: timing belongs
to benchmarks."""

from __future__ import annotations

import json
import time

from faucet_dagster.notifications.sensor import DEFAULT_TICK_BUDGET_SECONDS
from tests.faucet_core.notify.fake_http import SLACK_API_PATH, SLACK_WEBHOOK_PATH, WEBHOOK_PATH
from tests.faucet_dagster.sensors.scenario import Scenario, reason

WIDE = 1000  # never null in the baseline, half null on the drifting day: 1,000 findings


def test_a_thousand_findings_in_one_tick(instance, sqlite_url, http, feed):
    scenario = Scenario(
        instance=instance, store_url=sqlite_url, http=http, config={"max_columns": 1100}
    )
    sensor = scenario.sensor([scenario.slack_webhook(), scenario.slack_bot(), scenario.webhook()])
    scenario.tick(sensor)
    scenario.warm_up(wide=WIDE)
    scenario.drift(amount_nulls=0.01, email_nulls=0.01, latam=0.0, wide_nulls=0.5)
    started = time.perf_counter()
    result = scenario.tick(sensor)
    took = time.perf_counter() - started
    print(
        f"\n1,000 findings x 3 destinations: one tick took {took:.2f} s "
        f"(budget {DEFAULT_TICK_BUDGET_SECONDS:g} s)"
    )
    assert reason(result) == (
        "delivered 3000 notification(s) (slack_bot 1000, slack_webhook 1000, webhook 1000)"
    )
    slack = scenario.http.delivered(SLACK_WEBHOOK_PATH)
    hook = scenario.http.delivered(WEBHOOK_PATH)
    ids = [b["id"] for b in hook]
    assert len(ids) == len(set(ids)) == 1000
    assert [b["first_index"] for b in hook] == list(range(1000))
    assert len({b["text"] for b in slack}) == 1000
    assert len(scenario.http.delivered(SLACK_API_PATH)) == 1000
    assert json.loads(result.cursor)["to"]["webhook"]["checks"] == {
        "orders:faucet_profile": {"after": 4}
    }
    assert reason(scenario.tick(sensor)) == "no new drift notifications"
    assert len(scenario.http.requests) == 3000
