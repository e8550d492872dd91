"""The notification model: ids, findings read from check metadata, classified columns."""

from __future__ import annotations

import datetime as dt
import json
import math

import pytest

from faucet_core.config import PolicyConfig, PolicyRule
from faucet_core.drift import DriftFindingError
from faucet_core.errors import NotifyError
from faucet_core.notify import NotifiedFinding, classified_columns, findings_from_metadata
from faucet_core.notify.model import WITHHELD
from tests.faucet_core.notify.builders import (
    RUN_ID,
    mean_shift,
    new_value,
    notification,
    null_rate,
    psi,
    type_mix,
)


def test_notification_id_is_stable_and_names_the_findings():
    one = notification(null_rate(), first_index=2, total=5)
    assert one.id == f"{RUN_ID}/sales/orders/faucet_profile#2"
    assert not one.grouped
    many = notification(null_rate(), new_value(), partition="2026-09-24")
    assert many.id == f"{RUN_ID}/sales/orders/faucet_profile/2026-09-24#0-1"
    assert many.grouped
    assert many.evaluated_at_text == "2026-09-25 02:00 UTC"


def test_a_notification_needs_findings_and_an_aware_time():
    with pytest.raises(NotifyError, match="at least one finding"):
        notification()
    with pytest.raises(NotifyError, match="timezone-aware"):
        notification(null_rate(), evaluated_at=dt.datetime(2026, 1, 1))


def test_findings_from_metadata_round_trip_with_partition():
    items = [
        {**null_rate().to_dict(), "partition": "eu"},
        new_value().to_dict(),
    ]
    found = findings_from_metadata(items)
    assert [f.partition for f in found] == ["eu", None]
    assert found[0].finding == null_rate()
    assert found[1].finding == new_value()
    assert not any(f.classified for f in found)


def test_findings_from_metadata_rejects_damaged_findings():
    with pytest.raises(DriftFindingError):
        findings_from_metadata([{"column": "a"}])
    with pytest.raises(NotifyError, match="not a JSON object"):
        findings_from_metadata(["amount.null_rate"])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("finding", "value_text"),
    [
        (null_rate("email"), None),
        (type_mix("email"), None),
        (mean_shift("email"), "912.5"),
        (new_value("email", "ann@example.com"), "ann@example.com"),
        (psi("email"), None),
    ],
    ids=["null_rate", "type_mix", "mean", "new_value", "psi"],
)
def test_classified_findings_carry_no_values(finding, value_text):
    item = NotifiedFinding.of(finding, classified=True)
    assert item.classified
    if value_text is None:  # rates and type names are not values of the column
        assert item.finding.message == finding.message
    else:
        assert item.finding.message == f"{finding.key}: {WITHHELD}"
        assert math.isnan(item.finding.value)
        assert item.finding.expected_low is None
        assert item.finding.expected_high is None
        assert value_text not in json.dumps(item.to_dict())
    if finding.metric.value == "type_mix":
        assert item.finding.value_key == "string"  # a JSON type name, not a value
    else:
        assert item.finding.value_key is None


def test_classified_columns_by_policy_names():
    policy = PolicyConfig(rules=[PolicyRule(label="pii", columns=["*email*", "ssn"])])
    assert classified_columns(policy, ["Email_Address", "amount", "ssn"]) == {
        "Email_Address",
        "ssn",
    }
    assert classified_columns(None, ["email"]) == frozenset()
    # A detector-only rule cannot be judged from a column name.
    detectors = PolicyConfig.pii()
    assert classified_columns(detectors, ["card_number", "notes"]) == {"card_number"}


def test_findings_from_metadata_withholds_classified_columns():
    items = [new_value("email", "ann@example.com").to_dict(), new_value("region").to_dict()]
    found = findings_from_metadata(items, classified={"email"})
    assert [f.classified for f in found] == [True, False]
    assert found[0].to_dict()["value_key"] is None
    assert found[0].to_dict()["classified"] is True
    assert found[1].finding.value_key == "latam"
