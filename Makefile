# Two entry points for a fresh machine (see README.md):
#   make demo   - installs into .venv, runs the example project end to end
#   make test   - installs into .venv, runs lint, type check and the tests
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: demo test lint typecheck install clean promtool chromium

$(BIN)/faucet: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@# The check loading through DuckDB's IO manager (tests only). Its package declares
	@# pandas<3, which would move pandas back to 2.x; its tests pass on pandas 3, so it is
	@# installed without its declared requirements (dagster and duckdb come with dev).
	$(BIN)/python -m pip install --quiet --no-deps 'dagster-duckdb>=0.29.27,<0.30' \
	  'dagster-duckdb-pandas>=0.29.27,<0.30'
	@touch $@

install: $(BIN)/faucet

demo: install
	$(BIN)/python -m pip install --quiet --no-deps -e example_project
	$(BIN)/python example_project/run_demo.py

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check faucet_core faucet_dagster tests

typecheck: install
	$(BIN)/mypy

# The alert-rule tests run promtool (Debian's prometheus package): installed when missing.
promtool:
	@command -v promtool >/dev/null 2>&1 || { command -v apt-get >/dev/null 2>&1 && \
	  { apt-get install -y -qq prometheus >/dev/null 2>&1 || \
	    { apt-get update -qq && apt-get install -y -qq prometheus >/dev/null; }; }; } || \
	  echo "promtool not installed: the alert-rule tests skip (fail under FAUCET_REQUIRE_PROMTOOL=1)"

# The web console's browser tests drive Debian's Chromium (headless): installed when missing.
chromium:
	@command -v chromium >/dev/null 2>&1 || { command -v apt-get >/dev/null 2>&1 && \
	  { apt-get install -y -qq chromium >/dev/null 2>&1 || \
	    { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }; }; } || \
	  echo "chromium not installed: the browser tests skip (fail under FAUCET_REQUIRE_BROWSER=1)"

test: lint typecheck promtool chromium
	$(BIN)/python -m pytest -n 2 -q

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
