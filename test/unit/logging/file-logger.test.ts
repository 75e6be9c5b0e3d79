import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileLogger } from '../../../electron/services/logging/file-logger.js';
import { Redactor } from '../../../electron/services/logging/redact.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('Redactor', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGV4In0.c2lnbmF0dXJlLWJ5dGVz';
  it.each([
    [`Authorization: Bearer ${jwt}`, jwt],
    [`token ${jwt} leaked`, jwt],
    ['{"username":"a","password":"sandbox-demo-1"}', 'sandbox-demo-1'],
    ["password='hunter22hunter'", 'hunter22hunter'],
    ['GET /__launch?key=abcdefghijklmnop', 'abcdefghijklmnop'],
    ['{"access_token":"opaque-token-value"}', 'opaque-token-value'],
  ])('removes secrets from %s', (line, secret) => {
    expect(new Redactor().redact(line)).not.toContain(secret);
  });

  it('removes registered values wherever they appear', () => {
    const redactor = new Redactor();
    redactor.add('my-opaque-secret');
    expect(redactor.redact('x my-opaque-secret y my-opaque-secret')).toBe('x [redacted] y [redacted]');
    expect(redactor.redact('nothing secret here: sc_1001 canceled')).toBe('nothing secret here: sc_1001 canceled');
  });
});

describe('FileLogger', () => {
  it('writes redacted lines, including error details, and rotates by size', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cd-log-'));
    dirs.push(dir);
    const logger = new FileLogger({ dir, maxBytes: 2_000, keep: 2 });
    logger.redactor.add('registered-secret-value');
    logger.info('session', 'signed in', { username: 'alex', password: 'sandbox-demo-1' });
    logger.error('ipc', 'failed with registered-secret-value', new Error('boom with Bearer abc.def.ghi'));
    for (let i = 0; i < 60; i += 1) logger.info('fill', `line ${i} ${'x'.repeat(40)}`);
    await logger.flush();
    const files = (await readdir(dir)).sort();
    expect(files).toEqual(['capacity-desk.log', 'capacity-desk.log.1', 'capacity-desk.log.2']);
    const all = (await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')))).join('');
    expect(all).not.toContain('sandbox-demo-1');
    expect(all).not.toContain('registered-secret-value');
    expect(all).not.toContain('abc.def.ghi');
    expect(all).toContain('line 59');
    for (const f of files) expect((await readFile(join(dir, f))).length).toBeLessThanOrEqual(2_100);
  });
});

describe('audit log', () => {
  it('logs state-changing calls with their subject and outcome, never their input', async () => {
    const { withAuditLog } = await import('../../../electron/services/logging/audit-log.js');
    const { stubHandlers } = await import('../../support/stub-handlers.js');
    const { AppFailure } = await import('../../../shared/ipc/result.js');
    const lines: string[] = [];
    const logger = { debug: () => undefined, info: (_s: string, m: string) => lines.push(m), warn: (_s: string, m: string) => lines.push(m), error: () => undefined };
    const handlers = withAuditLog(
      stubHandlers({
        'session.signIn': async () => ({ signedIn: true, profileId: 'sandbox', keychain: { kind: 'keychain' } }),
        'capacity.cancel': async () => {
          throw new AppFailure({ kind: 'rejected', message: 'x' });
        },
        'capacity.list': async () => ({ rows: [], offset: 0, total: 0, origin: { source: 'replica', fetchedAt: new Date().toISOString() }, local: true, skipped: [] }),
      }),
      logger,
    );
    await handlers['session.signIn']({ profileId: 'sandbox', username: 'alex', password: 'the-password-1' });
    await expect(handlers['capacity.cancel']({ cidrId: 'sc_42' })).rejects.toThrow();
    await handlers['capacity.list']({ offset: 0, limit: 10, text: '', sortBy: 'createdDate', sortOrder: 'desc' });
    expect(lines).toEqual(['session.signIn [profileId=sandbox username=alex] succeeded', 'capacity.cancel [cidrId=sc_42] failed (rejected)']);
    expect(lines.join('\n')).not.toContain('the-password-1');
  });
});

describe('FileLogger: one entry stays one entry', () => {
  it('escapes carriage returns and other control characters in logged values, so no value can forge a line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cd-log-'));
    dirs.push(dir);
    const logger = new FileLogger({ dir });
    const forged = '2026-01-01T00:00:00.000Z INFO  [audit] session.signIn [profileId=sandbox username=admin] succeeded';
    logger.warn('browser-host', `refused: wrong customer id "x\r${forged}"`);
    logger.info('session', 'name', { name: `a\r\n${forged}`, more: `b\u2028${forged}\u0085${forged}\u001b[2K\u0000\u007f` });
    logger.error('api', 'failed', new Error(`bad\r${forged}`));
    await logger.flush();
    const text = await readFile(join(dir, 'capacity-desk.log'), 'utf8');
    // However a viewer breaks lines (CR, LF, NEL, the Unicode separators), every line is a real entry or an indented continuation.
    const lines = text.split(/\r\n|\r|\n|\u0085|\u2028|\u2029/).filter((line) => line !== '');
    const entries = lines.filter((line) => /^\d{4}-\d{2}-\d{2}T/.test(line));
    expect(entries).toHaveLength(3);
    for (const line of entries) expect(line).not.toMatch(/^2026-01-01T00:00:00\.000Z/);
    for (const line of lines) expect(line, line).toMatch(/^(\d{4}-\d{2}-\d{2}T| {4})/);
    // eslint-disable-next-line no-control-regex -- no raw control character may reach the file
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(text).toContain('\\x0d2026-01-01T00:00:00.000Z');
    expect(text).toContain('\\u2028');
    expect(text.toLowerCase()).toContain('\\x1b[2k');
  });
});
