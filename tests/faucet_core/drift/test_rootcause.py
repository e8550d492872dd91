"""One finding per column and run: the most specific cause heads, the rest is evidence."""

from __future__ import annotations

from dataclasses import replace

import pytest

from faucet_core.drift import DriftFinding, DriftMetric
from faucet_core.drift.rootcause import one_per_column
from faucet_core.notify import NotifiedFinding
from faucet_core.notify.slack_message import slack_text
from tests.faucet_core.notify.builders import (
    mean_shift,
    new_value,
    notification,
    null_rate,
    psi,
    type_mix,
)


def _series(column: str, metric: DriftMetric, statistic: str, score: float) -> DriftFinding:
    return replace(
        mean_shift(column), metric=metric, statistic=statistic, score=score, threshold=5.0
    )


def _shape(findings: list[DriftFinding]) -> list[tuple[str, list[str]]]:
    return [(f.key, [f"{e.key}:{e.statistic}" for e in f.evidence]) for f in findings]


@pytest.mark.parametrize(
    ("head", "others"),
    [
        pytest.param(type_mix("c"), [new_value("c"), null_rate("c")], id="type_mix-first"),
        pytest.param(new_value("c"), [null_rate("c"), psi("c")], id="new_value-before-null"),
        pytest.param(
            null_rate("c", score=6.0),
            [_series("c", DriftMetric.DISTINCT, "distinct", 50.0)],
            id="null_rate-before-a-wider-distinct",
        ),
    ],
)
def test_the_most_specific_cause_heads(head, others):
    (found,) = one_per_column([*others, head])
    assert found.key == head.key
    assert {e.key for e in found.evidence} == {o.key for o in others}
    assert found.message == head.message


def test_a_truncation_is_a_string_length_finding_with_distinct_as_evidence():
    # a truncated text: lengths collapse, and with them the distinct count
    distinct = _series("note", DriftMetric.DISTINCT, "distinct", 80.0)
    len_max = _series("note", DriftMetric.STRING_LENGTH, "len_max", 6.0)
    len_mean = _series("note", DriftMetric.STRING_LENGTH, "len_mean", 30.0)
    assert _shape(one_per_column([distinct, len_max, len_mean])) == [
        (
            "note.string_length",
            ["note.string_length:len_max", "note.distinct:distinct"],
        )
    ]


def test_ids_collapsing_onto_a_few_are_a_distinct_finding_with_max_as_evidence():
    maximum = _series("customer_id", DriftMetric.MAX, "max", 1846.0)
    mean = _series("customer_id", DriftMetric.MEAN, "mean", 48.0)
    distinct = _series("customer_id", DriftMetric.DISTINCT, "distinct", 504.0)
    (found,) = one_per_column([maximum, mean, distinct])
    assert found.key == "customer_id.distinct"
    assert [e.key for e in found.evidence] == ["customer_id.mean", "customer_id.max"]


def test_columns_keep_their_order_and_stay_apart():
    found = one_per_column([null_rate("a"), new_value("b"), mean_shift("a")])
    assert _shape(found) == [("a.null_rate", ["a.mean:mean"]), ("b.new_value", [])]


def test_grouping_is_idempotent_and_loses_nothing():
    once = one_per_column([null_rate("a"), mean_shift("a"), psi("a"), new_value("b")])
    assert one_per_column(once) == once
    flat = sorted(e.key for f in once for e in f.findings)
    assert flat == ["a.mean", "a.null_rate", "a.psi", "b.new_value"]


def test_evidence_round_trips_through_json():
    (found,) = one_per_column([null_rate("a"), mean_shift("a")])
    data = found.to_dict()
    assert [e["metric"] for e in data["evidence"]] == ["mean"]
    assert data["evidence"][0]["evidence"] == []
    assert DriftFinding.from_dict(data) == found


def test_a_classified_columns_evidence_carries_no_values():
    (found,) = one_per_column([new_value("email", "a@b.c"), new_value("email", "x@y.z")])
    shown = NotifiedFinding.of(found, classified=True).finding
    assert "@" not in str(shown.to_dict())
    assert len(shown.evidence) == 1


def test_the_headline_names_what_else_moved_once_per_metric():
    (found,) = one_per_column(
        [
            new_value("region"),
            _series("region", DriftMetric.STRING_LENGTH, "len_max", 9.0),
            _series("region", DriftMetric.STRING_LENGTH, "len_mean", 7.0),
            replace(_distinct(6, 4.6, 5.4), column="region"),
        ]
    )
    assert found.evidence_note == "also string_length (len_max, len_mean), distinct"
    assert found.headline == f"{found.message}; also string_length (len_max, len_mean), distinct"
    assert null_rate("a").headline == null_rate("a").message  # no evidence, no note


def test_a_slack_message_is_one_root_cause_with_its_evidence():
    (found,) = one_per_column([new_value("region"), psi("region")])
    text = slack_text(notification(found))
    assert text.startswith("Profile drift on sales/orders: region.new_value: value")
    assert text.endswith("; also psi")


def _distinct(value: float, low: float, high: float) -> DriftFinding:
    return replace(
        _series("customer_id", DriftMetric.DISTINCT, "distinct", 90.0),
        value=value,
        expected_low=low,
        expected_high=high,
    )


def test_a_collapse_of_distinct_heads_the_values_it_made_prominent():
    # 4,600 customers a day became 25: those 25 are "new" top values, a symptom
    collapse = _distinct(25, 4400, 4800)
    symptoms = [new_value("customer_id", "c1"), new_value("customer_id", "c2")]
    (found,) = one_per_column([*symptoms, collapse])
    assert found.key == "customer_id.distinct"
    assert [e.key for e in found.evidence] == ["customer_id.new_value"] * 2


def test_a_new_value_still_heads_the_distinct_count_it_moved_by_one():
    one_more = _distinct(6, 4.6, 5.4)  # 5 regions became 6: the new value explains it
    (found,) = one_per_column([one_more, new_value("customer_id", "latam")])
    assert found.key == "customer_id.new_value"


def test_type_mix_heads_even_a_collapse():
    (found,) = one_per_column(
        [_distinct(25, 4400, 4800), new_value("customer_id"), type_mix("customer_id")]
    )
    assert found.key == "customer_id.type_mix"
