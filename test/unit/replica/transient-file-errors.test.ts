/**
 * A file the file system will not let be read for a moment (another program
 * holds it, as antivirus scans do on Windows: EBUSY, EPERM, EACCES; too many
 * open files: EMFILE) is neither damaged nor gone: it is retried briefly, then
 * reported as "could not be read right now", and never deleted, set aside or
 * written over. The faults are injected into node:fs/promises for the named
 * files only; everything else is the real file system.
 */
import type * as fsPromises from 'node:fs/promises';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import Database from 'better-sqlite3-multiple-ciphers';
import { replicaKeyService, Replica } from '../../../electron/services/replica/replica.js';
import { NotificationLedger } from '../../../electron/services/desktop/notification-ledger.js';
import { WindowStateStore } from '../../../electron/services/desktop/window-state-store.js';
import { PreferencesStore } from '../../../electron/services/preferences/preferences-store.js';
import { readJsonFile, writeFileAtomic } from '../../../electron/services/settings/json-file.js';
import type { UnreadableFile } from '../../../shared/ipc/unreadable-files.js';
import { FixedSecretStore } from '../../support/fixed-key-store.js';
import { syntheticPolicies } from '../../support/synthetic-policies.js';
import { readCapacities } from '../../../electron/services/replica/replica-reads.js';
import { writeKind } from '../../../electron/services/replica/replica-writes.js';

/** Paths (or folders) that answer with an error code, and for how many more calls (Infinity: until cleared). */
const faults = vi.hoisted(() => new Map<string, { code: string; left: number }>());
/** The same, for renames only (the file can be read, not moved). */
const renameFaults = vi.hoisted(() => new Map<string, { code: string; left: number }>());

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof fsPromises>();
  const failing = <A extends unknown[], R>(fn: (path: never, ...rest: A) => Promise<R>, table = faults) =>
    ((path: unknown, ...rest: A) => {
      const text = String(path);
      for (const [prefix, fault] of table) {
        if (text.startsWith(prefix) && fault.left > 0) {
          fault.left -= 1;
          return Promise.reject(Object.assign(new Error(`${fault.code}: resource busy or locked, open '${text}'`), { code: fault.code }));
        }
      }
      return fn(path as never, ...rest);
    }) as unknown as typeof fn;
  const wrapped = { ...real, open: failing(real.open), readFile: failing(real.readFile), stat: failing(real.stat), rename: failing(real.rename, renameFaults) };
  return { ...wrapped, default: wrapped };
});

afterEach(() => {
  faults.clear();
  renameFaults.clear();
});

const Doc = z.object({ version: z.literal(1), names: z.array(z.string()) });

describe('settings-like files', () => {
  it('a file held by another program is retried, then reported as not readable right now: left in place, never written over', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cd-busy-'));
    const path = join(dir, 'settings.json');
    const original = JSON.stringify({ version: 1, names: ['kept'] });
    await writeFile(path, original);
    const reports: UnreadableFile[] = [];

    faults.set(resolve(path), { code: 'EBUSY', left: Infinity });
    const read = await readJsonFile(path, Doc, { version: 1, names: [] }, { onUnreadable: (e) => reports.push(e) });
    expect(read).toEqual({ version: 1, names: [] });
    expect(reports).toEqual([expect.objectContaining({ file: path, keptAs: null, reason: expect.stringContaining('could not be read right now (EBUSY') })]);
    expect(await readdir(dir)).toEqual(['settings.json']);
    await expect(writeFileAtomic(path, JSON.stringify({ version: 1, names: [] }))).rejects.toThrow(/not saved/);
    faults.clear();
    expect(await readFile(path, 'utf8')).toBe(original);

    // Readable again: read as it was, and writable again.
    expect(await readJsonFile(path, Doc, { version: 1, names: [] })).toEqual({ version: 1, names: ['kept'] });
    await writeFileAtomic(path, JSON.stringify({ version: 1, names: ['new'] }));
  });

  it('a moment of EPERM, EMFILE or EACCES is simply retried', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cd-busy-'));
    const path = join(dir, 'settings.json');
    await writeFile(path, JSON.stringify({ version: 1, names: ['a'] }));
    for (const code of ['EPERM', 'EMFILE', 'EACCES', 'EAGAIN']) {
      const reports: UnreadableFile[] = [];
      faults.set(resolve(path), { code, left: 2 });
      expect(await readJsonFile(path, Doc, { version: 1, names: [] }, { onUnreadable: (e) => reports.push(e) })).toEqual({ version: 1, names: ['a'] });
      expect(reports).toEqual([]);
    }
  });
});

describe('the offline copy', () => {
  it('a database held by another program is not taken as damage: the copy is reported not readable right now, kept, and read later', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cd-busy-cache-'));
    const secrets = new FixedSecretStore();
    const owner = { profileId: 'sandbox', username: 'alex.morgan@example.com' };
    const rows = syntheticPolicies(120);
    const writer = await Replica.open({ dataDir, secrets, owner });
    await writeKind(writer, 'capacities', rows);
    await writeKind(writer, 'accounts', []);
    await writer.close();
    const before = (await readdir(writer.dir)).sort();

    // Another program holds the database locked (a backup tool, a second copy of the app): SQLITE_BUSY.
    const key = Buffer.from((await secrets.get(replicaKeyService(owner.profileId), owner.username)) ?? '', 'base64');
    const holder = new Database(join(writer.dir, 'replica.db'));
    holder.pragma(`cipher = 'sqlcipher'`);
    holder.pragma('legacy = 4');
    holder.pragma(`key = "x'${key.toString('hex')}'"`);
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('BEGIN EXCLUSIVE');
    try {
      // The lock is held until the finally below: a wait of 100 ms ends in SQLITE_BUSY as surely as the app's 5 s
      // (twice: at the open, and again at the read, 11 s of the lane on the 5 s).
      const reader = await Replica.open({ dataDir, secrets, owner, busyMs: 100 });
      await expect(readCapacities(reader)).rejects.toThrow(/could not be read right now/);
      expect(reader.unreadable).toBeNull();
      expect(reader.discarded).toBe(0);
    } finally {
      holder.exec('COMMIT');
      holder.close();
    }
    expect((await readdir(writer.dir)).sort()).toEqual(before.filter((name) => name !== 'replica.db-shm'));

    const later = await Replica.open({ dataDir, secrets, owner });
    expect((await readCapacities(later))?.value).toHaveLength(120);
    expect(later.unreadable).toBeNull();
    await later.close();
  }, 30_000);
});

describe('writers of files that could not be set aside', () => {
  it('preferences, the notification ledger and the window state never write over an unreadable file they could not move', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cd-kept-'));
    const damaged = '{"version": 1, "this file was cut sh';
    const reports: UnreadableFile[] = [];
    const report = (event: UnreadableFile) => reports.push(event);
    const preferences = new PreferencesStore(dir, report);
    const ledger = new NotificationLedger(dir, report);
    const windowState = new WindowStateStore(dir, report);
    for (const path of [preferences.path, ledger.path, windowState.path]) {
      await writeFile(path, damaged);
      // Readable, but the folder will not let it be moved aside (held for longer than the retries).
      renameFaults.set(resolve(path), { code: 'EPERM', left: Infinity });
    }
    await preferences.load();
    await ledger.load();
    expect(await windowState.load()).toBeNull();
    expect(reports.map((event) => event.keptAs)).toEqual([null, null, null]);

    await expect(preferences.update({ autoUpdate: false })).rejects.toThrow(/not saved/);
    await expect(ledger.record([{ key: 'k', at: new Date(Date.now() + 60_000) }], new Date())).rejects.toThrow(/not saved/);
    await expect(windowState.save({ x: 0, y: 0, width: 800, height: 600, maximized: false, fullScreen: false })).rejects.toThrow(/not saved/);
    windowState.saveNow({ x: 0, y: 0, width: 800, height: 600, maximized: false, fullScreen: false });
    for (const path of [preferences.path, ledger.path, windowState.path]) expect(await readFile(path, 'utf8'), path).toBe(damaged);
  });
});
