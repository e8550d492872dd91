"""One delivery pass ("tick"): evaluations in, messages out, the ledger moved forward.

The :class:`Dispatcher` walks each stream's evaluations in id order and, for every
destination, sends the findings it has not received yet, recording each confirmed
delivery in the :class:`~faucet_core.notify.ledger.Ledger` right away. It never raises
once something was sent: a failure stops that destination until the next pass, a broken
destination is logged once and held (its findings wait, they are not dropped), and the
pass ends when its time budget is spent. Everything logged is redacted of secrets.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from faucet_core.config import OnDrift
from faucet_core.notify.delivery import (
    DeliveryError,
    DeliveryProblem,
    RetryPolicy,
    deliver,
    mask_secrets,
)
from faucet_core.notify.json_message import json_payload
from faucet_core.notify.ledger import Broken, Ledger
from faucet_core.notify.model import (
    CheckSeverity,
    DriftNotification,
    NotificationKind,
    NotifiedFinding,
)
from faucet_core.notify.slack_message import (
    MAX_TEXT_CHARS,
    SlackMessage,
    clip,
    fit_blocks,
    plain_text,
    slack_blocks,
    slack_text,
)

__all__ = [
    "BlocksFn",
    "Channel",
    "ChannelKind",
    "DispatchOptions",
    "Dispatcher",
    "Evaluation",
    "EvaluationState",
    "TextFn",
]

TextFn = Callable[[DriftNotification], str]
BlocksFn = Callable[[DriftNotification], Sequence[Mapping[str, Any]]]


class EvaluationState(str, Enum):
    READY = "ready"
    """Completed with findings (or a check error) to notify."""
    SKIP = "skip"
    """Completed with nothing to notify (passed, on_drift warn, unreadable)."""
    PENDING = "pending"
    """Still running: later evaluations may go out, but the stream cannot settle past it."""


@dataclass(frozen=True)
class Evaluation:
    """One check evaluation as the dispatcher sees it."""

    record_id: int
    state: EvaluationState
    asset: str = ""
    check: str = ""
    run_id: str = ""
    evaluated_at: dt.datetime | None = None
    on_drift: OnDrift = OnDrift.NOTIFY
    severity: CheckSeverity = CheckSeverity.WARN
    partition: str | None = None
    run_url: str | None = None
    findings: tuple[NotifiedFinding, ...] = ()
    error: str | None = None
    """A check that could not do its work: one ``profile_check_error`` notification."""
    freshness: str | None = None
    """An overdue episode began or ended: one ``profile_freshness`` notification."""
    episode: str | None = None
    schema_change: str | None = None
    """The run's columns or JSON types changed: one ``profile_schema_change`` notification,
    delivered after the evaluation's findings."""

    @property
    def items(self) -> int:
        """What is delivered for this evaluation: its findings (and its schema change), or
        its one error or freshness change."""
        if self.error is not None or self.freshness is not None:
            return 1
        return len(self.findings) + (1 if self.schema_change is not None else 0)

    def stop_after(self, sent: int, group: bool) -> int:
        """Where the next notification from ``sent`` on ends: one item, or every finding
        at once when grouped (the schema change always goes alone)."""
        if not group:
            return sent + 1
        return len(self.findings) if sent < len(self.findings) else self.items

    def notification(self, start: int, stop: int) -> DriftNotification:
        if self.error is not None:
            return self._made((), 0, 0, NotificationKind.PROFILE_CHECK_ERROR, self.error)
        if self.freshness is not None:
            return self._made((), 0, 0, NotificationKind.PROFILE_FRESHNESS, summary=self.freshness)
        if start >= len(self.findings) and self.schema_change is not None:
            return self._made(
                (), 0, 0, NotificationKind.PROFILE_SCHEMA_CHANGE, summary=self.schema_change
            )
        findings = self.findings[start : min(stop, len(self.findings))]
        return self._made(findings, start, len(self.findings), NotificationKind.PROFILE_DRIFT)

    def _made(
        self,
        findings: tuple[NotifiedFinding, ...],
        first: int,
        total: int,
        kind: NotificationKind,
        error: str | None = None,
        *,
        summary: str | None = None,
    ) -> DriftNotification:
        assert self.evaluated_at is not None
        return DriftNotification(
            asset=self.asset,
            check=self.check,
            findings=findings,
            first_index=first,
            total_findings=total,
            run_id=self.run_id,
            evaluated_at=self.evaluated_at,
            on_drift=self.on_drift,
            severity=self.severity,
            partition=self.partition,
            run_url=self.run_url,
            kind=kind,
            error=error,
            summary=summary,
            episode=self.episode if kind is NotificationKind.PROFILE_FRESHNESS else None,
        )


class ChannelKind(str, Enum):
    SLACK = "slack"
    JSON = "json"


@dataclass(frozen=True)
class Channel:
    """A destination ready to send (or why it is not: ``setup_error``).

    ``fingerprint`` changes when the configuration does (a new URL, token or channel), which
    clears a broken state at once. ``secrets`` are redacted from everything logged.
    """

    name: str
    kind: ChannelKind
    label: str
    fingerprint: str
    sender: Any = field(default=None, repr=False)
    secrets: tuple[str, ...] = field(default=(), repr=False)
    setup_error: str | None = None


@dataclass(frozen=True)
class DispatchOptions:
    group_by_evaluation: bool = False
    budget_seconds: float = 25.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    probe_interval_seconds: float = 3600.0
    text_fn: TextFn | None = None
    blocks_fn: BlocksFn | None = None


@dataclass
class _Active:
    channel: Channel
    probing: bool = False


class Dispatcher:
    """Delivers streams of evaluations to channels and records it in ``ledger``."""

    def __init__(
        self,
        ledger: Ledger,
        channels: Sequence[Channel],
        options: DispatchOptions,
        log: logging.Logger,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
        latest: int | None = None,
    ) -> None:
        """``latest``: the newest record id now; a channel the ledger has not seen yet
        starts there (None: at the ledger's start)."""
        self.ledger = ledger
        self._latest = latest
        self.options = options
        self._log_to = log
        self._clock, self._wall, self._sleep = clock, wall, sleep
        self._deadline = clock() + options.budget_seconds
        self._secrets = tuple(s for c in channels for s in c.secrets)
        self.delivered: dict[str, int] = {c.name: 0 for c in channels}
        self.waiting: set[str] = set()
        self.out_of_time = False
        self._fn_errors: set[str] = set()
        self._active: dict[str, _Active] = {}
        self._started: set[str] = set()
        for channel in channels:
            self._admit(channel)

    # -- logging ------------------------------------------------------------------------
    def log(self, level: int, message: str) -> None:
        """Log ``message`` with every secret of the channels redacted."""
        self._log_to.log(level, mask_secrets(message, self._secrets))

    # -- which channels take part --------------------------------------------------------
    def _admit(self, channel: Channel) -> None:
        if channel.name not in self.ledger.destinations:
            self.ledger.destination(channel.name).start = self._latest
        state = self.ledger.destination(channel.name)
        now = self._wall()
        if channel.setup_error is not None:
            self._break(channel, channel.setup_error, probe=False)
            return
        if state.broken is not None and state.broken.fingerprint != channel.fingerprint:
            self.log(logging.INFO, f"{channel.label}: configuration changed; sending again")
            state.broken = None
        probing = False
        if state.broken is not None:
            if now < state.broken.probe_at:
                self.waiting.add(channel.name)
                return
            probing = True
        if state.wait_until is not None:
            if now < state.wait_until:
                self.waiting.add(channel.name)
                return
            state.wait_until = None
        self._active[channel.name] = _Active(channel, probing)
        self._started.add(channel.name)

    def _break(self, channel: Channel, reason: str, *, probe: bool = True) -> None:
        state = self.ledger.destination(channel.name)
        now = self._wall()
        reason = mask_secrets(reason, self._secrets)
        known = state.broken
        same = known is not None and (known.fingerprint, known.reason) == (
            channel.fingerprint,
            reason,
        )
        # A setup error (probe=False) is looked at again on every pass, not probed.
        probe_at = now + self.options.probe_interval_seconds if probe else now
        if same and known is not None:
            known.probe_at = probe_at
            if probe:
                self.log(logging.INFO, f"{channel.label}: still failing ({reason})")
        else:
            state.broken = Broken(channel.fingerprint, reason, now, probe_at)
            retry = (
                f"; faucet tries again in {self.options.probe_interval_seconds:g} s or as soon "
                "as the destination's configuration changes"
                if probe
                else "; faucet tries again as soon as this is fixed"
            )
            self.log(
                logging.ERROR,
                f"faucet drift notifications to {channel.label} are held: {reason}. "
                f"Findings are kept, not dropped{retry}",
            )
        self.waiting.add(channel.name)
        self._active.pop(channel.name, None)

    def lower_bound(self, stream: str) -> int | None:
        """The lowest ``after`` of the active channels in ``stream`` (None: none is active)."""
        if not self._active:
            return None
        return min(self.ledger.after(name, stream) for name in self._active)

    @property
    def active(self) -> list[str]:
        return sorted(self._active)

    def _time_left(self) -> float:
        return self._deadline - self._clock()

    # -- messages -----------------------------------------------------------------------
    def _user(
        self, fn_name: str, fn: Callable[[DriftNotification], Any], n: DriftNotification
    ) -> Any:
        try:
            return fn(n)
        except Exception as exc:
            if fn_name not in self._fn_errors:
                self._fn_errors.add(fn_name)
                self.log(
                    logging.ERROR,
                    f"{fn_name} raised {type(exc).__name__}: {exc}; the default was sent instead",
                )
            return None

    def _text(self, n: DriftNotification, kind: ChannelKind) -> str:
        if self.options.text_fn is not None:
            text = self._user("text_fn", self.options.text_fn, n)
            if isinstance(text, str) and text:
                return clip(text, MAX_TEXT_CHARS)
        return slack_text(n) if kind is ChannelKind.SLACK else plain_text(n)

    def _blocks(self, n: DriftNotification) -> tuple[Mapping[str, Any], ...]:
        if self.options.blocks_fn is not None:
            blocks = self._user("blocks_fn", self.options.blocks_fn, n)
            if isinstance(blocks, Sequence) and not isinstance(blocks, str):
                return fit_blocks(blocks)
        return tuple(slack_blocks(n))

    def _message(self, kind: ChannelKind, n: DriftNotification, cache: dict[Any, Any]) -> Any:
        key = (kind, n.id)
        if key not in cache:
            text = self._text(n, kind)
            if kind is ChannelKind.SLACK:
                cache[key] = SlackMessage(text=text, blocks=self._blocks(n))
            else:
                cache[key] = json_payload(n, text)
        return cache[key]

    # -- sending ------------------------------------------------------------------------
    def _deliver(self, channel: Channel, message: Any) -> None:
        deliver(
            channel.sender,
            message,
            policy=self.options.retry,
            deadline=self._deadline,
            clock=self._clock,
            sleep=self._sleep,
        )

    def _send(self, active: _Active, n: DriftNotification, cache: dict[Any, Any]) -> bool:
        channel = active.channel
        message = self._message(channel.kind, n, cache)
        try:
            try:
                self._deliver(channel, message)
            except DeliveryError as exc:
                if not (
                    exc.problem is DeliveryProblem.REJECTED
                    and isinstance(message, SlackMessage)
                    and message.blocks
                ):
                    raise
                self.log(
                    logging.WARNING,
                    f"{channel.label}: Slack refused the blocks of {n.id} ({exc.detail}); "
                    "sending it as text",
                )
                self._deliver(channel, message.without_blocks())
        except DeliveryError as exc:
            self._failed(channel, exc)
            return False
        except Exception as exc:  # a sender bug must not lose the ledger of this pass
            self._failed(
                channel,
                DeliveryError(DeliveryProblem.RETRYABLE, f"{type(exc).__name__}: {exc}"),
            )
            return False
        self.delivered[channel.name] += 1
        if active.probing:
            active.probing = False
            self.ledger.destination(channel.name).broken = None
            self.log(logging.INFO, f"{channel.label}: delivering again")
        return True

    def _failed(self, channel: Channel, exc: DeliveryError) -> None:
        problem = exc.problem
        if problem in (DeliveryProblem.BROKEN, DeliveryProblem.REJECTED):
            what = "" if problem is DeliveryProblem.BROKEN else "it refuses our messages: "
            self._break(channel, what + exc.detail)
            return
        self._active.pop(channel.name, None)
        self.waiting.add(channel.name)
        if exc.attempts == 0:  # the budget ran out before the request
            self.out_of_time = True
            return
        if problem is DeliveryProblem.RATE_LIMITED and exc.retry_after:
            until = self._wall() + exc.retry_after
            self.ledger.destination(channel.name).wait_until = until
            self.log(
                logging.WARNING,
                f"{channel.label}: rate limited; waiting {exc.retry_after:g} s (Retry-After) "
                "before sending the rest",
            )
            return
        self.log(
            logging.WARNING,
            f"{channel.label}: not delivered after {exc.attempts} attempt(s) ({exc.detail}); "
            "the rest waits for the next tick",
        )

    # -- the pass -----------------------------------------------------------------------
    def dispatch(self, stream: str, evaluations: Sequence[Evaluation], *, read_after: int) -> None:
        """Deliver ``evaluations``: ascending ids, every record of the stream with an id above
        ``read_after`` (the :meth:`lower_bound` they were read with). Then settle the stream
        for the channels that took part and stood at or above ``read_after``."""
        try:
            self._dispatch(stream, evaluations)
        finally:
            records = [(e.record_id, e.state is EvaluationState.SKIP) for e in evaluations]
            for name in sorted(self._started):
                if self.ledger.after(name, stream) >= read_after:
                    self.ledger.stream(name, stream).settle(records)

    def _dispatch(self, stream: str, evaluations: Sequence[Evaluation]) -> None:
        group = self.options.group_by_evaluation
        for ev in evaluations:
            if ev.state is not EvaluationState.READY:
                continue
            cache: dict[Any, Any] = {}
            total = ev.items
            for active in list(self._active.values()):
                progress = self.ledger.stream(active.channel.name, stream)
                sent = progress.delivered(ev.record_id)
                while sent is not None and sent < total:
                    if self._time_left() < self.options.retry.min_request_time:
                        self.out_of_time = True
                        return
                    stop = ev.stop_after(sent, group)
                    if not self._send(active, ev.notification(sent, stop), cache):
                        break
                    sent = stop
                    progress.record(ev.record_id, sent, total)
                if self.out_of_time:
                    return
            if not self._active:
                return

    def summary(self) -> str:
        """One line on what this pass did (the tick's skip reason)."""
        total = sum(self.delivered.values())
        if total:
            per = ", ".join(f"{k} {v}" for k, v in sorted(self.delivered.items()))
            text = f"delivered {total} notification(s) ({per})"
        else:
            text = "no new drift notifications"
        if self.out_of_time:
            text += f"; time budget of {self.options.budget_seconds:g} s used, continuing next tick"
        if self.waiting:
            text += f"; waiting: {', '.join(sorted(self.waiting))}"
        return text
