import { chmod, lstat, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import { LOG_FILE } from '../../electron/services/logging/file-logger.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { ALEX, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { value } from '../support/ipc-result.js';

/**
 * Every file the app writes in its data folder (settings, logs, the replica
 * database with its -wal and -shm, the record of unconfirmed money actions,
 * preferences, UI state) is 0600 and every folder 0700, and a data folder left
 * readable by others (an older version, a copy, a backup restored) is made
 * private at start and the log says so.
 */
const posix = process.platform !== 'win32';
let dataDir: string;
const keychain = new FixedSecretStore();

async function modes(root: string): Promise<Array<{ path: string; kind: 'dir' | 'file'; mode: string }>> {
  const out: Array<{ path: string; kind: 'dir' | 'file'; mode: string }> = [];
  const visit = async (path: string) => {
    const info = await lstat(path);
    if (info.isSymbolicLink()) return;
    out.push({ path: relative(root, path) || '.', kind: info.isDirectory() ? 'dir' : 'file', mode: (info.mode & 0o777).toString(8) });
    if (info.isDirectory()) for (const name of await readdir(path)) await visit(join(path, name));
  };
  await visit(root);
  return out;
}

/** One working session: sign in, fill the replica, buy a policy, change a preference; what the folder holds is read while the app still runs. */
async function work(): Promise<Array<{ path: string; kind: 'dir' | 'file'; mode: string }>> {
  const app: FastApp = await startFastApp({ secrets: keychain, dataDir, refreshReplicaAtSignIn: false });
  try {
    value(await app.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password }));
    value(await app.call('offline.sync'));
    const ready = value<{ rows: CapacityPolicy[] }>(await app.call('capacity.list', { status: 'READY_FOR_PURCHASE', limit: 5 })).rows;
    value(await app.call('capacity.purchase', { cidrId: ready[0]?.cidrId }));
    value(await app.call('preferences.set', { offlineRefreshMinutes: 30 }));
    await Promise.all([app.services.logger.flush(), app.services.auditLog.flush()]);
    return await modes(dataDir);
  } finally {
    await app.close();
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cd-files-at-rest-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe.runIf(posix)('files at rest', () => {
  it('writes every file 0600 and every folder 0700, the replica database and its journal included', async () => {
    const umask = process.umask(0o022); // the usual default, which leaves new files 0644 unless the app says otherwise
    let found;
    try {
      found = await work();
    } finally {
      process.umask(umask);
    }
    const files = found.filter((entry) => entry.kind === 'file').map((entry) => entry.path);
    // The places the issue names are really there, so the check below covers them.
    expect(files).toEqual(expect.arrayContaining(['settings.json', 'preferences.json', 'money-pending.json', join('logs', 'audit.log')]));
    expect(files.filter((path) => /replica\.db(-wal|-shm)?$/.test(path))).toHaveLength(3);
    expect(found.filter((entry) => entry.mode !== (entry.kind === 'dir' ? '700' : '600'))).toEqual([]);
    expect((await modes(dataDir)).filter((entry) => entry.mode !== (entry.kind === 'dir' ? '700' : '600'))).toEqual([]);
  });

  it('makes an existing data folder left open to others (0755 folders, 0644 files) private at start, and logs it', async () => {
    for (const entry of await modes(dataDir)) await chmod(join(dataDir, entry.path), entry.kind === 'dir' ? 0o755 : 0o644);
    expect((await modes(dataDir)).every((entry) => entry.mode === (entry.kind === 'dir' ? '755' : '644'))).toBe(true);

    const whileRunning = await work();

    expect(whileRunning.filter((entry) => entry.mode !== (entry.kind === 'dir' ? '700' : '600'))).toEqual([]);
    expect((await modes(dataDir)).filter((entry) => entry.mode !== (entry.kind === 'dir' ? '700' : '600'))).toEqual([]);
    const log = await readFile(join(dataDir, 'logs', LOG_FILE), 'utf8');
    expect(log).toMatch(/\[files\] .*could be read by other users of this computer; made private \(folders 0700, files 0600\): \., cache, .*replica\.db/);
  });
});
