"""A held-out project of the lineage-inference benchmark: a small version of dbt Labs'
jaffle-shop (see the README beside this package)."""
