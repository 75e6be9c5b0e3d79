import type { Configuration } from 'app-builder-lib';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..', '..');

/** electron-builder's own reading of a config file: `extends` resolved, defaults merged, nothing downloaded. */
export function loadBuilderConfig(file: 'electron-builder.yml' | 'electron-builder.test.yml'): Promise<Configuration> {
  return getConfig(ROOT, file, null);
}

/** electron-builder's schema validation (what a real build runs first); throws "Invalid configuration object". */
export function validateBuilderConfig(config: Configuration): Promise<void> {
  return validateConfiguration(config, new DebugLogger(false));
}
