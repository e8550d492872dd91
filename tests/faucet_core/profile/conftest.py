"""Fixtures of the profiler tests: a real database for the SQL pushdown tests."""

from __future__ import annotations

from tests.faucet_core.profile.sqldata import warehouse

__all__ = ["warehouse"]
