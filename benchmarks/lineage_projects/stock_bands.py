"""Held-out project: daily stock prices, their Bollinger bands and the days a closing price
left its bands; a small pandas version of Dagster's ``examples/assets_pandas_type_metadata``
(see README.md). One run is one trading day (``FAUCET_LINEAGE_DAY``): the prices of the
last 120 trading days up to it, from a fixed seed (the same day has the same price in
every run)."""

from __future__ import annotations

import os

import dagster as dg
import numpy as np
import pandas as pd
from _declared import Declared, column_lineage

__all__ = ["ASSETS", "LINEAGE", "prices_for_day"]

ID = "DIRECT/IDENTITY"
CALC = "DIRECT/TRANSFORMATION"
LINEAGE: dict[str, dict[str, Declared]] = {
    "sp500_bollinger_bands": {
        "sp500_prices": Declared(
            {
                "name": {"name": ID},
                "date": {"date": ID},
                "upper": {"close": CALC},
                "lower": {"close": CALC},
            },
            frozenset({"name", "date"}),  # the window: per name, ordered by date
        ),
    },
    "sp500_anomalous_events": {
        "sp500_prices": Declared(
            {"name": {"name": ID}, "date": {"date": ID}, "event": {"close": CALC}},
            frozenset({"name", "date", "close"}),
        ),
        "sp500_bollinger_bands": Declared(
            {"event": {"upper": CALC, "lower": CALC}},
            frozenset({"name", "date", "upper", "lower"}),  # joined on, filtered by
        ),
    },
}
"""``{asset: {upstream asset: what it reads}}``."""

TICKERS = (
    "AAL",
    "AAPL",
    "ABBV",
    "ADBE",
    "AMZN",
    "BAC",
    "CSCO",
    "CVX",
    "DIS",
    "GE",
    "GOOG",
    "HD",
    "INTC",
    "JNJ",
    "JPM",
    "KO",
    "MRK",
    "MSFT",
    "NFLX",
    "NKE",
    "ORCL",
    "PFE",
    "T",
    "WMT",
    "XOM",
)
HISTORY = 400
WINDOW = 120
RATE, SIGMA = 30, 2.0


def _history() -> pd.DataFrame:
    rng = np.random.default_rng(500)
    days = pd.bdate_range("2025-01-02", periods=HISTORY)
    frames = []
    for ticker in TICKERS:
        start = rng.uniform(15, 400)
        close = start * np.exp(np.cumsum(rng.normal(0.0003, rng.uniform(0.008, 0.03), HISTORY)))
        spread = np.abs(rng.normal(0, 0.01, (3, HISTORY))) * close
        frames.append(
            pd.DataFrame(
                {
                    "name": ticker,
                    "date": days,
                    "open": np.round(close + rng.normal(0, 0.5, HISTORY) * spread[0], 2),
                    "high": np.round(close + spread[1] + spread[0], 2),
                    "low": np.round(np.maximum(close - spread[2] - spread[0], 0.01), 2),
                    "close": np.round(close, 2),
                    "volume": rng.integers(200_000, 40_000_000, HISTORY),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def prices_for_day(day: int) -> pd.DataFrame:
    """The last :data:`WINDOW` trading days up to trading day ``WINDOW + day``."""
    history = _history()
    dates = history["date"].drop_duplicates().sort_values().to_numpy()
    end = min(WINDOW + day, HISTORY)
    kept = history[history["date"].isin(dates[end - WINDOW : end])]
    return kept.sort_values(["name", "date"]).reset_index(drop=True)


def _day() -> int:
    return int(os.environ.get("FAUCET_LINEAGE_DAY", "1"))


@dg.asset
def sp500_prices() -> pd.DataFrame:
    """Open/high/low/close prices and volume per ticker and day."""
    return prices_for_day(_day())


@dg.asset(metadata={"dagster/column_lineage": column_lineage("sp500_bollinger_bands", LINEAGE)})
def sp500_bollinger_bands(sp500_prices: pd.DataFrame) -> pd.DataFrame:
    """Bollinger bands of each ticker's closing price (30-day window, two sigmas)."""
    by_name = sp500_prices.groupby("name")["close"]
    mean = by_name.transform(lambda s: s.rolling(RATE).mean())
    std = by_name.transform(lambda s: s.rolling(RATE).std())
    bands = pd.DataFrame(
        {
            "name": sp500_prices["name"],
            "date": sp500_prices["date"],
            "upper": mean + SIGMA * std,
            "lower": mean - SIGMA * std,
        }
    )
    return bands.dropna().reset_index(drop=True)


EVENT = pd.CategoricalDtype(["high", "low"], ordered=False)


@dg.asset(metadata={"dagster/column_lineage": column_lineage("sp500_anomalous_events", LINEAGE)})
def sp500_anomalous_events(
    sp500_prices: pd.DataFrame, sp500_bollinger_bands: pd.DataFrame
) -> pd.DataFrame:
    """The days a ticker closed above its upper band (high) or below its lower one (low)."""
    both = sp500_prices.merge(sp500_bollinger_bands, on=["name", "date"])
    event = pd.Series(pd.NA, index=both.index, dtype=EVENT)
    event[both["close"] > both["upper"]] = "high"
    event[both["close"] < both["lower"]] = "low"
    both["event"] = event
    return both[both["event"].notna()][["date", "name", "event"]].reset_index(drop=True)


ASSETS = [sp500_prices, sp500_bollinger_bands, sp500_anomalous_events]
