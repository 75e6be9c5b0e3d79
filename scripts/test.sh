#!/usr/bin/env bash
# Every test, in the order that fails fastest: lint, types, build, then the
# unit, integration and browser suites inside a private keychain session, then
# the Electron suite (which reports plainly when no Electron binary exists).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p artifacts

step() { printf '\n=== %s\n' "$*"; }

step "lint"
npm run -s lint
step "typecheck"
npm run -s typecheck
step "build"
npm run -s build

step "unit, integration and browser tests (private D-Bus + GNOME Keyring)"
export PLAYWRIGHT_JSON_OUTPUT_NAME=artifacts/playwright-e2e.json
bash scripts/with-keychain.sh bash -c '
  npx vitest run --reporter=default --reporter=json --outputFile.json=artifacts/vitest.json &&
  npx playwright test --project e2e --reporter=list,json
'

step "Electron shell tests"
export PLAYWRIGHT_JSON_OUTPUT_NAME=artifacts/playwright-electron.json
if [ "$(uname -s)" = "Linux" ] && [ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null 2>&1; then
  xvfb-run -a -s '-screen 0 1280x800x24' npx playwright test --project electron --reporter=list,json
else
  npx playwright test --project electron --reporter=list,json
fi

npx tsx scripts/test-summary.ts artifacts/vitest.json artifacts/playwright-e2e.json artifacts/playwright-electron.json
