/**
 * The calendar export of launches and ends: written with `ics`, read back with
 * a different parser (ical.js), through the real dispatch: one event per
 * launch or end within the horizon, at the exact instant, its text at the
 * customer's offset, for one customer or all.
 */
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapacityRow } from '../../shared/api/readers.js';
import type { SaveCsvResult } from '../../shared/ipc/export.js';
import type { WorklistWindow } from '../../shared/ipc/worklist.js';
import { FixedSecretStore } from '../support/fixed-key-store.js';
import { ALEX, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { value } from '../support/ipc-result.js';

interface ParsedEvent {
  readonly uid: string;
  readonly summary: string;
  readonly description: string;
  readonly startMs: number;
  readonly endMs: number;
}

function parse(content: string): ParsedEvent[] {
  const calendar = new ICAL.Component(ICAL.parse(content));
  return calendar.getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component);
    return {
      uid: event.uid,
      summary: event.summary,
      description: event.description,
      startMs: event.startDate.toJSDate().getTime(),
      endMs: event.endDate.toJSDate().getTime(),
    };
  });
}

let app: FastApp;
let policies: CapacityRow[];

async function exportCalendar(input: Record<string, unknown>): Promise<{ fileName: string; events: ParsedEvent[]; rows: number }> {
  const saved = value<SaveCsvResult>(await app.call('worklist.exportCalendar', input));
  if (saved.outcome !== 'download') throw new Error(`expected a download, got ${saved.outcome}`);
  return { fileName: saved.fileName, events: parse(saved.content), rows: saved.rows };
}

beforeAll(async () => {
  app = await startFastApp({ secrets: new FixedSecretStore() });
  value(await app.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password }));
  value(await app.call('offline.sync'));
  policies = value<WorklistWindow>(await app.call('worklist.query', { horizonDays: 90, limit: 500 })).rows.map((row) => row.policy);
});

afterAll(async () => {
  await app?.close();
});

describe('worklist.exportCalendar', () => {
  it('has one event per launch or end within the horizon, at the exact instant, with its time at the offset asked for', async () => {
    const asked = Date.now();
    const { fileName, events, rows } = await exportCalendar({ horizonDays: 90, offsetHours: 5.5 });
    // Dated by its window's days at the offset asked for.
    const day = (ms: number) => new Date(ms + 5.5 * 3_600_000).toISOString().slice(0, 10);
    expect(fileName).toBe(`Launches and ends ${day(asked)} to ${day(asked + 90 * 86_400_000)}.ics`);
    expect(rows).toBe(events.length);
    const now = Date.now();
    const expected = policies.flatMap((policy) => {
      const at = (iso: string | undefined) => Date.parse(iso ?? '');
      const within = (ms: number) => ms > now && ms <= now + 90 * 86_400_000;
      const launch = at(policy.capacityConfiguration?.launchDateTime);
      const end = at(policy.capacityConfiguration?.endDateTime);
      return [
        ...(within(launch) ? [{ uid: `launch-${policy.cidrId}@capacity-desk`, ms: launch }] : []),
        ...(within(end) && policy.policyStatus === 'ACTIVE' ? [{ uid: `end-${policy.cidrId}@capacity-desk`, ms: end }] : []),
      ];
    });
    expect(events.map((event) => event.uid).sort()).toEqual(expected.map((event) => event.uid).sort());
    for (const want of expected) {
      const event = events.find((candidate) => candidate.uid === want.uid)!;
      expect(event.startMs).toBe(want.ms);
      expect(event.endMs - event.startMs).toBe(30 * 60_000);
      // The time at UTC+05:30, as said to the customer.
      const local = new Date(want.ms + 5.5 * 3_600_000).toISOString();
      expect(event.summary).toContain(`${local.slice(0, 10)} ${local.slice(11, 16)} (UTC+05:30)`);
      expect(event.description).toContain('Customer: ');
      // Auto-renewal in words, never the contract's code.
      expect(event.description).toMatch(/auto-renewal (off|on \((every week|every two weeks|every month|no frequency set)\))\./);
    }
  });

  it('for one customer only, with hostile text kept as text', async () => {
    const account = policies[0]?.cspAccountName;
    if (!account) throw new Error('no account in the seed');
    // A customer is the book's: the account's policies are theirs.
    const customer = 'constructor, "; DROP';
    value(await app.call('customers.save', { name: customer, accounts: [account] }));
    const { fileName, events } = await exportCalendar({ horizonDays: 90, customer, offsetHours: -3 });
    // A file name cannot hold every character a customer's name can: the unsafe ones are replaced.
    expect(fileName).toMatch(/^Launches and ends constructor, -; DROP \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}\.ics$/);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      expect(event.description).toContain(`Customer: ${customer}.`);
      expect(event.summary).toContain('(UTC-03:00)');
    }
    const none = await exportCalendar({ horizonDays: 90, customer: '__proto__\u202E, "; DROP', offsetHours: 0 });
    expect(none.events).toEqual([]);
    expect(none.rows).toBe(0);
  });

  it('refuses an offset that is not a quarter hour within ±18', async () => {
    const odd = await app.call('worklist.exportCalendar', { horizonDays: 90, offsetHours: 5.3 });
    expect(odd.ok).toBe(false);
    const far = await app.call('worklist.exportCalendar', { horizonDays: 90, offsetHours: 19 });
    expect(far.ok).toBe(false);
  });
});
