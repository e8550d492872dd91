"""An orders pipeline profiled by faucet-dagster (dg project layout)."""
