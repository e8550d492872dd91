"""``profile_check_error``: the notification of a check that could not do its work."""

from __future__ import annotations

import json

import pytest

from faucet_core.config import OnDrift
from faucet_core.errors import NotifyError
from faucet_core.notify import (
    CheckSeverity,
    DriftNotification,
    NotificationKind,
    json_payload,
    plain_text,
    slack_blocks,
    slack_text,
)
from tests.faucet_core.notify.builders import RUN_ID, WHEN, null_rate

ERROR = "OperationalError: unable to open database file <sqlite:///srv/faucet/*** & more>"


def _error(**overrides: object) -> DriftNotification:
    values: dict[str, object] = {
        "asset": "sales/orders",
        "check": "faucet_profile",
        "findings": (),
        "first_index": 0,
        "total_findings": 0,
        "run_id": RUN_ID,
        "evaluated_at": WHEN,
        "on_drift": OnDrift.FAIL,
        "severity": CheckSeverity.ERROR,
        "kind": NotificationKind.PROFILE_CHECK_ERROR,
        "error": ERROR,
        "run_url": "https://d.example/runs/x",
    }
    values.update(overrides)
    return DriftNotification(**values)  # type: ignore[arg-type]


def test_the_webhook_json_carries_the_error_and_no_findings() -> None:
    n = _error(partition="2026-09-24")
    payload = json_payload(n, plain_text(n))
    assert payload["kind"] == "profile_check_error"
    assert payload["id"] == f"{RUN_ID}/sales/orders/faucet_profile/2026-09-24#error"
    assert (payload["findings"], payload["total_findings"]) == ([], 0)
    assert payload["error"] == ERROR
    assert payload["text"] == f"faucet could not check sales/orders [2026-09-24]: {ERROR}"
    json.dumps(payload, allow_nan=False)


def test_slack_shows_the_error_escaped_with_its_asset_and_run() -> None:
    n = _error()
    assert slack_text(n) == (
        "faucet could not check sales/orders: OperationalError: unable to open database "
        "file &lt;sqlite:///srv/faucet/*** &amp; more&gt;"
    )
    header, section, fields, context = slack_blocks(n)
    assert header["text"]["text"] == ":rotating_light: Profile check error: sales/orders"
    assert "went unmonitored" in section["text"]["text"]
    assert "&lt;sqlite" in section["text"]["text"]
    assert "<sqlite" not in section["text"]["text"]
    assert fields["fields"][0]["text"] == "*Asset*\n`sales/orders`"
    assert "<https://d.example/runs/x|Open the run in Dagster>" in json.dumps(context)
    warn = slack_blocks(_error(severity=CheckSeverity.WARN, on_drift=OnDrift.NOTIFY))
    assert warn[0]["text"]["text"].startswith(":warning:")


def test_a_drift_payload_has_no_error_key() -> None:
    from tests.faucet_core.notify.builders import notification

    assert "error" not in json_payload(notification(null_rate()), "t")


@pytest.mark.parametrize(
    "overrides",
    [{"error": None}, {"error": ""}, {"findings": ("x",)}],
    ids=["no-error", "empty-error", "with-findings"],
)
def test_a_check_error_notification_has_its_error_and_no_findings(overrides) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(NotifyError, match="has its error and no findings"):
        _error(**overrides)


def test_a_drift_notification_still_needs_a_finding() -> None:
    with pytest.raises(NotifyError, match="at least one finding"):
        _error(kind=NotificationKind.PROFILE_DRIFT, error=None)
