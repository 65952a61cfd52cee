#!/usr/bin/env bash
# The CTest fixture of the MCP client tests: installs tests/mcp_client's locked npm packages into
# the build tree (never the source tree) with `npm ci`, once per package-lock.json. npm's cache is
# preferred, so a machine that installed them once needs no network again.
#
#   npm_ci.sh <folder with package.json and package-lock.json>
set -euo pipefail
dir="$1"
cd "$dir"
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
stamp=node_modules/.krino-lock-sha256
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "npm_ci: node_modules matches package-lock.json"
  exit 0
fi
if ! npm ci --prefer-offline --no-audit --no-fund --loglevel=error; then
  echo "npm_ci: 'npm ci' failed in $dir: the MCP client tests need the npm registry (or npm's cache) once" >&2
  exit 1
fi
echo "$want" > "$stamp"
