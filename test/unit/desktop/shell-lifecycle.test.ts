import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHANNELS } from '../../../shared/ipc/channels.js';
import type { Handlers } from '../../../shared/ipc/contract.js';
import { FaultReport, type FaultNotice } from '../../../electron/services/desktop/fault-report.js';
import { QuitSequence } from '../../../electron/services/desktop/quit-sequence.js';
import { sandboxState } from '../../../electron/services/desktop/sandbox-state.js';
import { runSelfCheck, type SelfCheckDeps } from '../../../electron/services/desktop/smoke-self-check.js';
import { deferredHandlers } from '../../../electron/services/ipc/deferred-handlers.js';
import { CapacityReplicaDb } from '../../../electron/services/replica/capacity-replica-db.js';

describe('Chromium\'s sandbox in this run (issue 30 item 2)', () => {
  it('is on unless started with --no-sandbox, and says why it is off, naming the deb/rpm for the AppImage', () => {
    expect(sandboxState(['/opt/Capacity Desk/capacity-desk'], {})).toEqual({ available: true });
    expect(sandboxState(['/tmp/.mount_x/capacity-desk', '--no-sandbox'], { APPIMAGE: '/home/a/Capacity-Desk.AppImage' })).toEqual({
      available: false,
      reason: expect.stringMatching(/AppImage started without it because this system restricts unprivileged user namespaces .*Install the \.deb or \.rpm/),
    });
    expect(sandboxState(['capacity-desk', '--no-sandbox'], {})).toEqual({ available: false, reason: expect.stringMatching(/started with --no-sandbox/) });
    // A value that merely contains the words is not the switch.
    expect(sandboxState(['capacity-desk', '--title=--no-sandbox-please'], {})).toEqual({ available: true });
  });
});

describe('main-process faults (issue 30 item 6)', () => {
  function faults() {
    const logged: string[] = [];
    const told: FaultNotice[] = [];
    const report = new FaultReport({ log: (message) => logged.push(message), tell: (notice) => told.push(notice), logsDir: '/logs', crashDumpsDir: '/logs/crashes' });
    return { report, logged, told };
  }

  it('logs every fault and tells the person once, naming the logs and the local crash dumps', () => {
    const { report, logged, told } = faults();
    report.report({ kind: 'exception', error: new Error('boom') });
    report.report({ kind: 'rejection', reason: new Error('again') });
    report.report({ kind: 'child-process-gone', type: 'GPU', reason: 'crashed', exitCode: 139 });
    expect(logged).toEqual([
      'An unexpected error in the main process',
      'An unexpected error in the main process (unhandled rejection)',
      'A helper process ended: GPU, crashed, exit code 139',
    ]);
    expect(told).toHaveLength(1);
    expect(told[0]!.detail).toMatch(/Help > Open Logs Folder\): \/logs\. Crash reports stay on this computer, in \/logs\/crashes; nothing is uploaded/);
  });

  it('logs a helper that ended on purpose without a box', () => {
    const { report, logged, told } = faults();
    report.report({ kind: 'child-process-gone', type: 'Utility', reason: 'clean-exit', exitCode: 0, name: 'Network Service' });
    expect(logged).toEqual(['A helper process ended: Utility (Network Service), clean-exit, exit code 0']);
    expect(told).toEqual([]);
  });
});

describe('quit waits for shutdown (issue 30 item 7)', () => {
  it('holds the first will-quit, closes, then quits again; that second will-quit goes through', async () => {
    const order: string[] = [];
    let finishClose!: () => void;
    const quit = new QuitSequence({
      close: () => new Promise<void>((resolve) => (finishClose = () => (order.push('closed'), resolve()))),
      quit: () => order.push('quit again'),
      log: (message) => order.push(message),
    });
    let prevented = 0;
    quit.onWillQuit({ preventDefault: () => (prevented += 1) });
    quit.onWillQuit({ preventDefault: () => (prevented += 1) });
    expect(prevented).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]);
    finishClose();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(order).toEqual(['closed', 'quit again']);
  });

  it('quits after the limit when close() hangs, and after a failed close, saying so', async () => {
    const hung: string[] = [];
    new QuitSequence({ close: () => new Promise<void>(() => undefined), quit: () => hung.push('quit again'), log: (m) => hung.push(m), limitMs: 30 }).onWillQuit({ preventDefault: () => undefined });
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(hung).toEqual(['shutdown did not finish within 0.03 s; exiting anyway', 'quit again']);

    const failed: string[] = [];
    new QuitSequence({ close: () => Promise.reject(new Error('disk gone')), quit: () => failed.push('quit again'), log: (m) => failed.push(m) }).onWillQuit({ preventDefault: () => undefined });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(failed).toEqual(['shutdown failed', 'quit again']);
  });
});

describe('the window opens before the services are ready (issue 30 item 8)', () => {
  it('answers every channel once the services are there, and fails the waiting calls with a failed start', async () => {
    let ready!: (handlers: Handlers) => void;
    const handlers = deferredHandlers(new Promise<Handlers>((resolve) => (ready = resolve)));
    expect(Object.keys(handlers).sort()).toEqual([...CHANNELS].sort());
    const answer = handlers['app.info'](undefined as never);
    let settled = false;
    void answer.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled).toBe(false);
    ready({ 'app.info': async () => ({ name: 'Capacity Desk' }) } as unknown as Handlers);
    await expect(answer).resolves.toEqual({ name: 'Capacity Desk' });

    const failed = Promise.reject(new Error('the data folder cannot be written'));
    failed.catch(() => undefined);
    await expect(deferredHandlers(failed)['session.status'](undefined as never)).rejects.toThrow('the data folder cannot be written');
  });
});

describe('the smoke launch\'s native self-check (issue 30 item 9)', () => {
  const memoryKeychain = () => {
    const entries = new Map<string, string>();
    return {
      set: async (s: string, a: string, v: string) => void entries.set(`${s}/${a}`, v),
      get: async (s: string, a: string) => entries.get(`${s}/${a}`) ?? null,
      delete: async (s: string, a: string) => entries.delete(`${s}/${a}`),
      entries,
    };
  };
  let counter = 0;
  const base = (over: Partial<SelfCheckDeps>): SelfCheckDeps => ({
    replicaRoundTrip: async () => undefined,
    loadKeychain: memoryKeychain,
    keychainRequired: true,
    random: () => String((counter += 1)),
    ...over,
  });

  it('opens a real throw-away replica and does a keychain round trip, leaving nothing behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capacity-desk-selfcheck-'));
    const keychain = memoryKeychain();
    try {
      const result = await runSelfCheck(
        base({
          replicaRoundTrip: async () => CapacityReplicaDb.open(join(dir, 'r.db'), randomBytes(32)).close(),
          loadKeychain: () => keychain,
        }),
      );
      expect(result).toEqual({ ok: true, keychain: 'round trip ok' });
      expect(keychain.entries.size).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fails on a broken better_sqlite3.node or keytar.node, and on a missing keychain only where one is required', async () => {
    expect(await runSelfCheck(base({ replicaRoundTrip: async () => Promise.reject(new Error('invalid ELF header')) }))).toEqual({
      ok: false,
      reason: 'the replica database (better_sqlite3.node) did not work: invalid ELF header',
    });
    expect(
      await runSelfCheck(
        base({
          loadKeychain: () => {
            throw new Error('was compiled against a different Node.js version');
          },
        }),
      ),
    ).toEqual({ ok: false, reason: 'the keychain module (keytar.node) did not load: was compiled against a different Node.js version' });
    const noService = () => ({ ...memoryKeychain(), set: () => Promise.reject(new Error('The name org.freedesktop.secrets was not provided by any .service files')) });
    expect(await runSelfCheck(base({ loadKeychain: noService }))).toMatchObject({ ok: false, reason: expect.stringMatching(/^the keychain round trip failed: The name org\.freedesktop\.secrets/) });
    expect(await runSelfCheck(base({ loadKeychain: noService, keychainRequired: false }))).toEqual({ ok: true, keychain: expect.stringMatching(/^module loaded; no keychain to use here/) });
    const liar = () => ({ ...memoryKeychain(), get: async () => 'something else' });
    expect(await runSelfCheck(base({ loadKeychain: liar }))).toEqual({ ok: false, reason: 'the keychain gave back something other than what was saved' });
  });
});
