"""The JSON body a generic webhook receives for a drift notification (pure)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from faucet_core.notify.model import DriftNotification

__all__ = ["PAYLOAD_VERSION", "json_payload"]

PAYLOAD_VERSION = 1
"""Bumped when a field changes meaning or goes away (new fields do not bump it)."""


def json_payload(n: DriftNotification, text: str) -> dict[str, Any]:
    """The webhook body: the notification's context, ``text`` and its findings.

    ``findings`` is always a list (one element unless grouped; empty for a
    ``profile_check_error``, whose ``error`` says why the check could not do its work);
    ``id`` is stable across retries so a receiver can drop repeats.
    """
    body: dict[str, Any] = {
        "version": PAYLOAD_VERSION,
        "kind": n.kind.value,
        "id": n.id,
        "text": text,
        "asset": n.asset,
        "check": n.check,
        "partition": n.partition,
        "run_id": n.run_id,
        "run_url": n.run_url,
        "on_drift": n.on_drift.value,
        "severity": n.severity.value,
        "evaluated_at": n.evaluated_at.astimezone(dt.timezone.utc)
        .isoformat()
        .replace("+00:00", "Z"),
        "first_index": n.first_index,
        "total_findings": n.total_findings,
        "findings": [f.to_dict() for f in n.findings],
    }
    if n.error is not None:
        body["error"] = n.error
    if n.summary is not None:
        body["summary"] = n.summary
    if n.episode is not None:
        body["episode"] = n.episode
    return body
