import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppCommand } from '../../../shared/ipc/desktop.js';
import { NotificationLedger } from '../../../electron/services/desktop/notification-ledger.js';
import type { PolicyDates } from '../../../electron/services/desktop/policy-alerts.js';
import { CHECK_INTERVAL_MS, FIRST_CHECK_DELAY_MS, PolicyNotifier, type NotifierPort } from '../../../electron/services/desktop/policy-notifier.js';
import { ManualScheduler } from './manual-scheduler.js';

/** Electron's Notification as far as the notifier goes: remembers what was shown and can be clicked. */
class FakeNotifier implements NotifierPort {
  shown: Array<{ title: string; body: string; click: () => void }> = [];
  show(content: { title: string; body: string }, onClick: () => void): void {
    this.shown.push({ title: content.title, body: content.body, click: onClick });
  }
}

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cd-notifier-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function setup(options: { enabled?: boolean; signedIn?: boolean; policies?: PolicyDates[]; failLoad?: boolean } = {}) {
  const scheduler = new ManualScheduler();
  const at = (h: number) => new Date(scheduler.now().getTime() + h * 3_600_000).toISOString();
  const state = { enabled: options.enabled ?? true, signedIn: options.signedIn ?? true, loads: 0 };
  const policies: PolicyDates[] = options.policies ?? [
    { cidrId: 'CIDR-1', policyName: 'Batch nodes', policyStatus: 'ACTIVE', launchDateTime: at(-100), endDateTime: at(30) },
    { cidrId: 'CIDR-2', policyName: 'GPU pool', policyStatus: 'ACTIVE', launchDateTime: at(80), endDateTime: at(800) },
  ];
  const notifier = new FakeNotifier();
  const ledger = new NotificationLedger(dataDir);
  await ledger.load();
  const activated: AppCommand[] = [];
  const errors: unknown[] = [];
  const service = new PolicyNotifier({
    notifier,
    enabled: () => state.enabled,
    signedIn: () => state.signedIn,
    loadPolicies: async () => {
      state.loads++;
      if (options.failLoad) throw new Error('service unreachable');
      return policies;
    },
    ledger,
    scheduler,
    onActivate: (command) => activated.push(command),
    report: (error) => errors.push(error),
  });
  return { scheduler, state, notifier, service, activated, errors, ledger };
}

describe('policy notifications', () => {
  it('stay silent, and load nothing, until the person opts in', async () => {
    const { scheduler, state, notifier, service } = await setup({ enabled: false });
    service.start();
    scheduler.advance(3 * CHECK_INTERVAL_MS);
    expect(await service.check()).toBe(0);
    expect(state.loads).toBe(0);
    expect(notifier.shown).toEqual([]);
  });

  it('stay silent while signed out', async () => {
    const { state, service } = await setup({ signedIn: false });
    expect(await service.check()).toBe(0);
    expect(state.loads).toBe(0);
  });

  it('notify shortly after opting in, and a click opens the policy', async () => {
    const { scheduler, notifier, service, activated } = await setup();
    service.start();
    scheduler.advance(FIRST_CHECK_DELAY_MS);
    await service.check();
    expect(notifier.shown.map((n) => n.title)).toEqual(['Ending soon: Batch nodes']);
    notifier.shown[0]!.click();
    expect(activated).toEqual([{ kind: 'open-policy', cidrId: 'CIDR-1' }]);
  });

  it('notify each alert once, also after a restart', async () => {
    const { notifier, service } = await setup();
    expect(await service.check()).toBe(1);
    expect(await service.check()).toBe(0);
    const restarted = await setup();
    expect(await restarted.service.check()).toBe(0);
    expect(notifier.shown).toHaveLength(1);
    expect(restarted.notifier.shown).toEqual([]);
  });

  it('pick up a policy when its date comes within reach on a later round', async () => {
    const { scheduler, notifier, service } = await setup();
    await service.check();
    expect(notifier.shown).toHaveLength(1);
    // GPU pool launches 80 h from the start: due once 56 h have passed.
    scheduler.advance(57 * 3_600_000);
    await service.check();
    expect(notifier.shown.map((n) => n.title)).toEqual(['Ending soon: Batch nodes', 'Launching soon: GPU pool']);
  });

  it('show nothing when the person opts out while the list loads', async () => {
    const { state, notifier, service } = await setup();
    const round = service.check();
    state.enabled = false;
    expect(await round).toBe(0);
    expect(notifier.shown).toEqual([]);
  });

  it('report a failed load and carry on', async () => {
    const { notifier, service, errors } = await setup({ failLoad: true });
    expect(await service.check()).toBe(0);
    expect(errors).toHaveLength(1);
    expect(notifier.shown).toEqual([]);
  });

  it('stop scheduling when stopped', async () => {
    const { scheduler, service } = await setup();
    service.start();
    expect(scheduler.pending).toBe(2);
    service.stop();
    expect(scheduler.pending).toBe(0);
  });
});
