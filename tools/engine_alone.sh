#!/usr/bin/env bash
# The engine installs and works without Dagster (make engine-alone; see tools/engine_alone.py):
# builds faucet-core's wheel from faucet-core/, installs it alone into a fresh .venv-engine
# (binary wheels only; its own requirements and nothing else), checks its metadata, and runs
# tools/engine_alone.py there from a folder outside this checkout.
set -euo pipefail
python="${1:-python3}"
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.venv-engine"
work="$root/.compat/engine"
t0=$(date +%s)
rm -rf "$venv" "$work"
mkdir -p "$work/dist"
"$python" -m venv "$venv"
pip=("$venv/bin/python" -m pip --quiet --disable-pip-version-check)
"${pip[@]}" install --upgrade pip
"${pip[@]}" wheel --no-deps --wheel-dir "$work/dist" "$root/faucet-core"
core="$(ls "$work"/dist/faucet_core-*.whl)"
"$venv/bin/python" "$root/tools/check_wheel.py" "$core"
"${pip[@]}" install --only-binary :all: "$core"
"${pip[@]}" check
installed="$("${pip[@]}" freeze | tr '\n' ' ')"
cp "$root/tools/engine_alone.py" "$work/engine_alone.py"
(cd "$work" && "$venv/bin/python" -I engine_alone.py)
echo "engine-alone: $("$venv/bin/python" -V), $(date +%s | awk -v t="$t0" '{print $1 - t}') s; installed: $installed"
