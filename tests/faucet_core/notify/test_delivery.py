"""deliver(): retries, Retry-After and the deadline, on a simulated clock (no real waits)."""

from __future__ import annotations

import pytest

from faucet_core.errors import NotifyError
from faucet_core.notify import DeliveryError, DeliveryProblem, RetryPolicy, deliver, mask_secrets


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


class Scripted:
    """Raises the scripted errors in turn, then succeeds; records each call's timeout."""

    def __init__(self, *errors: DeliveryError, cost: float = 0.0, time: FakeTime) -> None:
        self.errors = list(errors)
        self.timeouts: list[float] = []
        self.cost = cost
        self.time = time

    def send(self, message: str, *, timeout: float) -> None:
        self.timeouts.append(timeout)
        self.time.now += self.cost
        if self.errors:
            raise self.errors.pop(0)


def err(problem: DeliveryProblem, retry_after: float | None = None) -> DeliveryError:
    return DeliveryError(problem, f"{problem.value}!", retry_after=retry_after)


RETRYABLE = DeliveryProblem.RETRYABLE
POLICY = RetryPolicy(max_attempts=4, initial_backoff=0.5, multiplier=2.0, max_backoff=1.5)


def test_retryable_errors_back_off_then_succeed():
    t = FakeTime()
    sender = Scripted(err(RETRYABLE), err(RETRYABLE), err(RETRYABLE), time=t)
    assert deliver(sender, "m", policy=POLICY, deadline=60, clock=t.clock, sleep=t.sleep) == 4
    assert t.slept == [0.5, 1.0, 1.5]  # capped at max_backoff


def test_attempts_run_out():
    t = FakeTime()
    sender = Scripted(*[err(RETRYABLE)] * 5, time=t)
    with pytest.raises(DeliveryError) as info:
        deliver(sender, "m", policy=POLICY, deadline=60, clock=t.clock, sleep=t.sleep)
    assert (info.value.problem, info.value.attempts) == (RETRYABLE, 4)
    assert len(sender.timeouts) == 4


def test_rate_limit_waits_retry_after():
    t = FakeTime()
    sender = Scripted(err(DeliveryProblem.RATE_LIMITED, retry_after=7), time=t)
    deliver(sender, "m", policy=POLICY, deadline=60, clock=t.clock, sleep=t.sleep)
    assert t.slept == [7]


def test_rate_limit_without_retry_after_uses_the_default():
    t = FakeTime()
    sender = Scripted(err(DeliveryProblem.RATE_LIMITED), time=t)
    deliver(sender, "m", policy=POLICY, deadline=60, clock=t.clock, sleep=t.sleep)
    assert t.slept == [POLICY.default_retry_after]


def test_a_wait_past_the_deadline_is_left_to_the_caller():
    t = FakeTime()
    sender = Scripted(err(DeliveryProblem.RATE_LIMITED, retry_after=120), time=t)
    with pytest.raises(DeliveryError) as info:
        deliver(sender, "m", policy=POLICY, deadline=25, clock=t.clock, sleep=t.sleep)
    assert info.value.problem is DeliveryProblem.RATE_LIMITED
    assert info.value.retry_after == 120
    assert t.slept == []


@pytest.mark.parametrize(
    "problem", [DeliveryProblem.REJECTED, DeliveryProblem.BROKEN], ids=["rejected", "broken"]
)
def test_rejected_and_broken_are_not_retried(problem):
    t = FakeTime()
    sender = Scripted(err(problem), time=t)
    with pytest.raises(DeliveryError) as info:
        deliver(sender, "m", policy=POLICY, deadline=60, clock=t.clock, sleep=t.sleep)
    assert info.value.problem is problem
    assert len(sender.timeouts) == 1
    assert t.slept == []


def test_request_timeout_shrinks_to_the_time_left():
    t = FakeTime()
    t.now = 55.0
    sender = Scripted(time=t)
    deliver(sender, "m", policy=POLICY, deadline=60, clock=t.clock, sleep=t.sleep)
    assert sender.timeouts == [5.0]


def test_no_request_starts_without_time_left():
    t = FakeTime()
    t.now = 59.8
    sender = Scripted(time=t)
    with pytest.raises(DeliveryError) as info:
        deliver(sender, "m", policy=POLICY, deadline=60, clock=t.clock, sleep=t.sleep)
    assert info.value.attempts == 0
    assert sender.timeouts == []


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("max_attempts", 0),
        ("initial_backoff", -1),
        ("multiplier", 0.5),
        ("request_timeout", 0),
    ],
    ids=["attempts", "backoff", "multiplier", "timeout"],
)
def test_retry_policy_validation(field, value):
    with pytest.raises(NotifyError, match=field):
        RetryPolicy(**{field: value})


def test_mask_secrets_replaces_every_secret_longest_first():
    text = "url https://hooks.example/abc token abc and https://hooks.example/abc"
    masked = mask_secrets(text, ["abc", "https://hooks.example/abc", ""])
    assert masked == "url *** token *** and ***"
