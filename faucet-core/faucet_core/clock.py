"""The one clock faucet reads: the current time, in UTC."""

from __future__ import annotations

import datetime as dt

__all__ = ["utc_now"]


def utc_now() -> dt.datetime:
    """The current time as a timezone-aware UTC datetime."""
    return dt.datetime.now(dt.timezone.utc)
