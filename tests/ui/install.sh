#!/usr/bin/env bash
# Installs the browser test's npm packages (playwright-core only) exactly as package-lock.json pins
# them, unless node_modules already holds that version. playwright-core downloads no browser: the
# test drives Debian's /usr/bin/chromium.
set -euo pipefail
cd "$(dirname "$0")"
wanted=$(node -p "require('./package-lock.json').packages['node_modules/playwright-core'].version")
have=$(node -p "try { require('./node_modules/playwright-core/package.json').version } catch { '' }")
if [ "$wanted" = "$have" ]; then
  echo "ui tests: playwright-core $have already installed"
  exit 0
fi
npm ci --no-audit --no-fund --ignore-scripts
