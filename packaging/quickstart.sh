#!/usr/bin/env bash
# README command 1: install what is missing, build the host and the first-party plugins (release),
# and run the bundled sample. Nothing else is built: no tests, no benchmarks (docs/building.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
started=$SECONDS
cmake --preset release >/dev/null
cmake --build --preset runtime -j "$(( $(nproc) + 1 ))"
echo "quickstart: built in $((SECONDS - started)) s"
echo
echo "== krino run datasets/capitals.yaml"
build/release/bin/krino run datasets/capitals.yaml
