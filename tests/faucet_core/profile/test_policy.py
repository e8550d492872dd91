"""Classification by the policy: a classified column publishes none of its values."""

from __future__ import annotations

import json
from collections.abc import Callable

import pyarrow as pa
import pytest

from faucet_core import (
    PolicyConfig,
    PolicyRule,
    ProfilingConfig,
    TableProfile,
    ValueDetector,
    profile,
)
from faucet_core.profile.policy import DETECTORS, luhn_valid

N = 40


def _luhn_complete(body: str) -> str:
    """``body`` plus the check digit that makes it Luhn-valid."""
    return next(body + d for d in "0123456789" if luhn_valid(body + d))


def _luhn_broken(body: str) -> str:
    valid = _luhn_complete(body)
    return valid[:-1] + str((int(valid[-1]) + 1) % 10)


def _iban(country: str, bban: str) -> str:
    digits = "".join(str(int(ch, 36)) for ch in bban + country + "00")
    return f"{country}{98 - int(digits) % 97:02d}{bban}"


def _iban_broken(country: str, bban: str) -> str:
    valid = _iban(country, bban)
    return valid[:-1] + str((int(valid[-1]) + 1) % 10)


POSITIVE: dict[ValueDetector, Callable[[int], str]] = {
    ValueDetector.EMAIL: lambda i: f"user.{i}+tag@mail{i % 3}.example.com",
    ValueDetector.PHONE: lambda i: ["+1 415 555 {:04d}", "(020) 7946 {:04d}", "+4930123{:04d}"][
        i % 3
    ].format(i),
    ValueDetector.PAYMENT_CARD: lambda i: _luhn_complete(f"4111111111{i:05d}"),
    ValueDetector.IBAN: lambda i: _iban("DE", f"370400440532{i:06d}"),
    ValueDetector.IP_ADDRESS: lambda i: f"10.1.{i}.7" if i % 2 else f"2001:db8::{i:x}",
    ValueDetector.US_SSN: lambda i: f"{123 + i:03d}-{45 + i % 50:02d}-{6789 - i:04d}",
}

NEGATIVE: dict[ValueDetector, Callable[[int], str]] = {
    ValueDetector.EMAIL: lambda i: f"user.{i} at example dot com",
    ValueDetector.PHONE: lambda i: f"2024-01-{i % 28 + 1:02d}",  # dates are not phones
    ValueDetector.PAYMENT_CARD: lambda i: _luhn_broken(f"4111111111{i:05d}"),  # 16-digit ids
    ValueDetector.IBAN: lambda i: _iban_broken("DE", f"370400440532{i:06d}"),
    ValueDetector.IP_ADDRESS: lambda i: f"10.1.{i + 256}.7",  # an octet above 255
    ValueDetector.US_SSN: lambda i: f"{900 + i % 99:03d}-45-6789",  # area 9xx is never issued
}

ORDINARY = [
    "Alice Smith",
    "Paris",
    "SKU-1234",
    "order 42",
    "12345.67",
    "2024-05-01",
    "1.2.3",
    "true",
    "b3c1f2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
    "hello world",
]


def _leaked(prof: TableProfile, values: list[str]) -> list[str]:
    text = prof.to_json()
    compact = text.replace(" ", "")
    return [v for v in values if v in text or v.replace(" ", "").replace("-", "") in compact]


def _detector_policy(detector: ValueDetector) -> ProfilingConfig:
    rule = PolicyRule(label=f"pii.{detector.value}", detectors=(detector,))
    return ProfilingConfig(policy=PolicyConfig(rules=(rule,)))


DETECTOR_IDS = [d.value for d in ValueDetector]


@pytest.mark.parametrize("detector", list(ValueDetector), ids=DETECTOR_IDS)
def test_each_detector_recognises_its_values(detector: ValueDetector) -> None:
    values = [POSITIVE[detector](i) for i in range(N)]
    assert all(DETECTORS[detector](v) for v in values)
    records = [{"payload": v, "other": "x"} for v in values]
    prof = profile(records, _detector_policy(detector))
    column = prof["payload"]
    assert column.classified == (f"pii.{detector.value}",)
    assert column.top_values is None
    assert column.sketches["freq"] is None
    assert column.distinct == pytest.approx(N, abs=1)
    assert column.string is not None
    assert prof["other"].classified == ()
    assert _leaked(prof, values) == []


@pytest.mark.parametrize("detector", list(ValueDetector), ids=DETECTOR_IDS)
def test_each_detector_ignores_lookalikes(detector: ValueDetector) -> None:
    values = [NEGATIVE[detector](i) for i in range(N)]
    assert not any(DETECTORS[detector](v) for v in values)
    column = profile([{"payload": v} for v in values], _detector_policy(detector))["payload"]
    assert column.classified == ()
    assert column.top_values is not None


def test_ordinary_strings_are_not_classified_by_any_detector() -> None:
    for detector, test in DETECTORS.items():
        assert [v for v in ORDINARY if test(v)] == [], detector
    prof = profile([{"s": v} for v in ORDINARY], ProfilingConfig(policy=PolicyConfig.pii()))
    assert prof["s"].classified == ()
    assert [t.value for t in prof["s"].top_values or ()] == sorted(ORDINARY)


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        ("4111111111111111", True),
        ("4111 1111 1111 1111", True),
        ("5500-0000-0000-0004", True),
        ("378282246310005", True),
        ("4111111111111112", False),
        ("1234567812345678", False),
        ("4111", False),
    ],
    ids=["visa", "spaced", "dashed", "amex", "bad-check-digit", "id", "too-short"],
)
def test_payment_cards_need_the_luhn_check(value: str, valid: bool) -> None:
    assert DETECTORS[ValueDetector.PAYMENT_CARD](value) is valid


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        ("DE89370400440532013000", True),
        ("DE89 3704 0044 0532 0130 00", True),
        ("GB82WEST12345698765432", True),
        ("DE89370400440532013001", False),
        ("GB82WEST12345698765433", False),
    ],
    ids=["de", "de-spaced", "gb", "de-bad-checksum", "gb-bad-checksum"],
)
def test_iban_needs_the_mod_97_check(value: str, valid: bool) -> None:
    assert DETECTORS[ValueDetector.IBAN](value) is valid


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        ("192.168.0.1", True),
        ("2001:db8::1", True),
        ("::1", True),
        ("256.1.1.1", False),
        ("1.2.3", False),
        ("fe80::zz", False),
    ],
    ids=["ipv4", "ipv6", "ipv6-loopback", "octet-too-big", "three-parts", "bad-hex"],
)
def test_ip_addresses(value: str, valid: bool) -> None:
    assert DETECTORS[ValueDetector.IP_ADDRESS](value) is valid


@pytest.mark.parametrize(
    ("column", "classified"),
    [("user_email", True), ("Email", True), ("card_number", True), ("name", False)],
    ids=["glob", "case-insensitive", "exact", "other"],
)
def test_classification_by_column_name(column: str, classified: bool) -> None:
    rule = PolicyRule(label="pii", columns=("*email*", "card_number"))
    config = ProfilingConfig(policy=PolicyConfig(rules=(rule,)))
    prof = profile([{column: "a"}, {column: "b"}], config)
    assert (prof[column].classified == ("pii",)) is classified
    assert (prof[column].top_values is None) is classified


def test_classification_by_a_nested_field_name_in_records() -> None:
    records = [
        {"payload": {"user": {"contacts": [{"ssn": f"v{i}", "kind": "home"}]}}, "meta": {"a": i}}
        for i in range(5)
    ]
    config = ProfilingConfig(policy=PolicyConfig(rules=(PolicyRule(label="ssn", fields=("ssn",)),)))
    prof = profile(records, config)
    assert prof["payload"].classified == ("ssn",)
    assert prof["payload"].top_values is None
    assert prof["meta"].classified == ()
    assert _leaked(prof, ["v0", "home"]) == []


def test_classification_by_a_field_name_in_an_arrow_struct_and_map() -> None:
    table = pa.table(
        {
            "contact": pa.array([{"email_address": "a@b.co", "name": "Ann"}]),
            "attrs": pa.array([[("phone", "x")]], pa.map_(pa.string(), pa.string())),
            "plain": pa.array([{"city": "Paris"}]),
        }
    )
    rule = PolicyRule(label="pii", fields=("email*", "phone"))
    prof = profile(table, ProfilingConfig(policy=PolicyConfig(rules=(rule,))))
    assert prof["contact"].classified == ("pii",)
    assert prof["attrs"].classified == ("pii",)
    assert prof["plain"].classified == ()
    assert _leaked(prof, ["a@b.co", "Ann"]) == []


def test_detectors_need_the_rule_share() -> None:
    values = [POSITIVE[ValueDetector.EMAIL](i) for i in range(4)] + ORDINARY[:6]  # 40 %
    records = [{"s": v} for v in values]
    default = profile(records, _detector_policy(ValueDetector.EMAIL))
    assert default["s"].classified == ()
    rule = PolicyRule(label="pii", detectors=(ValueDetector.EMAIL,), min_share=0.4)
    lenient = profile(records, ProfilingConfig(policy=PolicyConfig(rules=(rule,))))
    assert lenient["s"].classified == ("pii",)


def test_a_column_matching_several_rules_lists_every_label() -> None:
    rules = (
        PolicyRule(label="b.name", columns=("email",)),
        PolicyRule(label="a.value", detectors=(ValueDetector.EMAIL,)),
    )
    prof = profile([{"email": "x@y.org"}], ProfilingConfig(policy=PolicyConfig(rules=rules)))
    assert prof["email"].classified == ("a.value", "b.name")


def test_a_numeric_column_classified_by_name_publishes_no_values() -> None:
    cards = [int(_luhn_complete(f"4111111111{i:05d}")) for i in range(N)]
    rule = PolicyRule(label="pci", columns=("card_number",))
    prof = profile(
        pa.table({"card_number": cards, "n": list(range(N))}),
        ProfilingConfig(policy=PolicyConfig(rules=(rule,))),
    )
    column = prof["card_number"]
    assert column.classified == ("pci",)
    assert column.numeric is None  # min, max and quantiles would be card numbers
    assert column.types == {"integer": N}
    assert column.sketches["kll"] is None
    assert prof["n"].numeric is not None
    assert _leaked(prof, [str(c) for c in cards] + [json.dumps(float(c)) for c in cards]) == []


def test_classified_values_stay_out_of_merged_and_reloaded_profiles() -> None:
    values = [POSITIVE[ValueDetector.EMAIL](i) for i in range(N)]
    config = _detector_policy(ValueDetector.EMAIL)
    part = profile([{"s": v} for v in values[:20]], config)
    plain = profile([{"s": v} for v in values[20:]])  # profiled without the policy
    assert plain["s"].top_values is not None
    merged = TableProfile.from_json(part.to_json()).merge(plain)
    assert merged["s"].classified == ("pii.email",)
    assert merged["s"].top_values is None
    assert merged["s"].row_count == N
    assert _leaked(merged, values) == []
