/**
 * A channel's output check warmed ahead (warm-checks.ts, issue 28, renew17): zod compiles each object schema's check
 * the first time it parses an object; warmed, the first Renewals answer of a process is checked with nothing left
 * to compile. Counted where zod compiles: `new Function` (zod/v4/core/doc.js reads the global at each compile).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CONTRACT } from '../../../shared/ipc/contract.js';
import { WORKLIST_STATES, type WorklistWindow } from '../../../shared/ipc/worklist.js';
import { checkedOutput } from '../../../electron/services/ipc/kept-answers.js';
import { warmCheck, warmOutputCheck } from '../../../electron/services/ipc/warm-checks.js';
import { syntheticPolicies } from '../../support/synthetic-policies.js';
import { compiledDuring } from '../../support/compiled-during.js';

/** A Renewals answer as the worklist gives it: 100 policies, each with its instance, region, window and pricing. */
function answer(): WorklistWindow {
  return {
    rows: syntheticPolicies(100).map((policy, at) => ({
      policy,
      customer: at % 2 ? 'Morgan Analytics' : null,
      milestone: at % 3 ? 'end' : 'launch',
      entry: at % 5 ? null : { state: 'contacted', note: 'called', snoozedUntil: null, updatedAt: '2026-11-27T08:00:00.000Z' },
    })),
    offset: 0,
    total: 100,
    customers: ['Morgan Analytics'],
    stateCounts: Object.fromEntries(WORKLIST_STATES.map((state) => [state, 20])) as WorklistWindow['stateCounts'],
    origin: { source: 'replica', fetchedAt: '2026-11-27T08:00:00.000Z' },
  };
}

describe('an output check warmed ahead', () => {
  it('the Renewals answer is checked, first in the process, with nothing left to compile', () => {
    const schema = CONTRACT['worklist.query'].output;
    const warming = compiledDuring(() => warmOutputCheck('worklist.query'));
    // What the warming compiled is what the first answer's check would have: the window, its rows, the policy's parts.
    expect(warming).toBeGreaterThanOrEqual(5);
    let checked: ReturnType<typeof checkedOutput> | undefined;
    expect(compiledDuring(() => (checked = checkedOutput(schema, answer())))).toBe(0);
    expect(checked?.success).toBe(true);
    // Warmed once: asked again, it does nothing.
    expect(compiledDuring(() => warmOutputCheck('worklist.query'))).toBe(0);
  });

  it('reaches objects inside wrappers, arrays, records, unions and tuples; a schema not warmed compiles at its first check', () => {
    const make = () =>
      z.object({
        a: z.array(z.object({ b: z.object({ c: z.string() }).nullable().optional() })),
        d: z.record(z.string(), z.object({ e: z.number() })),
        f: z.union([z.object({ g: z.literal(1) }), z.object({ h: z.literal(2) })]),
        i: z.tuple([z.object({ j: z.boolean() })]),
        k: z.object({ l: z.string() }).default({ l: 'x' }),
      });
    const value = { a: [{ b: { c: 'x' } }], d: { one: { e: 1 } }, f: { h: 2 }, i: [{ j: true }], k: { l: 'y' } };
    const cold = make();
    expect(compiledDuring(() => expect(cold.safeParse(value).success).toBe(true))).toBeGreaterThan(0);
    const warm = make();
    warmCheck(warm);
    expect(compiledDuring(() => expect(warm.safeParse(value).success).toBe(true))).toBe(0);
  });
});
