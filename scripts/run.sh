#!/usr/bin/env bash
# Quick start, command 1: install what is missing, build, and open Articula on a sample.
# Without a display (no $DISPLAY / $WAYLAND_DISPLAY) it runs the headless CLI on the sample instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build
cmake --build build -j"$(nproc 2>/dev/null || echo 2)"
sample=${1:-samples/fourbar.json}
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x build/app/articula ]; then
  exec build/app/articula "$sample"
fi
echo "no display: running the headless CLI on $sample"
build/app/articula-cli info "$sample"
build/app/articula-cli simulate "$sample" --output build/simulation.csv
echo "wrote build/simulation.csv ($(wc -l < build/simulation.csv) lines)"
