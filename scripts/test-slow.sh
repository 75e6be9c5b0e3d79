#!/usr/bin/env bash
# The slow tests alone (npm run test:slow; npm test runs them too, in its vitest
# lane): the kill loops (test/crash: child writers killed at points chosen
# by the write's own progress) and the offline packaging checks (test/packaging: config
# schema, packed file list, fuses, icons, workflows). The packaging checks read
# dist/: build first (npm run -s build); a dist/ older than the sources stops here.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p artifacts
rm -f artifacts/vitest-slow.json
started=$(date +%s)
npx tsx -e "import('./test/support/fresh-dist.ts').then((m) => m.default())"
# One release pack for the packaging files, as in npm test (test/packaging/support/pack.ts).
CD_PACK_RUN_DIR="$(mktemp -d "${TMPDIR:-/tmp}/capacity-desk-run-packs-XXXXXX")"
export CD_PACK_RUN_DIR
trap 'rm -rf "$CD_PACK_RUN_DIR"' EXIT
status=0
npx vitest run --project crash --project packaging --reporter=default --reporter=json --outputFile.json=artifacts/vitest-slow.json || status=$?
elapsed=$(( $(date +%s) - started ))
printf '\nnpm run test:slow took %d min %02d s (load average %s)\n' $((elapsed / 60)) $((elapsed % 60)) "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
summary=0
npx tsx scripts/test-summary.ts artifacts/vitest-slow.json || summary=$?
[ "$status" -eq 0 ] && [ "$summary" -eq 0 ]
