import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appUpdateProblems } from '../../scripts/lib/update-feed.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'capacity-desk-feed-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function feedFile(text: string): Promise<string> {
  const file = join(dir, `app-update-${Math.random().toString(36).slice(2)}.yml`);
  await writeFile(file, text);
  return file;
}

describe('the packaged app-update.yml (dist:check --built)', () => {
  it('requires publisherName on Windows, where electron-updater checks update signatures only against it (issue 30 item 5)', async () => {
    const unsigned = await feedFile('provider: github\nowner: acme\nrepo: capacity-desk\n');
    expect(appUpdateProblems(unsigned, { windows: true })).toEqual(['app-update.yml: no publisherName, so Windows updates would be installed without checking who signed them']);
    expect(appUpdateProblems(unsigned, { windows: false })).toEqual([]);
    const named = await feedFile('provider: github\nowner: acme\nrepo: capacity-desk\npublisherName:\n  - Capacity Desk Ltd\n');
    expect(appUpdateProblems(named, { windows: true })).toEqual([]);
    const empty = await feedFile('provider: github\nowner: acme\nrepo: capacity-desk\npublisherName: []\n');
    expect(appUpdateProblems(empty, { windows: true })[0]).toMatch(/publisherName/);
  });

  it('must be the feed the release asked for (issue 30 item 10)', async () => {
    const placeholder = await feedFile('provider: github\nowner: capacity-desk\nrepo: capacity-desk\n');
    expect(appUpdateProblems(placeholder, { feed: { provider: 'github', owner: 'acme', repo: 'desk' } })).toEqual([
      'app-update.yml names github:capacity-desk/capacity-desk, but the build was asked for github:acme/desk',
    ]);
    const generic = await feedFile('provider: generic\nurl: https://updates.example.com/desk/\n');
    expect(appUpdateProblems(generic, { feed: { provider: 'generic', url: 'https://updates.example.com/desk/' } })).toEqual([]);
    expect(appUpdateProblems(generic, { feed: { provider: 'none' } })).toEqual(['app-update.yml exists, but CAPACITY_DESK_UPDATE_FEED=none']);
    expect(appUpdateProblems(join(dir, 'absent.yml'), { feed: { provider: 'none' } })).toEqual([]);
  });
});

describe('the native modules in a packaged app (issue 30 item 9)', () => {
  it('checks both binaries, keytar and better-sqlite3, and both slices of each in the universal macOS app', async () => {
    const { NATIVE_BINARIES, universalArchProblem } = await import('../../scripts/lib/package-rules.js');
    expect(NATIVE_BINARIES.map((path) => path.slice(path.lastIndexOf('/') + 1))).toEqual(['keytar.node', 'better_sqlite3.node']);
    expect(universalArchProblem('better_sqlite3.node', 'x86_64 arm64\n')).toBeNull();
    expect(universalArchProblem('better_sqlite3.node', 'arm64\n')).toBe('better_sqlite3.node is not universal (lipo -archs: arm64; lacks x86_64)');
    expect(universalArchProblem('keytar.node', '')).toBe('keytar.node is not universal (lipo -archs: nothing; lacks x86_64, arm64)');
  });
});
