#!/usr/bin/env bash
# Quick start, command 1: install what is missing, build, and run Articula on a sample.
# Until the desktop application lands this runs the headless CLI: mechanism info, then a
# simulation written to build/fourbar.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build
cmake --build build -j"$(nproc 2>/dev/null || echo 2)"
sample=${1:-samples/double_pendulum.json}
build/app/articula-cli info "$sample"
build/app/articula-cli simulate "$sample" --output build/simulation.csv
echo "wrote build/simulation.csv ($(wc -l < build/simulation.csv) lines)"
