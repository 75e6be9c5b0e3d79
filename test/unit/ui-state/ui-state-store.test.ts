import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UI_STATE_FILE, UiStateStore } from '../../../electron/services/ui-state/ui-state-store.js';
import { UI_STATE_MAX_KEYS, UiStateEntry } from '../../../shared/ipc/ui-state.js';

const dirs: string[] = [];
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cd-ui-state-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('UiStateStore', () => {
  it('keeps what the views set across a restart of the main process', async () => {
    const dir = await dataDir();
    const first = new UiStateStore(dir);
    await first.load();
    await first.set({ key: 'capacity-desk.capacity-list.v1', value: { status: 'ACTIVE', sortBy: 'ourPrice', sortOrder: 'asc', topIndex: 25 } });
    const second = new UiStateStore(dir);
    expect(await second.load()).toEqual({ 'capacity-desk.capacity-list.v1': { status: 'ACTIVE', sortBy: 'ourPrice', sortOrder: 'asc', topIndex: 25 } });
  });

  it('refuses prototype names and oversized values at the boundary, and bounds the number of keys', async () => {
    expect(UiStateEntry.safeParse({ key: '__proto__', value: 1 }).success).toBe(false);
    expect(UiStateEntry.safeParse({ key: 'a', value: 'x'.repeat(5_000) }).success).toBe(false);
    const store = new UiStateStore(await dataDir());
    await store.load();
    // 'constructor' is an ordinary key here.
    await store.set({ key: 'constructor', value: { kept: true } });
    expect(Object.getPrototypeOf(store.all())).toBeNull();
    expect(store.all().constructor).toEqual({ kept: true });
    for (let i = 1; i < UI_STATE_MAX_KEYS; i += 1) await store.set({ key: `view-${i}`, value: i });
    await expect(store.set({ key: 'one-too-many', value: 1 })).rejects.toMatchObject({ error: { kind: 'invalid-input' } });
    await store.set({ key: 'view-1', value: 'replaced' });
    expect(store.all()['view-1']).toBe('replaced');
  });

  it('keeps an unreadable file aside, says so, and starts from nothing', async () => {
    const dir = await dataDir();
    await writeFile(join(dir, UI_STATE_FILE), '{"version":1,"entries":');
    const reported: string[] = [];
    const store = new UiStateStore(dir, (event) => reported.push(event.file));
    expect(await store.load()).toEqual({});
    expect(reported).toEqual([join(dir, UI_STATE_FILE)]);
    const kept = (await readdir(dir)).find((name) => name.startsWith(`${UI_STATE_FILE}.unreadable-`));
    expect(await readFile(join(dir, kept ?? 'missing'), 'utf8')).toBe('{"version":1,"entries":');
  });
});
