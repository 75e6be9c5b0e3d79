import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest's default on two cores is one file at a time; most integration files wait on
    // sockets, timers and child processes rather than the CPU, so two at once finish sooner
    // (three, beside the browser suite, loaded the machine past what timing tests bear).
    maxWorkers: Number(process.env['VITEST_MAX_WORKERS'] ?? 2),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/lint/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/sandbox/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // The renderer's rune stores (*.svelte.ts), compiled as the app ships them: the client build, so $state and $derived react.
        plugins: [svelte({ configFile: fileURLToPath(new URL('./svelte.config.js', import.meta.url)) })],
        resolve: { conditions: ['browser'] },
        test: {
          name: 'stores',
          include: ['test/stores/**/*.svelte.test.ts'],
          environment: './test/stores/client-environment.ts',
        },
      },
      {
        // Kill loops: minutes of child processes killed at random moments (in npm test; alone: npm run test:slow).
        test: {
          name: 'crash',
          include: ['test/crash/**/*.test.ts'],
          environment: 'node',
          testTimeout: 600_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Installers and release pipeline, checked offline: config schema, packed file list, fuses, workflows.
        // In npm test; alone with the kill loops: npm run test:slow.
        test: {
          name: 'packaging',
          include: ['test/packaging/**/*.test.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 90_000,
        },
      },
    ],
  },
});
