import { hold, nth, resetFakeApi, settle } from './support/fake-api.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { sessionScope } from '../../renderer/lib/session-scope.js';
import { capacityIndex } from '../../renderer/stores/capacity-index.svelte.js';
import { UNREACHABLE, windowOf } from './support/fixtures.js';

let runs = 0;
beforeEach(() => {
  resetFakeApi();
  runs += 1;
  sessionScope.use(`sandbox\u0000alex-${runs}`);
});

const indexed = () => capacityIndex.entries().map((entry) => entry.cidrId).sort();

describe('the palette index', () => {
  it('indexes the pages once and not again within a minute', async () => {
    const reads = hold('capacity.list');
    const loading = capacityIndex.ensure();
    expect(capacityIndex.loading).toBe(true);
    nth(reads, 0).ok(windowOf(['sc_1', 'sc_2'], 2));
    await loading;
    expect(indexed()).toEqual(['sc_1', 'sc_2']);
    expect(capacityIndex.total).toBe(2);
    await capacityIndex.ensure();
    expect(reads).toHaveLength(1);
  });

  it("drops another user's names at once, and the index still loading for them", async () => {
    const reads = hold('capacity.list');
    const first = capacityIndex.ensure();
    nth(reads, 0).ok(windowOf(['sc_alex'], 1));
    await first;
    sessionScope.use(`sandbox\u0000jordan-${runs}`);
    expect(indexed()).toEqual([]);
    const theirs = capacityIndex.ensure();
    sessionScope.use(`sandbox\u0000alex-${runs}`);
    nth(reads, 1).ok(windowOf(['sc_jordan'], 1));
    await theirs;
    await settle();
    expect(indexed()).toEqual([]);
    expect(capacityIndex.loading).toBe(false);
  });

  it('after a failure, keeps what it has, says why, and reads again next time', async () => {
    const reads = hold('capacity.list');
    const first = capacityIndex.ensure();
    nth(reads, 0).fail(UNREACHABLE);
    await first;
    expect(capacityIndex.error).toEqual(UNREACHABLE);
    const again = capacityIndex.ensure();
    nth(reads, 1).ok(windowOf(['sc_1'], 1));
    await again;
    expect(indexed()).toEqual(['sc_1']);
    expect(capacityIndex.error).toBeNull();
  });

  it('adds what the whole local copy holds for the typed text, the newest lookup only, and nothing from the service', async () => {
    const reads = hold('capacity.list');
    const older = capacityIndex.lookUp('web tier');
    const newer = capacityIndex.lookUp('web tier 7');
    nth(reads, 1).ok(windowOf(['sc_old_7'], 1));
    nth(reads, 0).ok(windowOf(['sc_old_1', 'sc_old_7'], 2));
    await Promise.all([older, newer]);
    expect(indexed()).toEqual(['sc_old_7']);
    expect(capacityIndex.lookedUp).toBe('web tier 7');
    expect(reads[1]?.input).toMatchObject({ text: 'web tier 7' });

    // Before the copy is filled the service cannot search: its newest page says nothing about the text.
    const live = capacityIndex.lookUp('db primary');
    nth(reads, 2).ok({ ...windowOf(['sc_newest'], 1), local: false });
    await live;
    expect(indexed()).toEqual(['sc_old_7']);
  });
});
