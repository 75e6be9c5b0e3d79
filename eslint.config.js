import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

/**
 * Import boundaries (README, "Architecture"), enforced here (and proven by
 * test/lint/boundaries.test.ts):
 * - shared/ imports zod and itself only: no Node, DOM or Electron;
 * - renderer/ imports shared/ and its own files only;
 * - only the Electron shell (electron/main, electron/preload) imports 'electron';
 * - ipcMain/ipcRenderer are used only by the two IPC wrappers.
 */
const NODE_BUILTINS = [
  'assert', 'buffer', 'child_process', 'cluster', 'crypto', 'dgram', 'dns', 'events', 'fs', 'fs/promises', 'http',
  'http2', 'https', 'module', 'net', 'os', 'path', 'perf_hooks', 'process', 'readline', 'stream', 'tls', 'url',
  'util', 'v8', 'vm', 'worker_threads', 'zlib',
];
const ELECTRON_ONLY_SHELL = 'Only electron/main and electron/preload may import electron.';
/** Exact package names (paths) and prefixes (regex), so '../electron/services' is not mistaken for 'electron'. */
const nodeAndDesktopPaths = [
  ...NODE_BUILTINS.map((name) => ({ name, message: 'Node modules belong in electron/ or sandbox/.' })),
  { name: 'electron', message: ELECTRON_ONLY_SHELL },
  { name: 'undici', message: 'Network calls belong to the main-process services.' },
  { name: 'keytar', message: 'The keychain belongs to the main-process services.' },
];
const nodeAndDesktopPatterns = [
  { regex: '^node:', message: 'Node modules belong in electron/ or sandbox/.' },
  { regex: '^electron/', message: ELECTRON_ONLY_SHELL },
];
const RAW_IPC = {
  name: 'electron',
  importNames: ['ipcMain', 'ipcRenderer'],
  message: 'Use the typed IPC wrappers (electron/main/ipc-bridge.ts, electron/preload/preload.ts).',
};

export default tseslint.config(
  { ignores: ['test-results-*/**', '.svelte-check/**', 'dist/**', 'dist-dev/**', '.dev-data/**', 'out/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: ELECTRON_ONLY_SHELL }], patterns: [{ regex: '^electron/', message: ELECTRON_ONLY_SHELL }] }],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: { projectService: false, extraFileExtensions: ['.svelte'], parser: tseslint.parser, svelteConfig },
    },
  },
  {
    files: ['shared/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeAndDesktopPaths,
          patterns: [...nodeAndDesktopPatterns, { regex: '(^|/)(electron|renderer|sandbox|test|scripts)/', message: 'shared/ depends on nothing but zod.' }],
        },
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'process', 'Buffer', 'require', 'navigator', 'localStorage'],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.svelte'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeAndDesktopPaths,
          patterns: [
            ...nodeAndDesktopPatterns,
            { regex: '(^|/)(electron|sandbox|scripts|test)/', message: 'The renderer imports only shared/ and its own files; it reaches the main process through window.api.' },
          ],
        },
      ],
    },
  },
  {
    // The services get the built-in sandbox from their host (sandbox/built-in.ts), injected.
    files: ['electron/services/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: ELECTRON_ONLY_SHELL }],
          patterns: [
            { regex: '^electron/', message: ELECTRON_ONLY_SHELL },
            { regex: '(^|/)sandbox/', message: 'The services receive the built-in sandbox from their host; they do not import it.' },
          ],
        },
      ],
    },
  },
  {
    files: ['electron/main/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [RAW_IPC] }],
    },
  },
  {
    files: ['electron/main/ipc-bridge.ts', 'electron/preload/preload.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['electron/browser-host/shim/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Playwright fixtures are declared with an empty destructuring pattern.
    files: ['test/e2e/**/*.ts', 'test/electron/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
