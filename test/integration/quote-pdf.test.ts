/**
 * A quote a customer can read: through the real dispatch and services on the
 * sandbox, saved as a PDF that poppler renders (pdftoppm) and reads back
 * (pdftotext) with the policies' own numbers; recorded in each policy's activity.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import type { ActivityList } from '../../shared/ipc/activity.js';
import { formatFraction, formatMoney } from '../../shared/format/money.js';
import { SANDBOX_FEE_SCHEDULE, scheduleLines } from '../../shared/money/fee-schedule.js';
import { atOffset, type QuoteRequest, type QuoteResult } from '../../shared/quote/quote.js';
import { ALEX, startFastApp, type FastApp } from '../unit/api-client/sandbox-fixture.js';
import { value } from '../support/ipc-result.js';

const run = promisify(execFile);

let app: FastApp;
let dir: string;
let ready: CapacityPolicy[];

beforeAll(async () => {
  app = await startFastApp();
  dir = await mkdtemp(join(tmpdir(), 'capacity-desk-quote-'));
  value(await app.call('session.signIn', { profileId: 'sandbox', username: ALEX.username, password: ALEX.password }));
  ready = value<{ rows: CapacityPolicy[] }>(await app.call('capacity.list', { status: 'READY_FOR_PURCHASE', limit: 100 })).rows;
});
afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

const request = (policyIds: string[], paper: QuoteRequest['paper'] = 'A4', name = 'Northwind Traders'): QuoteRequest => ({
  policyIds,
  customer: { name },
  accountManager: 'Alex Morgan',
  validUntil: '2026-12-31',
  customerUtcOffset: 1,
  paper,
});

/** Today in UTC (YYYY-MM-DD), as the quote names its day. */
const utcDay = () => new Date().toISOString().slice(0, 10);

async function pdfOf(result: QuoteResult, name: string): Promise<{ text: string; path: string }> {
  const path = join(dir, name);
  await writeFile(path, Buffer.from(result.pdfBase64, 'base64'));
  const { stdout } = await run('pdftotext', ['-layout', path, '-']);
  return { text: stdout, path };
}

/** The font names pdffonts lists, sorted. */
async function fontsOf(path: string): Promise<string[]> {
  const { stdout } = await run('pdffonts', [path]);
  return stdout.split('\n').slice(2).filter((line) => line.trim()).map((line) => line.split(/\s+/)[0]!).sort();
}

async function pageSize(path: string): Promise<string> {
  const { stdout } = await run('pdfinfo', [path]);
  return /Page size:\s+(.+)/.exec(stdout)?.[1] ?? '';
}

describe('quote.create', () => {
  it('writes a real PDF whose numbers are the policies’ own, in the Sandbox’s currency, on A4 and Letter', async () => {
    const chosen = ready.slice(0, 3);
    const dayBefore = utcDay();
    const result = value<QuoteResult>(await app.call('quote.create', request(chosen.map((p) => p.cidrId))));
    const { text, path } = await pdfOf(result, 'a4.pdf');
    expect(await pageSize(path)).toMatch(/^595\.\d* x 841\.\d* pts \(A4\)/);
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('Quote for Northwind Traders');
    expect(flat).toContain('by Alex Morgan. Valid until 2026-12-31.');
    for (const policy of chosen) {
      const money = (n: number) => formatMoney(n, 'USD', 'en-US').replace(/\s/g, ' ');
      expect(flat).toContain(`${policy.policyName} (${policy.cidrId})`);
      expect(flat).toContain(`${policy.policyInstance.qty} × ${policy.policyInstance.instanceType}, ${policy.policyInstance.platformCode}, zone ${policy.cspRegion.availabilityZoneId}`);
      expect(flat).toContain(`Window: ${atOffset(policy.capacityConfiguration.launchDateTime, 1)} to ${atOffset(policy.capacityConfiguration.endDateTime, 1)}`);
      expect(flat).toContain(`Our price: ${money(policy.pricing.ourPrice)}`);
      expect(flat).toContain(`Provider price: ${money(policy.pricing.cspProviderPrice)}`);
      expect(flat).toContain(`Savings: ${money(policy.pricing.savings)} (${formatFraction(policy.pricing.savingsPercentage, 'en-US')})`);
    }
    // No way of paying given: both totals, as alternatives (money18; worked out in the next test).
    expect(flat).toContain('Total, by how you pay (one of these applies):');
    for (const line of scheduleLines(SANDBOX_FEE_SCHEDULE)) expect(flat).toContain(line);
    // The e-mail text says the same.
    expect(result.text).toContain(`Our price: ${formatMoney(chosen[0]!.pricing.ourPrice, 'USD', 'en-US')}`);
    // Named for the day it was made, which may have turned while the call ran (CI runs at any hour).
    expect([dayBefore, utcDay()].map((day) => `Quote Northwind Traders ${day}.pdf`)).toContain(result.fileName);

    // Rendered by poppler: one PNG per page, not empty.
    await run('pdftoppm', ['-png', '-r', '50', path, join(dir, 'a4')]);
    const pngs = (await readdir(dir)).filter((name) => name.startsWith('a4') && name.endsWith('.png'));
    expect(pngs.length).toBeGreaterThan(0);
    expect((await stat(join(dir, pngs[0]!))).size).toBeGreaterThan(1000);

    // Names Helvetica can draw keep the standard fonts (no font embedded: small and fast to make).
    expect(await fontsOf(path)).toEqual(['Helvetica', 'Helvetica-Bold']);

    const letter = value<QuoteResult>(await app.call('quote.create', request([chosen[0]!.cidrId], 'Letter')));
    expect(await pageSize((await pdfOf(letter, 'letter.pdf')).path)).toMatch(/^612 x 792 pts \(letter\)/);

    // Recorded in each policy's activity.
    const activity = value<ActivityList>(await app.call('activity.list', { policyKind: 'capacity', policyId: chosen[0]!.cidrId }));
    expect(activity.entries[0]).toMatchObject({ action: 'quote', outcome: 'succeeded', price: chosen[0]!.pricing.ourPrice });
  });

  it('totals what the customer will pay: our price and the processing fee of how they pay, both named, or both totals as alternatives (money18)', async () => {
    // Policies stating both fees, and one stating no card fee (the service's null).
    const both = ready.filter((p) => p.pricing.creditCardProcessingFee !== null && p.pricing.bankAccountProcessingFee !== null).slice(0, 3);
    const noCard = ready.find((p) => p.pricing.creditCardProcessingFee === null && p.pricing.bankAccountProcessingFee !== null);
    if (both.length < 3 || !noCard) throw new Error('the seed has too few ready policies with both fees, or none without a card fee');
    const chosen = [...both, noCard];
    const money = (n: number) => formatMoney(n, 'USD', 'en-US').replace(/\s/g, ' ');
    // In whole cents, from the service's own amounts.
    const cents = (pick: (p: CapacityPolicy) => number | null) => chosen.reduce((sum, p) => sum + Math.round((pick(p) ?? 0) * 100), 0);
    const price = cents((p) => p.pricing.ourPrice);
    const card = cents((p) => p.pricing.creditCardProcessingFee);
    const bank = cents((p) => p.pricing.bankAccountProcessingFee);
    const ids = chosen.map((p) => p.cidrId);

    // Not known: one total per way of paying, said to be alternatives; each policy's two fees as "or".
    const either = value<QuoteResult>(await app.call('quote.create', request(ids)));
    for (const text of [(await pdfOf(either, 'either.pdf')).text.replace(/\s+/g, ' '), either.text.replace(/\s+/g, ' ')]) {
      expect(text).toContain('Total, by how you pay (one of these applies):');
      expect(text).toContain(`- paying by card: ${money((price + card) / 100)} (our price ${money(price / 100)} + card processing fees ${money(card / 100)}; no card fee is stated for 1 policy)`);
      expect(text).toContain(`- paying by bank transfer: ${money((price + bank) / 100)} (our price ${money(price / 100)} + bank transfer processing fees ${money(bank / 100)})`);
      const first = both[0]!.pricing;
      expect(text).toContain(`Processing fee, by how you pay: card ${money(first.creditCardProcessingFee!)}, or bank transfer ${money(first.bankAccountProcessingFee!)}`);
      expect(text).toContain(`Processing fee, by how you pay: card none stated, or bank transfer ${money(noCard.pricing.bankAccountProcessingFee!)}`);
    }

    // Known (the book's "Pays by", or chosen in the dialog): one total, its fee named; the other fee nowhere.
    const byBank = value<QuoteResult>(await app.call('quote.create', { ...request(ids), paysBy: 'bank' }));
    for (const text of [(await pdfOf(byBank, 'bank.pdf')).text.replace(/\s+/g, ' '), byBank.text.replace(/\s+/g, ' ')]) {
      expect(text).toContain(`Total: ${money((price + bank) / 100)} (our price ${money(price / 100)} + bank transfer processing fees ${money(bank / 100)})`);
      expect(text).toContain(`Processing fee (bank transfer, as you pay): ${money(noCard.pricing.bankAccountProcessingFee!)}`);
      expect(text).not.toContain('paying by card');
      expect(text).not.toMatch(/card (USD|none)/);
    }
  });

  it('says, per policy, what the quote’s dates mean: launching before the quote ends, a fee from the start, free only until a day (day13)', async () => {
    const DAY = 86_400_000;
    const now = Date.now();
    const validUntil = new Date(now + 14 * DAY).toISOString().slice(0, 10);
    const validEnd = Date.parse(`${validUntil}T00:00:00Z`) + DAY - 3_600_000; // the day's end at UTC+01:00
    const launchOf = (policy: CapacityPolicy) => Date.parse(policy.capacityConfiguration.launchDateTime);
    const all = value<{ rows: CapacityPolicy[] }>(await app.call('capacity.list', { status: 'READY_FOR_PURCHASE', limit: 500 })).rows;
    const pick = (what: string, test: (launch: number) => boolean) => {
      const found = all.find((policy) => test(launchOf(policy)));
      if (!found) throw new Error(`the seed has no ready policy that ${what}`);
      return found;
    };
    // The sandbox's schedule: free 30 days or more before launch, 10 % from 30 days, 25 % from 7.
    const beforeItEnds = pick('launches while the quote holds', (launch) => launch > now + DAY && launch <= validEnd - DAY);
    const freeForAWhile = pick('is free to cancel until a day while the quote holds', (launch) => launch - 30 * DAY > now + DAY && launch - 30 * DAY < validEnd - DAY);
    const freeThroughout = pick('stays free to cancel while the quote holds', (launch) => launch - 30 * DAY > validEnd + DAY);
    const result = value<QuoteResult>(
      await app.call('quote.create', { ...request([beforeItEnds, freeForAWhile, freeThroughout].map((p) => p.cidrId)), validUntil }),
    );
    const flat = (await pdfOf(result, 'timing.pdf')).text.replace(/\s+/g, ' ');
    const block = (policy: CapacityPolicy, text: string) => {
      const start = text.indexOf(`(${policy.cidrId})`);
      const next = [beforeItEnds, freeForAWhile, freeThroughout].map((p) => text.indexOf(`(${p.cidrId})`)).filter((at) => at > start);
      return text.slice(start, next.length > 0 ? Math.min(...next) : text.indexOf('Total:', start));
    };
    for (const text of [flat, result.text.replace(/\s+/g, ' ')]) {
      expect(block(beforeItEnds, text)).toContain(`Launches ${atOffset(beforeItEnds.capacityConfiguration.launchDateTime, 1)}, before this quote's validity ends: it can be bought only until then.`);
      expect(block(beforeItEnds, text)).toContain('Once bought, canceling it costs a fee from the start:');
      const freeUntil = atOffset(new Date(launchOf(freeForAWhile) - 30 * DAY).toISOString(), 1);
      expect(block(freeForAWhile, text)).toContain(`Canceling it once bought is free until ${freeUntil}; after that it costs a fee (10 %`);
      expect(block(freeThroughout, text)).not.toContain('Note:');
    }
  });

  it('keeps hostile names whole in the text, draws them in the PDF with what its font has, and pages 20 policies', async () => {
    const name = `\u202eNorthwind\u202c __proto__ Ünïcode Łódź Северсталь Ελλάς 北风 ${'x'.repeat(420)}`;
    const result = value<QuoteResult>(await app.call('quote.create', request(ready.slice(0, 20).map((p) => p.cidrId), 'Letter', name)));
    expect(result.text).toContain(name.trim());
    // Polish, Cyrillic and Greek names read as written (the embedded font has them), Chinese too (the OS's font:
    // quote-pdf-fonts.test.ts); the direction marks are dropped, not written as "?".
    expect(result.replacedCharacters).toBe(false);
    const { text } = await pdfOf(result, 'hostile.pdf');
    expect(text).toContain('Northwind __proto__ Ünïcode Łódź Северсталь Ελλάς 北风');
    expect(text).not.toContain('\u202e');
    for (const policy of ready.slice(0, 20)) expect(text).toContain(policy.cidrId);
    // Two drawings of 20 pages of long names and 20 activity entries each written on its own (18.7 s at load 8).
  }, 90_000);

  it('refuses a policy that is not ready for purchase, and bad input, with a clear message', async () => {
    const active = value<{ rows: CapacityPolicy[] }>(await app.call('capacity.list', { status: 'ACTIVE', limit: 1 })).rows[0]!;
    const refused = await app.call('quote.create', request([active.cidrId]));
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toBe(`Policy ${active.cidrId} is active: a quote offers only policies ready for purchase.`);
    const empty = await app.call('quote.create', { ...request([ready[0]!.cidrId]), customer: { name: '  ' } });
    expect(empty.ok).toBe(false);
    if (!empty.ok) expect(empty.error.message).toContain('Enter the customer’s name');
  });
});
