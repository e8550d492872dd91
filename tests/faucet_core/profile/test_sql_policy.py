"""Classification in the database: a column classified by name, by a value detector or by
a nested field publishes no top values and no numeric statistics, and the SQL sent never
asks for them (the statements are captured on the real connection)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pyarrow as pa
import sqlalchemy as sa

from faucet_core import ProfilingConfig
from faucet_core.config import PolicyConfig, PolicyRule, ValueDetector
from faucet_core.profile import SqlTable, profile, profile_sql
from tests.faucet_core.profile.sqldata import Warehouse, differences

N = 40
PEOPLE = pa.table(
    {
        "card_number": pa.array([4111111111111111 + i for i in range(N)], pa.int64()),
        "contact": pa.array([f"user{i % 7}@example.com" for i in range(N)]),
        "note": pa.array([f"note {i % 3}" for i in range(N)]),
        "mostly_mail": pa.array([f"p{i % 5}@example.org" if i % 4 else "n/a" for i in range(N)]),
    }
)
POLICY = ProfilingConfig(
    policy=PolicyConfig(
        rules=[
            PolicyRule(label="pci", columns=["card_*"]),
            PolicyRule(label="pii.email", detectors=[ValueDetector.EMAIL], min_share=0.5),
        ]
    )
)


@contextmanager
def statements(engine: sa.Engine) -> Iterator[list[str]]:
    sent: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        sent.append(statement)

    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)


def test_classified_columns_publish_and_query_no_values(warehouse: Warehouse) -> None:
    warehouse.load(PEOPLE, "people")
    with statements(warehouse.engine) as sent:
        pushed = profile_sql(SqlTable(warehouse.engine, "people"), POLICY)
    assert differences(profile(PEOPLE, POLICY), pushed) == []
    card, contact, note = pushed["card_number"], pushed["contact"], pushed["note"]
    assert card.classified == ("pci",)
    assert card.numeric is None  # min, max and quantiles are values
    assert card.top_values is None
    assert contact.classified == ("pii.email",)
    assert contact.top_values is None
    assert contact.string is not None  # lengths are no values
    assert note.classified == ()
    assert note.top_values is not None
    assert pushed["mostly_mail"].classified == ("pii.email",)  # 30 of 33 sampled values
    grouped = [s for s in sent if "GROUP BY" in s]
    assert any(_names("note", s) for s in grouped)
    for column in ("card_number", "contact", "mostly_mail"):
        assert not any(_names(column, s) for s in grouped), column
    aggregate = next(s for s in sent if "AS rows" in s)
    assert _names("card_number", aggregate)  # still counted: nulls and distinct
    assert not re.search(r"(max|min|avg|stddev_pop|quantile_disc)\(people\.card_number", aggregate)
    assert re.search(r"max\(people\.note", aggregate) is None  # text: lengths only
    assert "char_length(people.contact)" in aggregate or "length(people.contact)" in aggregate


def _names(column: str, statement: str) -> bool:
    return re.search(rf"\b{column}\b", statement) is not None


def test_a_detector_below_its_share_does_not_classify(warehouse: Warehouse) -> None:
    strict = ProfilingConfig(
        policy=PolicyConfig(
            rules=[PolicyRule(label="pii", detectors=[ValueDetector.EMAIL], min_share=0.9)]
        )
    )
    warehouse.load(PEOPLE, "people")
    pushed = profile_sql(SqlTable(warehouse.engine, "people"), strict)
    assert pushed["contact"].classified == ("pii",)  # every sampled value is an address
    assert pushed["mostly_mail"].classified == ()  # 5 of 6 distinct values: 0.83 < 0.9
    assert pushed["mostly_mail"].top_values is not None
