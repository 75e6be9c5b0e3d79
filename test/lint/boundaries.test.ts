import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * Proves the import boundaries (README, "Architecture") are enforced: each case is a
 * deliberate violation linted as if it lived at that path.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function ruleIdsFor(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

// The first lint loads the whole ESLint configuration and its parsers: seconds on a loaded two-core machine.
describe('import boundaries', { timeout: 30_000 }, () => {
  it.each([
    ['shared/api/bad.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n"],
    ['shared/ipc/bad.ts', "import { app } from 'electron';\nexport const x = app;\n"],
    ['shared/format/bad.ts', "import { request } from 'undici';\nexport const x = request;\n"],
    ['shared/format/bad2.ts', "import { ApiClient } from '../../electron/services/api-client/api-client.js';\nexport const x = ApiClient;\n"],
    ['renderer/lib/bad.ts', "import { join } from 'path';\nexport const x = join;\n"],
    ['renderer/lib/bad2.ts', "import { SessionService } from '../../electron/services/session/session-service.js';\nexport const x = SessionService;\n"],
    ['electron/services/session/bad.ts', "import { app } from 'electron';\nexport const x = app;\n"],
    ['sandbox/bad.ts', "import { app } from 'electron';\nexport const x = app;\n"],
    ['electron/services/session/bad2.ts', "import { startSandbox } from '../../../sandbox/server.js';\nexport const x = startSandbox;\n"],
    ['electron/main/bad.ts', "import { ipcMain } from 'electron';\nexport const x = ipcMain;\n"],
  ])('refuses the violation in %s', async (filePath, code) => {
    expect(await ruleIdsFor(filePath, code)).toContain('no-restricted-imports');
  });

  it('refuses DOM and Node globals in shared/', async () => {
    expect(await ruleIdsFor('shared/format/bad3.ts', 'export const w = window.location.href;\n')).toContain('no-restricted-globals');
  });

  it('allows what the design allows', async () => {
    expect(await ruleIdsFor('shared/api/ok.ts', "import { z } from 'zod';\nexport const s = z.string();\n")).toEqual([]);
    expect(await ruleIdsFor('electron/main/ok.ts', "import { app } from 'electron';\nexport const x = app;\n")).toEqual([]);
    expect(
      await ruleIdsFor('electron/main/ipc-bridge.ts', "import { ipcMain } from 'electron';\nexport const x = ipcMain;\n"),
    ).toEqual([]);
    expect(await ruleIdsFor('renderer/lib/ok.ts', "import { CHANNELS } from '../../shared/ipc/channels.js';\nexport const x = CHANNELS;\n")).toEqual([]);
  });
});
