"""The dbt example: a dbt-duckdb project run by dagster-dbt, with faucet profile checks."""
