"""The delivery ledger (the sensor cursor): progress per destination and check, JSON."""

from __future__ import annotations

import pytest

from faucet_core.errors import NotifyError
from faucet_core.notify import Ledger
from faucet_core.notify.ledger import Broken, StreamProgress


def test_a_new_stream_starts_at_the_ledger_start():
    ledger = Ledger(start=41)
    assert ledger.after("slack", "orders:faucet_profile") == 41
    progress = ledger.stream("slack", "orders:faucet_profile")
    assert progress == StreamProgress(after=41)
    assert progress.delivered(41) is None  # at or below start: never sent
    assert progress.delivered(42) == 0


def test_record_keeps_partial_progress_then_completes():
    p = StreamProgress(after=10)
    p.record(12, 3, 5)
    assert p.delivered(12) == 3
    p.record(12, 5, 5)
    assert p.delivered(12) is None
    assert p.at == {}
    assert p.done == {12}


def test_settle_moves_over_settled_records_only():
    p = StreamProgress(after=10)
    p.record(12, 2, 2)
    p.record(15, 2, 2)
    # 11: nothing to send, 12: delivered, 13: still running, 15: delivered
    p.settle([(11, True), (12, False), (13, False), (15, False)])
    assert p.after == 12
    assert p.done == {15}
    # 13 completes and is delivered: the watermark passes 15 too
    p.record(13, 1, 1)
    p.settle([(13, False), (15, False), (16, True)])
    assert (p.after, p.done, p.at) == (16, set(), {})


def test_settle_stops_at_a_partly_delivered_record():
    p = StreamProgress(after=10)
    p.record(11, 1, 4)
    p.settle([(11, False), (12, True)])
    assert p.after == 10
    assert p.delivered(11) == 1


def test_json_round_trip():
    ledger = Ledger(start=41)
    s = ledger.stream("slack", "orders:faucet_profile")
    s.record(59, 12, 40)
    s.record(60, 3, 3)
    s.after = 57
    ledger.destination("slack").wait_until = 1795983700.0
    ledger.destination("webhook").broken = Broken("ab12", "HTTP 404", 1.0, 3601.0)
    ledger.stream("webhook", "orders:faucet_profile")
    text = ledger.dumps()
    assert text == (
        '{"start":41,"to":{"slack":{"checks":{"orders:faucet_profile":{"after":57,'
        '"at":{"59":12},"done":[60]}},"wait_until":1795983700.0},"webhook":{"broken":'
        '{"fp":"ab12","probe_at":3601.0,"reason":"HTTP 404","since":1.0},"checks":'
        '{"orders:faucet_profile":{"after":41}}}},"v":1}'
    )
    assert Ledger.loads(text) == ledger


def test_an_empty_cursor_is_a_new_ledger():
    assert Ledger.loads(None) == Ledger()
    assert Ledger.loads("") == Ledger()


@pytest.mark.parametrize(
    ("cursor", "why"),
    [
        ("not json", "Expecting value"),
        ("[1, 2]", "not a faucet notification cursor"),
        ('{"v": 2, "start": 1, "to": {}}', "cursor version 2"),
        ('{"v": 1, "start": 1, "to": {"slack": {}}}', "checks"),
        ('{"v": 1, "start": "x", "to": {}}', "invalid literal"),
    ],
    ids=["garbage", "list", "newer", "missing", "bad-number"],
)
def test_an_unreadable_cursor_says_how_to_recover(cursor, why):
    with pytest.raises(NotifyError, match="clear it to notify evaluations from now on") as info:
        Ledger.loads(cursor)
    assert why in str(info.value)


def test_a_ledger_without_start_cannot_track_streams():
    with pytest.raises(NotifyError, match="no start"):
        Ledger().stream("slack", "x")
