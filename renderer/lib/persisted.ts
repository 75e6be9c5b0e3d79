import type { z } from 'zod';
import { dictionary } from '../../shared/records.js';
import { api } from './api.js';

/**
 * Small, non-secret view state (list filters and the like), kept by the main
 * process (shared/ipc/ui-state.ts) so it survives a restart of either host:
 * the browser host serves each run from a new origin, whose localStorage
 * starts empty. Read once at start; each value is read back through its
 * view's schema, so an old or hand-edited value falls back to the default
 * instead of breaking a view.
 */
let state: Record<string, unknown> = dictionary();

/** Called once before the app mounts. Without an answer, views start from their defaults. */
/** `asked`: the read already made (main.ts makes it before the app's code is evaluated). */
export async function loadViewState(asked: ReturnType<typeof api.views.state> = api.views.state()): Promise<void> {
  const result = await asked;
  if (result.ok) state = dictionary(Object.entries(result.value));
}

/** `schema` is asked for only when a value is kept under `key` (the schemas are made at their first use: first-use.ts). */
export function loadPersisted<S extends z.ZodType>(key: string, schema: () => S): z.output<S> | null {
  if (!Object.hasOwn(state, key)) return null;
  const parsed = schema().safeParse(state[key]);
  return parsed.success ? parsed.data : null;
}

export function savePersisted(key: string, value: z.core.util.JSONType): void {
  // Unchanged (a keystroke in a search box restarts the list without changing its kept state): nothing to send.
  if (Object.hasOwn(state, key) && JSON.stringify(state[key]) === JSON.stringify(value)) return;
  state[key] = value;
  // A failed write only means the state does not survive a restart; the view goes on.
  void api.views.setState({ key, value });
}
