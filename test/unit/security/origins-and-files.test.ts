import { mkdtemp, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { isAllowedExternalUrl, isAppUrl, PROJECT_REPOSITORY } from '../../../electron/services/security/origins.js';
import { KeptStaticFiles, readStaticFile } from '../../../electron/services/static/static-files.js';

describe('origins', () => {
  it('allows the release pages of the project package.json names', async () => {
    const { repository } = JSON.parse(await readFile('package.json', 'utf8')) as { repository: string };
    expect(repository).toBe(`https://github.com/${PROJECT_REPOSITORY}`);
  });

  it('recognises only the app origin as the app', () => {
    expect(isAppUrl('app://capacity-desk/index.html')).toBe(true);
    expect(isAppUrl('app://capacity-desk.evil/index.html')).toBe(false);
    expect(isAppUrl('file:///index.html')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });

  it('allows external links only over https to allowlisted hosts, after parsing', () => {
    expect(isAllowedExternalUrl('https://github.com/capacity-desk/capacity-desk/releases')).toBe(true);
    expect(isAllowedExternalUrl('https://github.com/capacity-desk/capacity-desk/releases/tag/v1.4.0')).toBe(true);
    expect(isAllowedExternalUrl('https://github.com/Capacity-Desk/Capacity-Desk/releases/latest')).toBe(true);
    // Any other github.com page could be anyone's.
    expect(isAllowedExternalUrl('https://github.com/x')).toBe(false);
    expect(isAllowedExternalUrl('https://github.com/evil/capacity-desk/releases')).toBe(false);
    expect(isAllowedExternalUrl('https://github.com/capacity-desk/capacity-desk/releases-evil')).toBe(false);
    expect(isAllowedExternalUrl('https://github.com/capacity-desk/capacity-desk/issues/1')).toBe(false);
    expect(isAllowedExternalUrl('https://github.com/capacity-desk/capacity-desk/releases/../../../evil/x')).toBe(false);
    expect(isAllowedExternalUrl('https://www.electronjs.org/docs')).toBe(false);
    expect(isAllowedExternalUrl('http://github.com/x')).toBe(false);
    expect(isAllowedExternalUrl('https://github.com.evil.example/x')).toBe(false);
    expect(isAllowedExternalUrl('https://evil.example@github.com/')).toBe(false);
    expect(isAllowedExternalUrl('https://github.com:8443/')).toBe(false);
    expect(isAllowedExternalUrl('javascript:alert(1)')).toBe(false);
    expect(isAllowedExternalUrl('file:///etc/passwd')).toBe(false);
  });
});

describe('static files', () => {
  it('serves files of the renderer folder and nothing outside it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cd-static-'));
    await mkdir(join(root, 'renderer', 'assets'), { recursive: true });
    await writeFile(join(root, 'renderer', 'index.html'), '<html></html>');
    await writeFile(join(root, 'renderer', 'assets', 'app.js'), 'x');
    await writeFile(join(root, 'secret.json'), '{}');
    const dir = join(root, 'renderer');
    expect((await readStaticFile(dir, '/'))?.contentType).toMatch(/text\/html/);
    expect((await readStaticFile(dir, '/assets/app.js'))?.body.toString()).toBe('x');
    expect(await readStaticFile(dir, '/../secret.json')).toBeNull();
    expect(await readStaticFile(dir, '/%2e%2e/secret.json')).toBeNull();
    expect(await readStaticFile(dir, '/..%5csecret.json')).toBeNull();
    expect(await readStaticFile(dir, '/assets/%00app.js')).toBeNull();
    expect(await readStaticFile(dir, '/missing.js')).toBeNull();
  });

  it('keeps one copy of a file however its URL is spelled, and refuses what the reads refuse', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cd-static-kept-'));
    await mkdir(join(root, 'renderer', 'assets'), { recursive: true });
    await writeFile(join(root, 'renderer', 'assets', 'app.js'), 'x');
    await writeFile(join(root, 'secret.json'), '{}');
    const kept = new KeptStaticFiles(join(root, 'renderer'));
    const first = await kept.read('/assets/app.js');
    expect(first?.body.toString()).toBe('x');
    // Each spelling kept apart would be another copy of the file in memory (a page may ask any it likes).
    for (const spelling of ['//assets/app.js', '///assets//app.js', '/%61ssets/app.js', '/assets/./app.js']) {
      expect(await kept.read(spelling), spelling).toBe(first);
    }
    expect(await kept.read('/../secret.json')).toBeNull();
    expect(await kept.read('/%2e%2e/secret.json')).toBeNull();
  });
});

describe('web permissions', () => {
  it('grants only clipboard writes, and only to the app itself', async () => {
    const { isPermissionGranted } = await import('../../../electron/services/security/permissions.js');
    expect(isPermissionGranted('clipboard-sanitized-write', 'app://capacity-desk/index.html')).toBe(true);
    expect(isPermissionGranted('clipboard-sanitized-write', 'app://capacity-desk')).toBe(true);
    expect(isPermissionGranted('clipboard-sanitized-write', 'https://evil.example/')).toBe(false);
    for (const permission of ['clipboard-read', 'media', 'geolocation', 'notifications', 'openExternal', 'fullscreen']) {
      expect(isPermissionGranted(permission, 'app://capacity-desk/index.html')).toBe(false);
    }
  });
});
