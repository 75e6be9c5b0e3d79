import { describe, expect, it } from 'vitest';
import type { CapacityPolicy } from '../../../shared/api/capacity.js';
import type { RecordSortColumn } from '../../../shared/ipc/offline.js';
import { CapacityIndex, POLICY_VIEW } from '../../support/policy-index.js';
import { charMask } from '../../../electron/services/search/char-mask.js';
import { ORDER_STEP_ROWS, OrderSteps, RowParts, SortedRowIndex } from '../../../electron/services/search/sorted-row-index.js';
import { syntheticPolicies } from '../../support/synthetic-policies.js';
import { accountKey } from '../../../shared/customers/matching.js';

/**
 * A property test's time limit. How long it takes is not what it checks (its answers are): 1-2 s alone, but past
 * the unit default of 5 s in a full run at load 20 beside the other lanes, where two of them timed out.
 */
const PROPERTY_MS = 60_000;


function policy(i: number, over: { status?: string; name?: string; price?: number; zone?: string } = {}): CapacityPolicy {
  return {
    cidrId: `sc_${1000 + i}`,
    policyName: over.name ?? `Policy ${i}`,
    cspAccountName: i % 2 ? 'morgan-prod' : 'morgan-analytics',
    policyStatus: over.status ?? (i % 3 ? 'ACTIVE' : 'EXPIRED'),
    policyOperatingState: 'QUEUED_FOR_START',
    policyInstance: { id: i, instanceType: i % 2 ? 'm5.large' : 'p3.2xlarge', platformCode: 'Linux/UNIX', tenancyCode: 'DEDICATED', vcpu: 2, memory: 8, gpu: 0, gpuMemory: 0, qty: i % 7 },
    cspRegion: { regionCode: 'us-east-1', regionType: 'PRIMARY', availabilityZoneId: over.zone ?? 'use1-az1' },
    createdDate: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    capacityConfiguration: {
      launchDateTime: '2026-12-01T00:00:00+00:00',
      endDateTime: '2027-01-01T00:00:00+00:00',
      autoRenewalEnabled: i % 2 === 0,
      frequency: i % 2 === 0 ? 'ONE_WEEK' : null,
      vpc: 'default',
      securityGroups: 'none',
      amiImage: 'default',
      sshPairKey: 'none',
      ebsVolumeSize: 10,
    },
    pricing: { ourPrice: over.price ?? i, cspProviderPrice: 2 * i, savings: i, savingsPercentage: 0.5, creditCardProcessingFee: null, bankAccountProcessingFee: null },
  };
}

const base = { text: '', sortBy: 'createdDate' as const, sortOrder: 'desc' as const, offset: 0, limit: 10, status: undefined };

describe('CapacityIndex', () => {
  const rows = Array.from({ length: 100 }, (_, i) => policy(i));
  const index = new CapacityIndex(rows);

  it('returns one window of the sorted list and the full count', () => {
    const page = index.query(base);
    expect(page.total).toBe(100);
    expect(page.rows.map((r) => r.cidrId)).toEqual(rows.slice(-10).reverse().map((r) => r.cidrId));
    const second = index.query({ ...base, offset: 95, limit: 10 });
    expect(second.rows).toHaveLength(5);
  });

  it('filters by status and free text over id, name, instance type, zone and account', () => {
    const expired = index.query({ ...base, status: 'EXPIRED', limit: 500 });
    expect(expired.total).toBe(rows.filter((r) => r.policyStatus === 'EXPIRED').length);
    expect(expired.rows.every((r) => r.policyStatus === 'EXPIRED')).toBe(true);
    expect(index.query({ ...base, text: 'SC_1042' }).rows.map((r) => r.cidrId)).toEqual(['sc_1042']);
    expect(index.query({ ...base, text: 'p3.2x', limit: 500 }).total).toBe(50);
    expect(index.query({ ...base, text: 'ANALYTICS', limit: 500 }).total).toBe(50);
    expect(index.query({ ...base, text: 'nothing like this' }).total).toBe(0);
  });

  it('sorts by any column in both directions, numbers as numbers', () => {
    const idx = new CapacityIndex([policy(1, { price: 9 }), policy(2, { price: 100 }), policy(3, { price: 10 })]);
    expect(idx.query({ ...base, sortBy: 'ourPrice', sortOrder: 'asc' }).rows.map((r) => r.pricing.ourPrice)).toEqual([9, 10, 100]);
    expect(idx.query({ ...base, sortBy: 'ourPrice', sortOrder: 'desc' }).rows.map((r) => r.pricing.ourPrice)).toEqual([100, 10, 9]);
    const names = new CapacityIndex([policy(1, { name: 'beta' }), policy(2, { name: 'Alpha' }), policy(3, { name: 'gamma' })]);
    expect(names.query({ ...base, sortBy: 'policyName', sortOrder: 'asc' }).rows.map((r) => r.policyName)).toEqual(['Alpha', 'beta', 'gamma']);
  });
});

/** The index, after whatever it was asked before, answers `query` as an index fresh over `rows` does: the same total and rows. */
function expectAsFresh(index: CapacityIndex, rows: readonly CapacityPolicy[], query: Parameters<CapacityIndex['query']>[0]): void {
  const expected = new CapacityIndex(rows).query(query);
  const actual = index.query(query);
  expect(actual.total).toBe(expected.total);
  expect(actual.rows.map((r) => r.cidrId)).toEqual(expected.rows.map((r) => r.cidrId));
}

describe('CapacityIndex, query after query', () => {
  it('answers exactly as a fresh index would, however the user types, filters, sorts and scrolls', async () => {
    const fc = (await import('fast-check')).default;
    const rows = syntheticPolicies(600);
    const step = fc.record({
      // A wide needle whose answer stops at its window, then a narrower one under a quarter of the rows (m5.2 then
      // m5.2x, use1 then use1-az2, p3 then p3.2) that reads the wider one's matches: they must be listed whole.
      text: fc.constantFrom('', 'm', 'm5', 'm5.', 'm5.2', 'm5.2x', 'sc_1', 'sc_10', 'sc_100', 'morgan', 'use1', 'use1-az2', 'p3', 'p3.2', 'zzz'),
      status: fc.constantFrom(undefined, 'ACTIVE', 'EXPIRED'),
      sortBy: fc.constantFrom('createdDate' as const, 'ourPrice' as const, 'policyName' as const),
      sortOrder: fc.constantFrom('asc' as const, 'desc' as const),
      offset: fc.integer({ min: 0, max: 400 }),
      match: fc.constantFrom(
        undefined,
        { instanceType: 'm5.large', platform: 'Linux/UNIX', availabilityZone: rows[1]!.cspRegion.availabilityZoneId },
        { instanceType: 'p3.2xlarge', platform: 'Windows Server', availabilityZone: rows[4]!.cspRegion.availabilityZoneId },
      ),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
        const index = new CapacityIndex(rows);
        for (const s of steps) {
          const query = { ...s, limit: 50 };
          expectAsFresh(index, rows, query);
        }
      }),
      { numRuns: 60 },
    );
  }, PROPERTY_MS);
});

describe('CapacityIndex, typed a letter at a time', () => {
  it('answers each prefix exactly as a fresh index would, also when a wide search stopped at its window and a narrower one reads its matches', async () => {
    const fc = (await import('fast-check')).default;
    const rows = syntheticPolicies(600);
    fc.assert(
      fc.property(
        // Wide at first (over a quarter of the rows: scanned, or one letter by its mask), then under a quarter (tested row by
        // row from the last matches; w of usw2 is under a quarter at once).
        // Words typed in turn on one index, each from an empty box: what one word's search left must not leak into the next.
        fc.array(fc.constantFrom('m5.2xlarge', 'use1-az2', 'usw2-az1', 'p3.2xlarge', 'sc_1005', 'morgan-prod', 'r6g.x'), { minLength: 1, maxLength: 3 }),
        fc.constantFrom('createdDate' as const, 'ourPrice' as const, 'policyName' as const),
        fc.constantFrom('asc' as const, 'desc' as const),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 1, max: 60 }),
        (words, sortBy, sortOrder, offset, limit) => {
          const index = new CapacityIndex(rows);
          for (const [word, end] of words.flatMap((typed) => Array.from({ length: typed.length + 1 }, (_, at) => [typed, at] as const))) {
            const query = { ...base, text: word.slice(0, end), sortBy, sortOrder, offset, limit };
            expectAsFresh(index, rows, query);
          }
        },
      ),
      { numRuns: 80 },
    );
  }, PROPERTY_MS);
});

/** Account keys a customer filter lists: one the synthetic rows hold, and ones only a change brings (hostile names too). */
const ACCOUNT_KEYS = [accountKey(syntheticPolicies(1)[0]?.cspAccountName ?? ''), 'fresh-account', '__proto__', 'constructor', accountKey('e\u0301cole')];

/** Filters as CustomerHandlers keeps them: one array per customer, asked again keystroke after keystroke. */
const KEPT_KEYS = Object.freeze(ACCOUNT_KEYS.slice(0, 3));
const KEPT_FILTERS = [
  { keys: KEPT_KEYS, inside: true },
  { keys: KEPT_KEYS, inside: false },
  { keys: Object.freeze([ACCOUNT_KEYS[0] as string]), inside: false },
];

describe('SortedRowIndex, by customer', () => {
  it('counts a row written through under an account the filter lists that no row held when the filter was first asked', () => {
    const rows = syntheticPolicies(20);
    const index = new SortedRowIndex([...rows], POLICY_VIEW);
    const theirs = { ...base, limit: 50, accounts: { keys: ['fresh-account'], inside: true } };
    const nobodys = { ...base, limit: 50, accounts: { keys: ['fresh-account'], inside: false } };
    expect(index.query(nobodys).total).toBe(20);
    expect(index.query(theirs).total).toBe(0);
    // The same filter asked again after the write (each keystroke asks it): the new row is theirs.
    index.append({ ...(rows[0] as CapacityPolicy), cidrId: 'sc_new', cspAccountName: 'Fresh-Account ' });
    expect(index.query(theirs).rows.map((row) => row.cidrId)).toEqual(['sc_new']);
    expect(index.query(nobodys).total).toBe(20);
  });

  it('moves a row written through into or out of a kept filter at once, in every order', () => {
    const rows = syntheticPolicies(60);
    const index = new SortedRowIndex([...rows], POLICY_VIEW);
    const keys = Object.freeze([accountKey(rows[0]?.cspAccountName ?? '')]);
    for (const sortOrder of ['asc', 'desc'] as const) {
      for (const inside of [true, false]) {
        const query = { ...base, sortBy: 'createdDate' as const, sortOrder, limit: 100, accounts: { keys, inside } };
        const before = index.query(query).total;
        const at = rows.findIndex((row) => keys.includes(accountKey(row.cspAccountName ?? '')));
        const moved = { ...(rows[at] as CapacityPolicy), cspAccountName: 'elsewhere' };
        index.replace(at, moved);
        rows[at] = moved;
        const after = index.query(query);
        expect(after.total).toBe(before + (inside ? -1 : 1));
        expect(after.rows.map((row) => row.cidrId)).toEqual(new SortedRowIndex([...rows], POLICY_VIEW).query(query).rows.map((row) => row.cidrId));
      }
    }
  });

  it('answers as a fresh index would when the same keys array is asked inside and outside in turn while typing', () => {
    const rows = syntheticPolicies(400);
    const index = new SortedRowIndex([...rows], POLICY_VIEW);
    // One array, as the main process keeps it per book: known by itself, whatever the filter's side.
    const keys = Object.freeze([...new Set(rows.slice(0, 60).map((row) => accountKey(row.cspAccountName ?? '')))]);
    for (const text of ['', 's', 'sc', 'sc_', 'sc_1', 'sc_10', 'sc_1', 'r', 're']) {
      for (const inside of [true, false, true, false]) {
        const query = { ...base, text, limit: 30, accounts: { keys, inside } };
        const fresh = new SortedRowIndex([...rows], POLICY_VIEW).query({ ...query, accounts: { keys: [...keys], inside } });
        const actual = index.query(query);
        expect(actual.total).toBe(fresh.total);
        expect(actual.rows.map((row) => row.cidrId)).toEqual(fresh.rows.map((row) => row.cidrId));
      }
    }
  });
});

describe('SortedRowIndex, written through', () => {
  it('after any mix of changed and new rows, answers exactly as an index built afresh over the same rows', async () => {
    const fc = (await import('fast-check')).default;
    const start = syntheticPolicies(300);
    const query = fc.record({
      text: fc.constantFrom('', 'm', 'm5', 'sc_1', 'renamed', 'morgan', 'zzz'),
      status: fc.constantFrom(undefined, 'ACTIVE', 'EXPIRED'),
      sortBy: fc.constantFrom<RecordSortColumn>('createdDate', 'ourPrice', 'policyName', 'end', 'qty', 'cidrId'),
      sortOrder: fc.constantFrom('asc' as const, 'desc' as const),
      offset: fc.integer({ min: 0, max: 280 }),
      // A customer's accounts (or every assigned one, inside false), some held by no row until a change brings them:
      // made afresh, or one of the filters the main process keeps (the same array asked again, over other orders).
      accounts: fc.option(fc.oneof(fc.record({ keys: fc.subarray([...ACCOUNT_KEYS]), inside: fc.boolean() }), fc.constantFrom(...KEPT_FILTERS)), {
        nil: undefined,
      }),
    });
    const change = fc.record({
      at: fc.integer({ min: 0, max: 400 }),
      price: fc.integer({ min: 0, max: 5000 }),
      name: fc.constantFrom('renamed a', 'Renamed b', 'zz last', 'aa first'),
      end: fc.constantFrom('2026-02-01T00:00:00+00:00', '2031-01-01T00:00:00+00:00', 'not a date'),
      status: fc.constantFrom('ACTIVE', 'EXPIRED', 'CANCELLED'),
      account: fc.constantFrom(undefined, 'Fresh-Account ', '__proto__', 'constructor', 'e\u0301cole'),
    });
    const step = fc.oneof(query.map((q) => ({ query: q })), change.map((c) => ({ change: c })));
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 16 }), (steps) => {
        const rows = [...start];
        const index = new SortedRowIndex(rows, POLICY_VIEW);
        for (const s of steps) {
          if ('change' in s) {
            const { at, price, name, end, status, account } = s.change;
            const base = (rows[at] ?? start[at % start.length]) as CapacityPolicy;
            const changed: CapacityPolicy = {
              ...base,
              ...(account === undefined ? {} : { cspAccountName: account }),
              cidrId: at < rows.length ? base.cidrId : `sc_new_${rows.length}`,
              policyName: name,
              policyStatus: status,
              pricing: { ...base.pricing, ourPrice: price },
              capacityConfiguration: { ...base.capacityConfiguration, endDateTime: end },
            };
            if (at < rows.length) index.replace(at, changed);
            else index.append(changed);
            continue;
          }
          const q = { ...s.query, limit: 40 };
          const expected = new SortedRowIndex([...rows], POLICY_VIEW).query(q);
          const actual = index.query(q);
          expect(actual.total).toBe(expected.total);
          if (q.accounts && !q.text && !q.status) {
            const listed = new Set(q.accounts.keys);
            expect(actual.total).toBe(rows.filter((row) => listed.has(accountKey(row.cspAccountName)) === q.accounts?.inside).length);
          }
          expect(actual.rows.map((r) => r.cidrId)).toEqual(expected.rows.map((r) => r.cidrId));
        }
      }),
      { numRuns: 80 },
    );
  }, PROPERTY_MS);
});

describe('charMask', () => {
  it('never rules out a row that contains the needle', async () => {
    const fc = (await import('fast-check')).default;
    fc.assert(
      fc.property(fc.string(), fc.string({ maxLength: 4 }), fc.string(), (before, needle, after) => {
        const text = `${before}${needle}${after}`.toLowerCase();
        const lower = needle.toLowerCase();
        expect((charMask(text) & charMask(lower)) >>> 0).toBe(charMask(lower));
      }),
    );
  });

  it('tells letters apart, so a one-letter search needs no string search', () => {
    expect(charMask('abc') & charMask('d')).toBe(0);
    expect(charMask('m5.large') & charMask('x')).toBe(0);
  });
});

describe('SortedRowIndex, matched to a searched offering', () => {
  it('keeps only the policies of that instance type, platform and zone', () => {
    const rows = syntheticPolicies(240);
    const wanted = { instanceType: rows[7]!.policyInstance.instanceType, platform: rows[7]!.policyInstance.platformCode, availabilityZone: rows[7]!.cspRegion.availabilityZoneId };
    const answer = new CapacityIndex(rows).query({ ...base, limit: 500, match: wanted });
    const expected = rows.filter(
      (p) => p.policyInstance.instanceType === wanted.instanceType && p.policyInstance.platformCode === wanted.platform && p.cspRegion.availabilityZoneId === wanted.availabilityZone,
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(answer.total).toBe(expected.length);
    expect(new Set(answer.rows.map((r) => r.cidrId))).toEqual(new Set(expected.map((p) => p.cidrId)));
  });
});

describe('SortedRowIndex, against a plain filter and sort', () => {
  it('finds what includes() finds, hostile names and all, whether it scans the whole text or tests row by row', async () => {
    const fc = (await import('fast-check')).default;
    const names = ['__proto__', 'constructor', 'a\u0000sc_1', 'sc_1\u0000', 'ＳＣ wide', 'Policy sc_10', 'm5 m5.2xlarge'];
    const rows = syntheticPolicies(400).map((p, i) => (i % 9 === 0 ? { ...p, policyName: names[i % names.length] as string } : p));
    const index = new SortedRowIndex([...rows], POLICY_VIEW);
    const plain = (text: string, sortBy: RecordSortColumn, sortOrder: 'asc' | 'desc') => {
      const needle = text.trim().toLowerCase();
      const key = POLICY_VIEW.sortKeys[sortBy];
      const found = rows.map((row, i) => ({ row, i })).filter(({ row }) => POLICY_VIEW.searchText(row).toLowerCase().includes(needle));
      found.sort((a, b) => {
        const ka = key(a.row);
        const kb = key(b.row);
        return ka < kb ? -1 : ka > kb ? 1 : a.i - b.i;
      });
      if (sortOrder === 'desc') found.reverse();
      return found.map(({ row }) => row.cidrId);
    };
    fc.assert(
      fc.property(
        fc.constantFrom('', 's', 'sc', 'sc_1', 'sc_10', '1\u0000', '\u0000', 'proto', 'constructor', 'm5', 'm5.2x', 'morgan', 'ｓｃ', 'zzz'),
        fc.constantFrom<RecordSortColumn>('createdDate', 'policyName', 'ourPrice'),
        fc.constantFrom('asc' as const, 'desc' as const),
        (text, sortBy, sortOrder) => {
          const expected = plain(text, sortBy, sortOrder);
          const actual = index.query({ ...base, text, sortBy, sortOrder, limit: 500 });
          expect(actual.total).toBe(expected.length);
          expect(actual.rows.map((r) => r.cidrId)).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  }, PROPERTY_MS);
});

describe('SortedRowIndex, by the stated fee (own data, given with the query)', () => {
  it('orders the policies with a fee by it, the many without by creation, and a search or filter still applies', () => {
    const rows = syntheticPolicies(60).map((p, i) => (i === 5 ? { ...p, cidrId: '__proto__' } : p));
    const index = new CapacityIndex(rows);
    const byCreated = index.query({ ...base, limit: 500 }).rows.map((r) => r.cidrId);
    const fees: Array<[string, number]> = [
      [byCreated[30]!, 120.5],
      ['__proto__', 9000],
      [byCreated[2]!, 120.5],
      [byCreated[40]!, 0],
      ['sc_not_in_the_copy', 1],
    ];
    const desc = index.query({ ...base, limit: 500, sortBy: 'fee', sortOrder: 'desc', statedFees: fees }).rows.map((r) => r.cidrId);
    // Highest first; equal fees in creation order (newest first, as descending reverses the ascending ties).
    expect(desc.slice(0, 4)).toEqual(['__proto__', byCreated[2], byCreated[30], byCreated[40]]);
    expect(desc.slice(4)).toEqual(byCreated.filter((id) => !fees.some(([feeId]) => feeId === id)));
    const asc = index.query({ ...base, limit: 500, sortBy: 'fee', sortOrder: 'asc', statedFees: fees }).rows.map((r) => r.cidrId);
    expect(asc).toEqual([...desc].reverse());
    // A new fee (a cancel since) is a new order, not the last one kept.
    const more = index.query({ ...base, limit: 500, sortBy: 'fee', sortOrder: 'desc', statedFees: [...fees, [byCreated[59]!, 10_000]] }).rows;
    expect(more[0]?.cidrId).toBe(byCreated[59]);
    const status = rows[30]!.policyStatus as 'ACTIVE';
    const filtered = index.query({ ...base, limit: 500, sortBy: 'fee', sortOrder: 'desc', statedFees: fees, status });
    expect(filtered.rows.every((r) => r.policyStatus === status)).toBe(true);
  });
});

describe('an index built from row parts worked out ahead (RowParts, in slices by the replica)', () => {
  const query = { status: undefined, text: '', sortBy: 'createdDate', sortOrder: 'desc', offset: 0, limit: 50 } as const;
  const searches = ['', 'm5', 'p', 'morgan-prod', 'sc_1000', 'policy 1', 'zz'];
  const accounts = { inside: true, keys: [accountKey('morgan-prod')] };

  it('answers every search, sort and account filter as one built in one piece', () => {
    const rows = syntheticPolicies(500);
    const parts = new RowParts(rows, POLICY_VIEW);
    let steps = 0;
    while (parts.step()) steps += 1;
    expect(steps).toBe(rows.length - 1);
    expect(parts.complete).toBe(true);
    const ahead = new SortedRowIndex(rows, POLICY_VIEW, parts);
    const inOnePiece = new SortedRowIndex([...rows], POLICY_VIEW);
    for (const text of searches) {
      for (const sortBy of ['createdDate', 'policyName', 'ourPrice'] as const) {
        expect(ahead.query({ ...query, text, sortBy })).toEqual(inOnePiece.query({ ...query, text, sortBy }));
        expect(ahead.query({ ...query, text, sortBy, accounts })).toEqual(inOnePiece.query({ ...query, text, sortBy, accounts }));
      }
    }
  });

  it('that are not complete, or of other rows, are not used: the index reads the rows itself', () => {
    const rows = syntheticPolicies(50);
    const half = new RowParts(rows, POLICY_VIEW);
    for (let i = 0; i < 10; i += 1) half.step();
    expect(half.complete).toBe(false);
    const others = new RowParts(syntheticPolicies(50, 'other'), POLICY_VIEW);
    while (others.step());
    for (const parts of [half, others]) {
      const index = new SortedRowIndex(rows, POLICY_VIEW, parts);
      expect(index.query({ ...query, text: 'reservation 49' }).total).toBe(1);
      expect(index.query({ ...query, text: 'other' }).total).toBe(0);
    }
  });
});

describe('a sort order worked out in steps (OrderSteps, in slices by the replica)', () => {
  const query = { status: undefined, text: '', sortOrder: 'asc', offset: 0, limit: 100_000 } as const;

  it('orders as the one-piece sort does, ties by index, in pieces of at most ORDER_STEP_ROWS rows', () => {
    // Keys with many ties and runs already in order, over sizes around the run length and its powers of two.
    for (const size of [0, 1, 7, ORDER_STEP_ROWS, ORDER_STEP_ROWS + 1, 3 * ORDER_STEP_ROWS + 17, 9 * ORDER_STEP_ROWS - 5]) {
      const keys = Array.from({ length: size }, (_, i) => (i % 5 === 0 ? `k${(i * 7919) % 101}` : `k${Math.floor(i / 3) % 97}`));
      let read = 0;
      const steps = new OrderSteps(size, (index) => {
        read += 1;
        return keys[index] as string;
      });
      let count = 0;
      let readBefore = 0;
      while (steps.step()) {
        count += 1;
        expect(read - readBefore).toBeLessThanOrEqual(ORDER_STEP_ROWS);
        readBefore = read;
      }
      const expected = Array.from(keys.keys()).sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : a - b));
      expect(Array.from(steps.order)).toEqual(expected);
      // Cut into pieces: keys read, each run sorted, and each pass of the merge at least one step.
      expect(count).toBeGreaterThanOrEqual(2 * Math.ceil(size / ORDER_STEP_ROWS) - 1);
    }
  });

  it('is kept by the index once its steps end, and answers as prepare() would', () => {
    const rows = syntheticPolicies(3 * ORDER_STEP_ROWS + 11);
    const stepped = new SortedRowIndex(rows, POLICY_VIEW);
    const order = stepped.orderInSteps('policyName');
    let steps = 0;
    while (order.step()) steps += 1;
    expect(steps).toBeGreaterThan(6);
    const whole = new SortedRowIndex([...rows], POLICY_VIEW);
    whole.prepare('policyName');
    for (const sortOrder of ['asc', 'desc'] as const) {
      expect(stepped.query({ ...query, sortBy: 'policyName', sortOrder }).rows).toEqual(whole.query({ ...query, sortBy: 'policyName', sortOrder }).rows);
    }
    // Kept: a second one has nothing to do.
    expect(stepped.orderInSteps('policyName').step()).toBe(false);
  });

  it('is not kept when a row changed while it was worked out', () => {
    const rows = syntheticPolicies(2 * ORDER_STEP_ROWS);
    const index = new SortedRowIndex(rows, POLICY_VIEW);
    const order = index.orderInSteps('policyName');
    order.step();
    const renamed = { ...rows[0]!, policyName: 'zzz last of all' };
    index.replace(0, renamed);
    expect(order.step()).toBe(false);
    const page = index.query({ ...query, sortBy: 'policyName', sortOrder: 'desc', limit: 1 });
    expect(page.rows[0]?.policyName).toBe('zzz last of all');
  });
});
