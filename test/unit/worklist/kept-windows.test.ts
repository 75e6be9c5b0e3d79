import { expect, it } from 'vitest';
import { KeptWindows, type WindowSources } from '../../../electron/services/worklist/kept-windows.js';
import type { WorklistWindow } from '../../../shared/ipc/worklist.js';

const sourcesOf = (copy: object): WindowSources => ({ copy, version: '1', fetchedAt: '2026-11-27T00:00:00.000Z', entries: {}, customerOf: {}, today: '2026-11-27' });
const window = { rows: [], total: 0 } as unknown as WorklistWindow;

it("drops every answer of another copy at the first ask of a new one (a signed-out owner's answers leave memory)", () => {
  const kept = new KeptWindows();
  const first = sourcesOf({});
  kept.keep('all', first, 0, 1_000, window);
  kept.keep('mine', first, 0, 1_000, window);
  expect(kept.find('all', first, 10)).toBe(window);

  // Another owner signs in: their copy is another object.
  expect(kept.find('all', sourcesOf({}), 10)).toBeNull();
  // The first owner's other answer is gone too, though its sources still match.
  expect(kept.find('mine', first, 10)).toBeNull();
});
