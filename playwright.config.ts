import { defineConfig } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FILE_DURATIONS, readDurations, shardOf } from './test/support/balanced-shards.js';
import { DISABLE_FEATURES_ARG } from './test/support/chromium-features.js';

/**
 * PW_SHARD=i/n: npm test's browser lanes each run their share of the e2e spec files, shared out by the files'
 * measured time (test/support/balanced-shards.ts); unset, every spec runs.
 */
const root = fileURLToPath(new URL('.', import.meta.url));
const e2eSpecs = () =>
  readdirSync(join(root, 'test/e2e'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.spec.ts'))
    .map((file) => `test/e2e/${file.split('\\').join('/')}`);
const e2eShard = process.env.PW_SHARD ? shardOf(e2eSpecs(), process.env.PW_SHARD, readDurations(join(root, FILE_DURATIONS))) : undefined;

/**
 * e2e: the real renderer in Debian's Chromium, through the browser host, on
 * the real main-process services and the sandbox over HTTP.
 * electron: the same app in the real Electron shell, wherever its binary exists.
 */
export default defineConfig({
  testDir: 'test',
  // Fails fast when dist/ is older than the sources it is built from.
  globalSetup: './test/support/fresh-dist.ts',
  // Parallel local runs can each take their own folder.
  outputDir: process.env.PW_OUTPUT_DIR ?? 'artifacts/test-results',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  fullyParallel: false,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: [['list'], ['html', { outputFolder: 'artifacts/playwright-report', open: 'never' }]],
  use: {
    viewport: { width: 1280, height: 800 },
    // A failed test keeps its actions and DOM snapshots; the screencast frames are left out:
    // recording them cost about a sixth of the browser suite's CPU time (overview and capacity-table
    // specs: 47 CPU-s with them, 41 without, 34 with no trace; load 22-25). The whole run (npm test,
    // scripts/test.sh) records none (PW_TRACE=off): a failure there is named with its error and
    // screenshot, and run again on its own, here, it keeps its trace.
    trace: process.env.PW_TRACE === 'off' ? 'off' : { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'e2e',
      testDir: 'test/e2e',
      // Tests, not files, are shared out: every e2e test starts its own app (or takes its worker's
      // shared one), so a long spec (the a11y matrix, local-first) no longer holds one worker alone.
      fullyParallel: true,
      // A shard with no spec in it (more lanes than specs) must run none, not every one.
      ...(e2eShard ? { testMatch: e2eShard.length > 0 ? e2eShard.map((file) => `**/${file}`) : [/^$/] } : {}),
      use: {
        browserName: 'chromium',
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--disable-dev-shm-usage',
            // Playwright's own list and the omnibox popup's renderer, started for every test and never used (suite13).
            DISABLE_FEATURES_ARG,
          ],
        },
      },
    },
    { name: 'electron', testDir: 'test/electron' },
  ],
});
