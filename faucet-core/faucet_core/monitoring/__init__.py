"""Monitoring files shipped with faucet: Prometheus alerting rules and a Grafana dashboard.

Both are package data next to this module (``faucet_core/monitoring/``); ``faucet metrics
--rules`` and ``faucet metrics --dashboard`` print them. :data:`RULES` and :data:`DASHBOARD`
are the file names; :func:`read` returns a file's text through :mod:`importlib.resources`, so
it works from a wheel, a zip or a source tree alike.
"""

from __future__ import annotations

from importlib import resources

__all__ = ["ALERTS", "DASHBOARD", "RULES", "read"]

RULES = "faucet-alerts.rules.yml"
DASHBOARD = "faucet-dashboard.json"
ALERTS = (
    "FaucetProfileDrift",
    "FaucetCheckError",
    "FaucetBaselineStalled",
    "FaucetAssetOverdue",
)
"""The alerts the shipped rules define."""


def read(name: str) -> str:
    """The text of a shipped monitoring file (:data:`RULES` or :data:`DASHBOARD`)."""
    if name not in (RULES, DASHBOARD):
        raise ValueError(f"{name!r} is not a faucet monitoring file: use {RULES} or {DASHBOARD}")
    return resources.files(__name__).joinpath(name).read_text(encoding="utf-8")
