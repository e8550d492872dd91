#!/usr/bin/env bash
# One compat environment from this repository's own files (make compat-oldest / compat-newest):
#   tools/compat.sh oldest PYTHON DAGSTER_VERSION   lowest versions pyproject.toml allows
#   tools/compat.sh newest PYTHON                   the newest of everything
#   tools/compat.sh dagster PYTHON DAGSTER_VERSION  the newest of everything but Dagster
# It creates .venv-NAME, builds faucet's two wheels (faucet-core, the engine, and
# faucet-dagster), validates their metadata, installs them (binary wheels only) with the
# pandas and test extras, and runs the compat subset
# ($COMPAT_TESTS) on a copy of tests/, so the wheel's faucet is imported, never this tree.
set -euo pipefail

name="${1:?usage: tools/compat.sh oldest|newest PYTHON [DAGSTER_VERSION]}"
python="${2:?usage: tools/compat.sh oldest|newest PYTHON [DAGSTER_VERSION]}"
root="$(cd "$(dirname "$0")/.." && pwd)"
label="$name${3:+-$3}"
[ "$name" = dagster ] || label="$name"
venv="$root/.venv-$label"
work="$root/.compat/$label"
tests="${COMPAT_TESTS:?COMPAT_TESTS names the subset (the Makefile sets it)}"

if ! "$python" -c "" >/dev/null 2>&1; then
  echo "compat-$name: no Python interpreter at '$python'; install it (pyenv install) or" \
       "pass PY_OLDEST=/path/to/python3.10 / PY_NEWEST=/path/to/python3.13 to make" >&2
  exit 2
fi

t0=$(date +%s)
rm -rf "$venv" "$work"
mkdir -p "$work/dist" "$work/run"
"$python" -m venv "$venv"
pip=("$venv/bin/python" -m pip --quiet --disable-pip-version-check)
"${pip[@]}" install --upgrade pip
"${pip[@]}" wheel --no-deps --wheel-dir "$work/dist" "$root/faucet-core" "$root"
core="$(ls "$work"/dist/faucet_core-*.whl)"
wheel="$(ls "$work"/dist/faucet_dagster-*.whl)"
"$venv/bin/python" "$root/tools/check_wheel.py" "$core"
"$venv/bin/python" "$root/tools/check_wheel.py" "$wheel"

case "$name" in
  oldest)
    dagster="${3:?compat-oldest needs the Dagster release, e.g. 1.10.21}"
    "$venv/bin/python" "$root/tools/lowest_constraints.py" --extra pandas --extra test \
      --pin "dagster==$dagster" --pin "dagster-webserver==$dagster" > "$work/constraints.txt"
    "${pip[@]}" install --only-binary :all: --constraint "$work/constraints.txt" \
      "$core" "$wheel[pandas,test]"
    ;;
  dagster)
    dagster="${3:?compat-dagster needs the Dagster release, e.g. 1.11.16}"
    "${pip[@]}" install --only-binary :all: "$core" "$wheel[pandas,test]" \
      "dagster==$dagster" "dagster-webserver==$dagster"
    ;;
  newest)
    "${pip[@]}" install --only-binary :all: --upgrade --upgrade-strategy eager \
      "$core" "$wheel[pandas,test]" twine
    "$venv/bin/twine" check --strict "$core" "$wheel"
    ;;
  *)
    echo "compat: unknown environment '$name' (oldest, newest or dagster)" >&2
    exit 2
    ;;
esac
"${pip[@]}" check
"${pip[@]}" freeze --exclude-editable > "$work/installed.txt"
t1=$(date +%s)

# The suite's helpers are imported as tests.*: a copy outside the tree keeps this checkout off
# sys.path, so every `import faucet_*` is the installed wheel's.
cp -r "$root/tests" "$work/run/tests"
find "$work/run/tests" -name __pycache__ -prune -exec rm -rf {} +
status=0
(
  cd "$work/run"
  export FAUCET_COMPAT_ENV="$label" DAGSTER_DISABLE_TELEMETRY=1
  set -f  # COMPAT_TESTS is a list of paths and test ids: split it, never glob it
  # shellcheck disable=SC2086
  "$venv/bin/python" -m pytest -c "$root/pyproject.toml" --rootdir "$work/run" \
    -p no:cacheprovider -q --durations=8 $tests
) || status=$?
t2=$(date +%s)
grep -i -E '^(dagster|dagster-webserver|pydantic|sqlalchemy|pandas|numpy|pyarrow)==' \
  "$work/installed.txt" | tr '\n' ' '
echo
echo "compat-$label: $("$venv/bin/python" -V); install $((t1 - t0)) s, subset $((t2 - t1)) s," \
     "exit $status"
exit "$status"
