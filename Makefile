# Entry points for a fresh machine (see README.md):
#   make demo           - installs into .venv, runs the example project end to end
#   make test           - installs into .venv, runs lint, type check and the tests
#   make compat-oldest  - .venv-oldest: Python 3.10, Dagster 1.10, every dependency at its lowest
#   make compat-newest  - .venv-newest: Python 3.13 and the newest of everything
#   make engine-alone   - .venv-engine: the faucet-core wheel alone, profiling without Dagster
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: demo test lint typecheck install clean promtool chromium compat compat-oldest compat-newest compat-dagster engine-alone

$(BIN)/faucet: pyproject.toml faucet-core/pyproject.toml faucet-core/setup.py \
  faucet-core/faucet_core/profile/_coupons.c
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	@# The engine (faucet-core/, its own distribution) and faucet-dagster, both editable.
	$(BIN)/python -m pip install --quiet -e ./faucet-core -e '.[dev]'
	@# The check loading through DuckDB's IO manager, and dagster-pandas' dataframe types
	@# (tests only). Their packages declare pandas<3, which would move pandas back to 2.x;
	@# their tests pass on pandas 3, so they are installed without their declared
	@# requirements (dagster and duckdb come with dev).
	$(BIN)/python -m pip install --quiet --no-deps 'dagster-duckdb>=0.29.27,<0.30' \
	  'dagster-duckdb-pandas>=0.29.27,<0.30' 'dagster-pandas>=0.29.27,<0.30'
	@touch $@

install: $(BIN)/faucet

demo: install
	$(BIN)/python -m pip install --quiet --no-deps -e example_project
	$(BIN)/python example_project/run_demo.py

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check faucet-core faucet_dagster tests

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
	$(BIN)/python -m pytest -n 3 -q

# The compat environments install faucet from its built wheel and run this subset: real
# `dagster asset materialize` runs through the IO manager to a WARN, a sensor tick,
# `faucet plan --impact`, `faucet serve` answering requests and the dg component; and the
# quantile sketch faucet writes in datasketches' serialized form, read back by each end.
COMPAT_TESTS := tests/faucet_dagster/test_compat.py tests/faucet_dagster/test_cli.py \
	tests/faucet_core/profile/test_kll_batch_format.py \
	tests/faucet_dagster/plan/test_cli.py tests/faucet_dagster/server/test_cli_serve.py::test_serve_process[1]
# The interpreters: pyenv's (its shims answer only for the global version), else on PATH.
PY_OLDEST ?= $(or $(lastword $(sort $(wildcard $(HOME)/.pyenv/versions/3.10.*/bin/python3.10))),python3.10)
PY_NEWEST ?= $(or $(lastword $(sort $(wildcard $(HOME)/.pyenv/versions/3.13.*/bin/python3.13))),python3.13)
# The last patch release of the oldest supported Dagster minor.
OLDEST_DAGSTER ?= 1.10.21

compat-oldest:
	COMPAT_TESTS="$(COMPAT_TESTS)" bash tools/compat.sh oldest "$(PY_OLDEST)" $(OLDEST_DAGSTER)

compat-newest:
	COMPAT_TESTS="$(COMPAT_TESTS)" bash tools/compat.sh newest "$(PY_NEWEST)"

compat: compat-oldest compat-newest

# faucet-core, the engine, installed alone from its wheel: it profiles, records and finds drift
# with no Dagster, webserver or uvicorn in the venv (tools/engine_alone.py says what is checked).
engine-alone:
	bash tools/engine_alone.sh $(PYTHON)

# Any other Dagster release, e.g. make compat-dagster DAGSTER=1.11.16 PY=python3.11 (not in CI)
compat-dagster:
	@test -n "$(DAGSTER)" || { echo "give DAGSTER=1.x.y (and PY=/path/to/python)"; exit 2; }
	COMPAT_TESTS="$(COMPAT_TESTS)" bash tools/compat.sh dagster "$(or $(PY),$(PYTHON))" $(DAGSTER)

clean:
	rm -rf $(VENV) .venv-oldest .venv-newest .venv-dagster-* .venv-engine .compat .mypy_cache .ruff_cache .pytest_cache
