#!/usr/bin/env bash
# README command 2 (and CI): install what is missing (the test tools too), build everything with
# tests, run the suite. KRINO_PRESET=asan runs the same suite under AddressSanitizer and
# UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${KRINO_PRESET:-dev}"
bash packaging/install-deps.sh --with-test-tools
started=$SECONDS
cmake --preset "$preset"
# One job more than cores: a core is never idle while another job waits on the disk or the cache.
cmake --build --preset "$preset" -j "$(( $(nproc) + 1 ))"
echo "test.sh: configured and built in $((SECONDS - started)) s"
ctest --preset "$preset" -j "$(( $(nproc) + 1 ))"
