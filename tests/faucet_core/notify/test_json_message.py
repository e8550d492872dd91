"""The generic webhook's JSON body."""

from __future__ import annotations

import json
import pathlib

from faucet_core.notify import NotifiedFinding, json_payload
from tests.faucet_core.notify.builders import RUN_ID, mean_shift, new_value, notification, null_rate
from tests.faucet_core.notify.golden import assert_fixture

FIXTURES = pathlib.Path(__file__).parent / "fixtures"


def test_payload_of_one_finding():
    n = notification(null_rate(), first_index=1, total=2, run_url="https://d.example/runs/x")
    payload = json_payload(n, "the text")
    assert payload["id"] == f"{RUN_ID}/sales/orders/faucet_profile#1"
    assert_fixture(FIXTURES / "webhook_one_finding.json", payload)


def test_payload_is_strict_json_even_for_withheld_numbers():
    n = notification(
        NotifiedFinding.of(mean_shift("email"), classified=True),
        NotifiedFinding.of(new_value(), partition="eu"),
    )
    payload = json_payload(n, "t")
    text = json.dumps(payload, allow_nan=False)  # NaN would raise
    assert "912.5" not in text
    assert [f["classified"] for f in payload["findings"]] == [True, False]
    assert [f["partition"] for f in payload["findings"]] == [None, "eu"]
    assert payload["findings"][0]["value"] is None
    assert (payload["first_index"], payload["total_findings"]) == (0, 2)
    assert payload["evaluated_at"] == "2026-09-25T02:00:04Z"
