"""faucet_dagster: faucet's profiling, drift checks and impact analysis for Dagster."""

__all__: list[str] = []
