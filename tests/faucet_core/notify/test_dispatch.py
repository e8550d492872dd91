"""One delivery pass over streams of evaluations: exactly once per finding and destination."""

from __future__ import annotations

import logging
from collections import deque
from typing import Any

import pytest

from faucet_core.notify import (
    Channel,
    ChannelKind,
    DeliveryError,
    DeliveryProblem,
    Dispatcher,
    DispatchOptions,
    Evaluation,
    EvaluationState,
    Ledger,
    NotifiedFinding,
    RetryPolicy,
    SlackMessage,
)
from tests.faucet_core.notify.builders import WHEN, null_rate

STREAM = "orders:faucet_profile"
FAST = RetryPolicy(max_attempts=2, initial_backoff=0.0, max_backoff=0.0)


class Memory:
    """An in-memory sender: ``plan`` holds the outcome of each coming call (None: success)."""

    def __init__(self, *plan: DeliveryError | None, cost: float = 0.0, clock: Any = None) -> None:
        self.plan: deque[DeliveryError | None] = deque(plan)
        self.sent: list[Any] = []
        self.calls = 0
        self.cost = cost
        self.clock = clock

    def send(self, message: Any, *, timeout: float) -> None:
        self.calls += 1
        if self.clock is not None:
            self.clock.now += self.cost
        outcome = self.plan.popleft() if self.plan else None
        if outcome is not None:
            raise outcome
        self.sent.append(message)


class Clock:
    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Logs(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def at(self, level: int) -> list[str]:
        return [r.getMessage() for r in self.records if r.levelno == level]


@pytest.fixture
def logs() -> Logs:
    return Logs()


def _logger(logs: Logs) -> logging.Logger:
    logger = logging.Logger("test.dispatch", logging.DEBUG)
    logger.addHandler(logs)
    return logger


def ready(record_id: int, findings: int, asset: str = "orders") -> Evaluation:
    return Evaluation(
        record_id=record_id,
        state=EvaluationState.READY,
        asset=asset,
        check="faucet_profile",
        run_id=f"run-{record_id}",
        evaluated_at=WHEN,
        findings=tuple(NotifiedFinding.of(null_rate(f"c{i}")) for i in range(findings)),
    )


def skip(record_id: int) -> Evaluation:
    return Evaluation(record_id, EvaluationState.SKIP)


def pending(record_id: int) -> Evaluation:
    return Evaluation(record_id, EvaluationState.PENDING)


def channel(name: str, sender: Any, kind: ChannelKind = ChannelKind.SLACK, **kw: Any) -> Channel:
    return Channel(name, kind, f"{name!r}", kw.pop("fingerprint", f"fp-{name}"), sender, **kw)


def run_pass(
    ledger: Ledger,
    channels: list[Channel],
    evaluations: list[Evaluation],
    logs: Logs,
    *,
    options: DispatchOptions | None = None,
    mono: Clock | None = None,
    wall: Clock | None = None,
) -> Dispatcher:
    d = Dispatcher(
        ledger,
        channels,
        options or DispatchOptions(retry=FAST),
        _logger(logs),
        clock=mono or Clock(),
        wall=wall or Clock(1000.0),
        sleep=lambda s: None,
    )
    lower = d.lower_bound(STREAM)
    if lower is not None:
        d.dispatch(STREAM, [e for e in evaluations if e.record_id > lower], read_after=lower)
    return d


def _finding_columns(messages: list[Any]) -> list[str]:
    out = []
    for m in messages:
        if isinstance(m, SlackMessage):
            out.append(m.text.split(": ")[1].split(".")[0])
        else:
            out += [f["column"] for f in m["findings"]]
    return out


def test_one_notification_per_finding_to_every_destination_exactly_once(logs):
    ledger = Ledger(start=0)
    slack, hook = Memory(), Memory()
    chans = [channel("slack", slack), channel("hook", hook, ChannelKind.JSON)]
    evs = [ready(1, 2), skip(2), ready(3, 1)]
    d = run_pass(ledger, chans, evs, logs)
    assert d.summary() == "delivered 6 notification(s) (hook 3, slack 3)"
    assert _finding_columns(slack.sent) == ["c0", "c1", "c0"]
    assert [m["id"] for m in hook.sent] == [
        "run-1/orders/faucet_profile#0",
        "run-1/orders/faucet_profile#1",
        "run-3/orders/faucet_profile#0",
    ]
    assert ledger.after("slack", STREAM) == 3
    assert ledger.after("hook", STREAM) == 3
    again = run_pass(ledger, chans, [*evs, skip(4)], logs)
    assert again.summary() == "no new drift notifications"
    assert len(slack.sent) == 3
    assert len(hook.sent) == 3
    assert ledger.after("slack", STREAM) == 4


def test_grouped_sends_one_message_per_evaluation(logs):
    ledger = Ledger(start=0)
    slack, hook = Memory(), Memory()
    chans = [channel("slack", slack), channel("hook", hook, ChannelKind.JSON)]
    run_pass(
        ledger,
        chans,
        [ready(1, 3), ready(2, 1)],
        logs,
        options=DispatchOptions(group_by_evaluation=True, retry=FAST),
    )
    assert [len(m["findings"]) for m in hook.sent] == [3, 1]
    assert [m.text.splitlines()[0] for m in slack.sent] == [
        "Profile drift on orders: 3 finding(s)",
        "Profile drift on orders: c0.null_rate: null_rate 0.4000 vs baseline mean 0.0012 — "
        "|z| 41.30 exceeds 3 (limit 19.04 for 5 baseline runs, 42 tests)",
    ]


def test_a_running_evaluation_holds_the_watermark_not_later_ones(logs):
    ledger = Ledger(start=0)
    slack = Memory()
    chans = [channel("slack", slack)]
    run_pass(ledger, chans, [ready(1, 1), pending(2), ready(3, 1)], logs)
    assert len(slack.sent) == 2
    progress = ledger.stream("slack", STREAM)
    assert (progress.after, progress.done) == (1, {3})
    run_pass(ledger, chans, [ready(2, 2), ready(3, 1)], logs)
    assert len(slack.sent) == 4  # only the two findings of 2; 3 is not sent again
    assert (progress.after, progress.done) == (3, set())


def test_a_failing_destination_resumes_where_it_stopped_and_others_do_not_repeat(logs):
    ledger = Ledger(start=0)
    boom = DeliveryError(DeliveryProblem.RETRYABLE, "HTTP 503", status=503)
    slack = Memory(None, boom, boom)  # the 2nd finding fails twice: attempts used up
    hook = Memory()
    chans = [channel("slack", slack), channel("hook", hook, ChannelKind.JSON)]
    evs = [ready(1, 3), ready(2, 1)]
    d = run_pass(ledger, chans, evs, logs)
    assert len(slack.sent) == 1
    assert len(hook.sent) == 4
    assert ledger.stream("slack", STREAM).at == {1: 1}
    assert d.waiting == {"slack"}
    assert logs.at(logging.WARNING) == [
        "'slack': not delivered after 2 attempt(s) (HTTP 503); the rest waits for the next tick"
    ]
    run_pass(ledger, chans, evs, logs)
    assert _finding_columns(slack.sent) == ["c0", "c1", "c2", "c0"]
    assert len(hook.sent) == 4
    assert ledger.after("slack", STREAM) == 2


def test_a_broken_destination_is_logged_once_and_probed_later(logs):
    ledger = Ledger(start=0)
    broken = DeliveryError(DeliveryProblem.BROKEN, "answered 'invalid_auth' (bad token)")
    slack = Memory(broken)
    wall = Clock(1000.0)
    chans = [channel("slack", slack)]
    opts = DispatchOptions(retry=FAST, probe_interval_seconds=3600)
    evs = [ready(1, 2)]
    for _ in range(3):
        run_pass(ledger, chans, evs, logs, options=opts, wall=wall)
        wall.now += 60
    assert slack.calls == 1
    [error] = logs.at(logging.ERROR)
    assert error == (
        "faucet drift notifications to 'slack' are held: answered 'invalid_auth' (bad token). "
        "Findings are kept, not dropped; faucet tries again in 3600 s or as soon as the "
        "destination's configuration changes"
    )
    assert ledger.destination("slack").broken is not None
    wall.now = 1000.0 + 3600
    slack.plan.append(broken)
    run_pass(ledger, chans, evs, logs, options=opts, wall=wall)
    assert slack.calls == 2
    assert len(logs.at(logging.ERROR)) == 1
    assert "'slack': still failing" in logs.at(logging.INFO)[-1]
    wall.now += 3600
    run_pass(ledger, chans, evs, logs, options=opts, wall=wall)
    assert len(slack.sent) == 2
    assert ledger.destination("slack").broken is None
    assert logs.at(logging.INFO)[-1] == "'slack': delivering again"


def test_a_new_configuration_clears_a_broken_destination_at_once(logs):
    ledger = Ledger(start=0)
    slack = Memory(DeliveryError(DeliveryProblem.BROKEN, "HTTP 404 'no_service'"))
    run_pass(ledger, [channel("slack", slack)], [ready(1, 1)], logs)
    assert slack.sent == []
    fixed = Memory()
    run_pass(ledger, [channel("slack", fixed, fingerprint="new")], [ready(1, 1)], logs)
    assert len(fixed.sent) == 1
    assert "'slack': configuration changed; sending again" in logs.at(logging.INFO)


def test_a_setup_error_is_logged_once_until_fixed(logs):
    ledger = Ledger(start=0)
    unset = channel(
        "slack", None, fingerprint="unset:SLACK_URL", setup_error="SLACK_URL is not set"
    )
    for _ in range(3):
        d = run_pass(ledger, [unset], [ready(1, 1)], logs)
        assert d.summary() == "no new drift notifications; waiting: slack"
    assert len(logs.at(logging.ERROR)) == 1
    assert "SLACK_URL is not set" in logs.at(logging.ERROR)[0]
    sender = Memory()
    run_pass(ledger, [channel("slack", sender)], [ready(1, 1)], logs)
    assert len(sender.sent) == 1


def test_retry_after_longer_than_the_tick_waits_across_ticks(logs):
    ledger = Ledger(start=0)
    limited = DeliveryError(DeliveryProblem.RATE_LIMITED, "HTTP 429", retry_after=120)
    slack = Memory(limited)
    wall = Clock(1000.0)
    chans = [channel("slack", slack)]
    run_pass(ledger, chans, [ready(1, 2)], logs, wall=wall)
    assert ledger.destination("slack").wait_until == 1120.0
    wall.now = 1060.0
    run_pass(ledger, chans, [ready(1, 2)], logs, wall=wall)
    assert slack.calls == 1
    wall.now = 1121.0
    run_pass(ledger, chans, [ready(1, 2)], logs, wall=wall)
    assert len(slack.sent) == 2
    assert ledger.destination("slack").wait_until is None


def test_the_time_budget_ends_the_pass_and_the_next_one_continues(logs):
    ledger = Ledger(start=0)
    mono = Clock()
    slack = Memory(cost=1.0, clock=mono)
    opts = DispatchOptions(budget_seconds=10, retry=RetryPolicy(min_request_time=0.5))
    evs = [ready(1, 25)]
    d = run_pass(ledger, [channel("slack", slack)], evs, logs, options=opts, mono=mono)
    assert d.out_of_time
    assert len(slack.sent) == 10
    assert d.summary() == (
        "delivered 10 notification(s) (slack 10); time budget of 10 s used, continuing next tick"
    )
    while ledger.after("slack", STREAM) < 1:
        run_pass(ledger, [channel("slack", slack)], evs, logs, options=opts, mono=Clock())
    assert _finding_columns(slack.sent) == [f"c{i}" for i in range(25)]


def test_text_fn_and_blocks_fn_shape_the_message(logs):
    ledger = Ledger(start=0)
    slack, hook = Memory(), Memory()
    opts = DispatchOptions(
        retry=FAST,
        text_fn=lambda n: f"{n.asset}: {n.findings[0].finding.key}",
        blocks_fn=lambda n: [{"type": "divider"}] * 60,
    )
    chans = [channel("slack", slack), channel("hook", hook, ChannelKind.JSON)]
    run_pass(ledger, chans, [ready(1, 1)], logs, options=opts)
    assert slack.sent[0].text == "orders: c0.null_rate"
    assert len(slack.sent[0].blocks) == 50  # Slack's limit
    assert hook.sent[0]["text"] == "orders: c0.null_rate"


def test_a_failing_text_fn_falls_back_to_the_default_and_is_logged_once(logs):
    def bad(n: Any) -> str:
        raise ValueError("oops")

    ledger = Ledger(start=0)
    slack = Memory()
    opts = DispatchOptions(retry=FAST, text_fn=bad)
    run_pass(ledger, [channel("slack", slack)], [ready(1, 3)], logs, options=opts)
    assert len(slack.sent) == 3
    assert slack.sent[0].text.startswith("Profile drift on orders: c0.null_rate")
    assert logs.at(logging.ERROR) == [
        "text_fn raised ValueError: oops; the default was sent instead"
    ]


def test_blocks_slack_refuses_are_sent_as_text(logs):
    ledger = Ledger(start=0)
    slack = Memory(DeliveryError(DeliveryProblem.REJECTED, "answered 'invalid_blocks'"))
    run_pass(ledger, [channel("slack", slack)], [ready(1, 1)], logs)
    [sent] = slack.sent
    assert sent.blocks == ()
    assert sent.text.startswith("Profile drift on orders")
    assert "Slack refused the blocks" in logs.at(logging.WARNING)[0]
    assert ledger.after("slack", STREAM) == 1


def test_a_rejected_json_message_holds_the_destination(logs):
    ledger = Ledger(start=0)
    hook = Memory(DeliveryError(DeliveryProblem.REJECTED, "the webhook answered HTTP 400"))
    run_pass(ledger, [channel("hook", hook, ChannelKind.JSON)], [ready(1, 1)], logs)
    assert "it refuses our messages: the webhook answered HTTP 400" in logs.at(logging.ERROR)[0]
    assert ledger.after("hook", STREAM) == 0


def test_a_sender_bug_does_not_lose_what_was_delivered(logs):
    class Flaky(Memory):
        def send(self, message: Any, *, timeout: float) -> None:
            if len(self.sent) == 1:
                raise RuntimeError("bug")
            super().send(message, timeout=timeout)

    ledger = Ledger(start=0)
    flaky = Flaky()
    run_pass(ledger, [channel("slack", flaky)], [ready(1, 3)], logs)
    assert len(flaky.sent) == 1
    assert ledger.stream("slack", STREAM).at == {1: 1}


def test_secrets_are_redacted_from_everything_logged(logs):
    secret = "https://hooks.slack.com/services/T0/B0/s3cr3t"
    leaky = Memory(DeliveryError(DeliveryProblem.BROKEN, f"could not post to {secret}"))
    chan = channel("slack", leaky, secrets=(secret,))
    ledger = Ledger(start=0)
    run_pass(ledger, [chan], [ready(1, 1)], logs)
    text = " ".join(r.getMessage() for r in logs.records)
    assert "s3cr3t" not in text
    assert "could not post to ***" in text
    assert "s3cr3t" not in ledger.dumps()


def test_a_destination_added_later_is_not_sent_the_past(logs):
    ledger = Ledger(start=0)
    slack = Memory()
    run_pass(ledger, [channel("slack", slack)], [ready(1, 1)], logs)
    hook = Memory()
    chans = [channel("slack", slack), channel("hook", hook, ChannelKind.JSON)]
    d = Dispatcher(ledger, chans, DispatchOptions(retry=FAST), _logger(logs), latest=1)
    lower = d.lower_bound(STREAM)
    assert lower == 1
    d.dispatch(STREAM, [ready(2, 1)], read_after=lower)
    assert [m["run_id"] for m in hook.sent] == ["run-2"]
    assert len(slack.sent) == 2
    assert Ledger.loads(ledger.dumps()).destinations["hook"].start == 1


@pytest.mark.parametrize("grouped", [False, True], ids=["per_finding", "grouped"])
def test_a_schema_change_goes_once_after_the_evaluations_findings(logs, grouped):
    from dataclasses import replace

    ledger = Ledger(start=0)
    hook = Memory()
    changed = replace(ready(1, 2), schema_change="schema changed: column b dropped (was string)")
    only = replace(ready(2, 0), schema_change="schema changed: new column c (integer)")
    options = DispatchOptions(group_by_evaluation=grouped, retry=FAST)
    run_pass(
        ledger, [channel("hook", hook, ChannelKind.JSON)], [changed, only], logs, options=options
    )
    kinds = [(m["kind"], len(m["findings"])) for m in hook.sent]
    drift = [("profile_drift", 2)] if grouped else [("profile_drift", 1)] * 2
    assert kinds == [*drift, ("profile_schema_change", 0), ("profile_schema_change", 0)]
    assert hook.sent[-2]["id"] == "run-1/orders/faucet_profile#schema"
    assert hook.sent[-1]["summary"] == "schema changed: new column c (integer)"
    run_pass(
        ledger, [channel("hook", hook, ChannelKind.JSON)], [changed, only], logs, options=options
    )
    assert len(hook.sent) == len(kinds)  # exactly once
