#!/usr/bin/env bash
# Every test (npm test). The build first (the browser suite and the packaging
# checks read dist/), then one stage of independent lanes run side by side
# (scripts/run-lanes.ts; a lane's output is in artifacts/lanes/<lane>.log and
# printed whole when it fails):
#   checks:        lint, node types, web types (a failure ends the other lanes: --stop-on)
#   vitest-1, -2:  unit, stores, integration, crash, packaging  } each inside its own
#   vitest-3:      the real-keychain files, one at a time       } private D-Bus + GNOME
#   browser-1, -2: the browser suite                            } Keyring session
#   (each pair shares its files out by their measured time: test/support/balanced-shards.ts)
#   electron:      the Electron suite (it reports plainly when no Electron binary exists)
# The checks run beside the tests rather than before them: the test lanes wait on
# timers, sockets and the page more than on the cores, so the checks' CPU fills that
# idle share instead of holding the tests back.
# Two lanes of one worker each for vitest and the browser suite, where one lane ran two
# workers: on a machine others load too, Linux shares the cores between sessions
# (autogroup) before it shares them between processes, and each lane is a session of its
# own (run-lanes.ts). Two workers in one lane split its one share; one worker in each of
# two lanes has a share each: as many tests at once as before, each given no less of the
# cores, and the suite more of a loaded machine (docs/testing.md, "Where the time goes").
# Then the wall time and the closing count. (npm run test:slow runs the kill loops
# and the packaging checks alone; they are part of this run too.)
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p artifacts
# A report left by an earlier run must not be counted for this one.
rm -f artifacts/vitest-*.json artifacts/playwright-e2e-*.json artifacts/playwright-electron.json
started=$(date +%s)

npx tsx scripts/run-lanes.ts build "build=npm run -s build"

# The packaging files' release pack is made once for the run, by the first file that asks for it, and read by
# the others in any lane (test/packaging/support/pack.ts); the run removes it.
CD_PACK_RUN_DIR="$(mktemp -d "${TMPDIR:-/tmp}/capacity-desk-run-packs-XXXXXX")"
export CD_PACK_RUN_DIR
trap 'rm -rf "$CD_PACK_RUN_DIR"' EXIT

# No trace recorded in the whole run (about a sixth of the browser lane's CPU, playwright.config.ts);
# a failing spec run on its own keeps one. PW_TRACE=on npm test records them here too.
export PW_TRACE="${PW_TRACE:-off}"
# The Electron lane has a results folder of its own: each Playwright run empties its output folder as it starts.
electron_tests="PLAYWRIGHT_JSON_OUTPUT_NAME=artifacts/playwright-electron.json PW_OUTPUT_DIR=artifacts/test-results-electron npx playwright test --project electron --reporter=list,json"
if [ "$(uname -s)" = "Linux" ] && [ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null 2>&1; then
  electron_tests="PLAYWRIGHT_JSON_OUTPUT_NAME=artifacts/playwright-electron.json PW_OUTPUT_DIR=artifacts/test-results-electron xvfb-run -a -s '-screen 0 1280x800x24' npx playwright test --project electron --reporter=list,json"
fi
# A vitest lane: its shard of the files (test/support/balanced-sequencer.ts: the last one is the
# integration-keychain project's), its own report.
vitest_lane() {
  echo "vitest-$1=VITEST_MAX_WORKERS=1 bash scripts/with-keychain.sh npx vitest run --shard=$1/3 --reporter=default --reporter=json --outputFile.json=artifacts/vitest-$1.json"
}
# A browser lane: its shard of the spec files (PW_SHARD, playwright.config.ts), its own report
# and results folder (each Playwright run empties its output folder as it starts).
browser_lane() {
  echo "browser-$1=PW_SHARD=$1/2 PLAYWRIGHT_JSON_OUTPUT_NAME=artifacts/playwright-e2e-$1.json PW_OUTPUT_DIR=artifacts/test-results-$1 bash scripts/with-keychain.sh npx playwright test --project e2e --workers=1 --reporter=list,json"
}
status=0
# Each test lane has a keyring of its own: a test signing out in one must not remove
# the entry a test of another is reading.
npx tsx scripts/run-lanes.ts tests --stop-on lint,node-types,web-types \
  "lint=npm run -s lint" \
  "node-types=npm run -s typecheck:node" \
  "web-types=npm run -s typecheck:web" \
  "$(vitest_lane 1)" "$(vitest_lane 2)" "$(vitest_lane 3)" \
  "$(browser_lane 1)" "$(browser_lane 2)" \
  "electron=$electron_tests" || status=$?
# A failed check ended the tests unfinished: their count would say nothing.
[ "$status" -eq 3 ] && exit 1

elapsed=$(( $(date +%s) - started ))
printf '\nnpm test took %d min %02d s (load average %s)\n' $((elapsed / 60)) $((elapsed % 60)) "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
# The closing count comes last: N passed, N failed, N skipped.
summary=0
npx tsx scripts/test-summary.ts artifacts/vitest-1.json artifacts/vitest-2.json artifacts/vitest-3.json artifacts/playwright-e2e-1.json artifacts/playwright-e2e-2.json artifacts/playwright-electron.json || summary=$?
[ "$status" -eq 0 ] && [ "$summary" -eq 0 ]
