import type { z } from 'zod';

/**
 * Small, non-secret UI preferences kept in the renderer's localStorage (list
 * filters and the like), read back through a schema so an old or hand-edited
 * value falls back to the default instead of breaking a view.
 */
export function loadPersisted<S extends z.ZodType>(key: string, schema: S): z.output<S> | null {
  try {
    const text = globalThis.localStorage?.getItem(key);
    if (!text) return null;
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function savePersisted(key: string, value: unknown): void {
  try {
    globalThis.localStorage?.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the preference simply does not survive a restart.
  }
}
