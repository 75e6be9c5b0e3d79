import { randomBytes } from 'node:crypto';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { CapacityPolicy, DrEvent } from '../../shared/api/capacity.js';
import type { ClockState } from './clock.js';
import type { StoreOverlay } from './store.js';

export const STATE_FORMAT = 'capacity-desk-sandbox/1';

/** The file holds the seed and only what changed since: small, whatever the scale. */
export const PersistedState = z.object({
  format: z.literal(STATE_FORMAT),
  savedAt: z.string(),
  seed: z.number().int(),
  scale: z.number().int().min(0),
  /** The book accounts added to the first user (sandbox option `accounts`); files written before it have none. */
  accounts: z.number().int().min(0).optional(),
  anchorMs: z.number(),
  clock: z.object({ offsetMs: z.number(), frozenAtMs: z.number().nullable() }),
  /**
   * The token-signing secret (base64url), so a restart keeps everyone signed in,
   * as a real service does. Optional: files written before it start a new one.
   */
  tokenSecret: z.string().regex(/^[A-Za-z0-9_-]{43}$/).optional(),
  overlay: z.object({
    settledThroughMs: z.number(),
    nextEventId: z.number().int(),
    capacities: z.array(CapacityPolicy),
    cyber: z.array(
      z.object({
        cidrId: z.string(),
        policyStatus: z.string(),
        disasterRecoveryEvents: z.array(DrEvent),
        terminationEventId: z.number().int().nullable(),
      }),
    ),
    accountNames: z.array(z.object({ owner: z.string(), accountId: z.string(), accountName: z.string() })).optional(),
  }),
});
export type PersistedState = z.infer<typeof PersistedState>;

export interface StateParts {
  readonly seed: number;
  readonly scale: number;
  readonly accounts: number;
  readonly anchorMs: number;
  readonly clock: ClockState;
  readonly tokenSecret: Buffer;
  readonly overlay: StoreOverlay;
}

export function serializeState(parts: StateParts, savedAt: Date): string {
  const state: PersistedState = {
    format: STATE_FORMAT,
    savedAt: savedAt.toISOString(),
    seed: parts.seed,
    scale: parts.scale,
    ...(parts.accounts > 0 ? { accounts: parts.accounts } : {}),
    anchorMs: parts.anchorMs,
    clock: { ...parts.clock },
    tokenSecret: parts.tokenSecret.toString('base64url'),
    overlay: {
      // -Infinity (nothing settled yet) is not JSON.
      settledThroughMs: Number.isFinite(parts.overlay.settledThroughMs) ? parts.overlay.settledThroughMs : 0,
      nextEventId: parts.overlay.nextEventId,
      capacities: [...parts.overlay.capacities],
      cyber: parts.overlay.cyber.map((change) => ({ ...change, disasterRecoveryEvents: [...change.disasterRecoveryEvents] })),
      accountNames: [...(parts.overlay.accountNames ?? [])],
    },
  };
  return `${JSON.stringify(state)}\n`;
}

/** A state file that exists but cannot be read back. */
export class DamagedStateError extends Error {
  override readonly name = 'DamagedStateError';
}

/** The saved state, or null when there is no file yet; DamagedStateError when it cannot be used. */
export async function loadState(file: string): Promise<PersistedState | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DamagedStateError(`sandbox state file ${file} is not JSON`);
  }
  const parsed = PersistedState.safeParse(value);
  if (!parsed.success) throw new DamagedStateError(`sandbox state file ${file} has an unknown shape: ${parsed.error.issues[0]?.message ?? ''}`);
  return parsed.data;
}

/** Temp file, fsync, rename, fsync of the folder: a crash leaves the old file or the new one, never a torn one. */
export async function writeFileAtomically(file: string, text: string): Promise<void> {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dirname(file));
}

async function syncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Some platforms (Windows) cannot open or sync a folder; the rename is still atomic there.
  } finally {
    await handle?.close();
  }
}

/**
 * Serialises writes: at most one in flight, and a request made meanwhile is
 * served by the next write, which also covers every change made before it.
 */
export class Persister {
  private writing: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => string,
  ) {}

  save(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.writing) return this.start();
    const after = this.writing.catch(() => undefined);
    this.queued = after.then(() => {
      this.queued = null;
      return this.start();
    });
    return this.queued;
  }

  private start(): Promise<void> {
    const run = writeFileAtomically(this.file, this.snapshot());
    this.writing = run;
    const clear = () => {
      if (this.writing === run) this.writing = null;
    };
    run.then(clear, clear);
    return run;
  }
}

/**
 * Loads the state; a damaged file is moved aside (kept for inspection, never
 * overwritten) and the sandbox starts from its seed, so the app still starts.
 */
export async function loadOrSetAside(file: string, log?: (line: string) => void): Promise<PersistedState | null> {
  try {
    return await loadState(file);
  } catch (error) {
    if (!(error instanceof DamagedStateError)) throw error;
    const aside = `${file}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await rename(file, aside);
    log?.(`${error.message}; moved to ${aside}, starting from the seed`);
    return null;
  }
}
