import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppFailure } from '../../../shared/ipc/result.js';

/** Electron is not running here: its dialog answers what each test says the person chose. */
const electron = vi.hoisted(() => ({
  answer: { canceled: false, filePath: '' as string | undefined },
  options: [] as unknown[],
}));

vi.mock('electron', () => ({
  app: { getPath: () => '/home/someone/Downloads' },
  BrowserWindow: { getFocusedWindow: () => null, getAllWindows: () => [] },
  dialog: {
    showSaveDialog: async (options: unknown) => {
      electron.options.push(options);
      return electron.answer;
    },
  },
}));

const { electronSaveFileHost } = await import('../../../electron/main/save-dialog.js');

const request = {
  suggestedName: 'DR policies.csv',
  content: '\uFEFFid\r\nsc_1\r\n',
  filter: { name: 'CSV (comma-separated values)', extensions: ['csv'] },
};

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'save-dialog-'));
  electron.options.length = 0;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('electronSaveFileHost', () => {
  it('offers the name in Downloads with a CSV filter, and writes exactly the content where the person chose', async () => {
    const target = join(dir, 'picked.csv');
    electron.answer = { canceled: false, filePath: target };
    expect(await electronSaveFileHost.save(request)).toEqual({ path: target });
    expect(await readFile(target, 'utf8')).toBe(request.content);
    expect(electron.options[0]).toMatchObject({
      defaultPath: join('/home/someone/Downloads', 'DR policies.csv'),
      filters: [{ name: 'CSV (comma-separated values)', extensions: ['csv'] }],
    });
    // No temporary file is left beside it.
    expect(await readdir(dir)).toEqual(['picked.csv']);
  });

  it('writes nothing when the dialog is closed', async () => {
    electron.answer = { canceled: true, filePath: undefined };
    expect(await electronSaveFileHost.save(request)).toBeNull();
    expect(await readdir(dir)).toEqual([]);
  });

  it('says plainly when the folder cannot be written, and leaves nothing behind', async () => {
    electron.answer = { canceled: false, filePath: join(dir, 'missing-folder', 'x.csv') };
    const failure = await electronSaveFileHost.save(request).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppFailure);
    expect((failure as AppFailure).error.message).toMatch(/could not be written .*\(ENOENT\)/);
    expect(await readdir(dir)).toEqual([]);
  });
});
