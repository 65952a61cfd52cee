#!/usr/bin/env bash
# README command 1: install what is missing, build krino (release), and run the bundled sample.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake --preset release
cmake --build --preset release -j "$(nproc)"
echo
echo "== krino run datasets/capitals.yaml"
build/release/bin/krino run datasets/capitals.yaml
