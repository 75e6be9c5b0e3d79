import { describe, expect, it } from 'vitest';
import { Resource } from '../../renderer/lib/resource.svelte.js';
import type { AppError, Result } from '../../shared/ipc/result.js';
import { FROM_COPY, SERVICE_NOW, UNREACHABLE, overviewOf } from './support/fixtures.js';
import type { SourcedOverview } from '../../shared/ipc/sourced.js';

/** A read the test answers when it chooses. */
function deferred<T>(): { read: () => Promise<Result<T>>; ok: (value: T) => void; fail: (error: AppError) => void } {
  let resolve: (result: Result<T>) => void = () => undefined;
  const promise = new Promise<Result<T>>((r) => (resolve = r));
  return { read: () => promise, ok: (value) => resolve({ ok: true, value }), fail: (error) => resolve({ ok: false, error }) };
}

describe('Resource', () => {
  it('is loading while a read is under way, then holds the answer with its source and age', async () => {
    const figures = new Resource<SourcedOverview>();
    const read = deferred<SourcedOverview>();
    const loading = figures.load(read.read);
    expect(figures.loading).toBe(true);
    expect(figures.value).toBeNull();
    read.ok(overviewOf(3, FROM_COPY));
    await loading;
    expect(figures.loading).toBe(false);
    expect(figures.value?.totalPolicies).toBe(3);
    expect(figures.source).toBe('replica');
    expect(figures.origin).toEqual(FROM_COPY);
    expect(figures.ageAt(new Date('2026-11-22T04:00:00.000Z'))).toBe(3_600_000);
    expect(figures.loadedAt).not.toBeNull();
  });

  it('keeps the last answer on a failure and clears the failure with the next answer', async () => {
    const figures = new Resource<SourcedOverview>();
    await figures.load(() => Promise.resolve({ ok: true, value: overviewOf(1) }));
    await figures.load(() => Promise.resolve({ ok: false, error: UNREACHABLE }));
    expect(figures.error).toEqual(UNREACHABLE);
    expect(figures.value?.totalPolicies).toBe(1);
    expect(figures.loading).toBe(false);
    await figures.load(() => Promise.resolve({ ok: true, value: overviewOf(2) }));
    expect(figures.error).toBeNull();
    expect(figures.value?.totalPolicies).toBe(2);
  });

  it('drops an older answer that arrives after a newer one', async () => {
    const figures = new Resource<SourcedOverview>();
    const older = deferred<SourcedOverview>();
    const newer = deferred<SourcedOverview>();
    const first = figures.load(older.read);
    const second = figures.load(newer.read);
    newer.ok(overviewOf(2, SERVICE_NOW));
    await second;
    older.ok(overviewOf(1, FROM_COPY));
    expect(await first).toBeNull();
    expect(figures.value?.totalPolicies).toBe(2);
    expect(figures.source).toBe('service');
  });

  it('stays loading while a newer read is still out, even if an older one failed meanwhile', async () => {
    const figures = new Resource<SourcedOverview>();
    const older = deferred<SourcedOverview>();
    const newer = deferred<SourcedOverview>();
    const first = figures.load(older.read);
    void figures.load(newer.read);
    older.fail(UNREACHABLE);
    await first;
    expect(figures.loading).toBe(true);
    expect(figures.error).toBeNull();
  });

  it('after a reset, forgets the answer and drops the read that was under way', async () => {
    const figures = new Resource<SourcedOverview>();
    await figures.load(() => Promise.resolve({ ok: true, value: overviewOf(1) }));
    const late = deferred<SourcedOverview>();
    const pending = figures.load(late.read);
    figures.reset();
    expect(figures.value).toBeNull();
    expect(figures.loading).toBe(false);
    expect(figures.origin).toBeNull();
    late.ok(overviewOf(9));
    expect(await pending).toBeNull();
    expect(figures.value).toBeNull();
  });

  it('has no origin for answers that carry none', async () => {
    const names = new Resource<string[]>();
    await names.load(() => Promise.resolve({ ok: true, value: ['a'] }));
    expect(names.origin).toBeNull();
    expect(names.ageAt(new Date())).toBeNull();
  });
});
