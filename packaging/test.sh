#!/usr/bin/env bash
# README command 2 (and CI): install what is missing, build everything with tests, run the suite.
# KRINO_PRESET=asan runs the same suite under AddressSanitizer and UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${KRINO_PRESET:-dev}"
bash packaging/install-deps.sh
cmake --preset "$preset"
cmake --build --preset "$preset" -j "$(nproc)"
ctest --preset "$preset" -j "$(nproc)"
