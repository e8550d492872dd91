"""Delivering one message: the retry policy, the errors senders raise, and :func:`deliver`.

A sender raises :class:`DeliveryError` with a :class:`DeliveryProblem`:

- ``retryable`` (5xx, a timeout, a refused connection): retried with exponential backoff;
- ``rate_limited`` (HTTP 429): retried after the server's ``Retry-After``;
- ``rejected``: this message was refused (e.g. Slack's ``invalid_blocks``); retrying the
  same message cannot help;
- ``broken``: the destination cannot work as configured (404, ``invalid_auth``,
  ``channel_not_found``); retrying cannot help until someone fixes it.

Every wait fits inside a deadline (the caller's time budget): what does not fit is left
for the caller to try later, never dropped here.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Protocol, TypeVar

from faucet_core.errors import NotifyError

__all__ = [
    "DeliveryError",
    "DeliveryProblem",
    "RetryPolicy",
    "Sender",
    "deliver",
    "mask_secrets",
]

M = TypeVar("M", contravariant=True)
T = TypeVar("T")


class DeliveryProblem(str, Enum):
    """Why a message was not delivered."""

    RETRYABLE = "retryable"
    RATE_LIMITED = "rate_limited"
    REJECTED = "rejected"
    BROKEN = "broken"


class DeliveryError(NotifyError):
    """A message was not delivered. The text never holds a secret (URL, token)."""

    def __init__(
        self,
        problem: DeliveryProblem,
        detail: str,
        *,
        status: int | None = None,
        retry_after: float | None = None,
        attempts: int = 1,
    ) -> None:
        super().__init__(detail)
        self.problem = problem
        self.detail = detail
        self.status = status
        self.retry_after = retry_after
        self.attempts = attempts


class Sender(Protocol[M]):
    """Posts one message; raises :class:`DeliveryError`. ``timeout`` bounds the request."""

    def send(self, message: M, *, timeout: float) -> None: ...


@dataclass(frozen=True)
class RetryPolicy:
    """How one message is retried inside the caller's time budget.

    ``max_attempts`` counts the first try. Backoff between retryable failures is
    ``initial_backoff * multiplier ** n`` capped at ``max_backoff``; a 429 waits its
    ``Retry-After`` (``default_retry_after`` when the server gives none).
    """

    max_attempts: int = 4
    initial_backoff: float = 0.5
    multiplier: float = 2.0
    max_backoff: float = 8.0
    request_timeout: float = 10.0
    default_retry_after: float = 1.0
    min_request_time: float = 0.5
    """A request is not started with less time than this left in the budget."""

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise NotifyError(f"max_attempts={self.max_attempts} must be at least 1")
        for name in ("initial_backoff", "max_backoff", "default_retry_after", "min_request_time"):
            if getattr(self, name) < 0:
                raise NotifyError(f"{name}={getattr(self, name)} must not be negative")
        if self.multiplier < 1:
            raise NotifyError(f"multiplier={self.multiplier} must be at least 1")
        if self.request_timeout <= 0:
            raise NotifyError(f"request_timeout={self.request_timeout} must be positive")

    def backoff(self, retry: int) -> float:
        """The wait before retry number ``retry`` (1 for the first retry)."""
        return float(min(self.max_backoff, self.initial_backoff * self.multiplier ** (retry - 1)))


def deliver(
    sender: Sender[T],
    message: T,
    *,
    policy: RetryPolicy,
    deadline: float,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Send ``message``, retrying within ``deadline`` (a ``clock()`` time); the attempts used.

    Raises the last :class:`DeliveryError` when the message is rejected, the destination is
    broken, the attempts are used up, or the next wait would pass the deadline (then a
    ``rate_limited`` error keeps its ``retry_after`` so the caller can wait across ticks).
    """
    attempt = 0
    while True:
        left = deadline - clock()
        if left < policy.min_request_time:
            raise DeliveryError(
                DeliveryProblem.RETRYABLE, "no time left in this tick", attempts=attempt
            )
        attempt += 1
        try:
            sender.send(message, timeout=min(policy.request_timeout, left))
            return attempt
        except DeliveryError as exc:
            exc.attempts = attempt
            if exc.problem in (DeliveryProblem.REJECTED, DeliveryProblem.BROKEN):
                raise
            if exc.problem is DeliveryProblem.RATE_LIMITED:
                wait = (
                    exc.retry_after if exc.retry_after is not None else policy.default_retry_after
                )
                exc.retry_after = wait
            else:
                wait = policy.backoff(attempt)
            if attempt >= policy.max_attempts:
                raise
            if clock() + wait + policy.min_request_time > deadline:
                raise
            sleep(wait)


def mask_secrets(text: str, secrets: tuple[str, ...] | list[str]) -> str:
    """``text`` with every secret replaced by ``***`` (longest first)."""
    for secret in sorted((s for s in secrets if s), key=len, reverse=True):
        text = text.replace(secret, "***")
    return text
