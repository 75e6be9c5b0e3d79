import { readdir, readFile, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { MoneyActionName } from '../../../shared/ipc/money.js';
import { writeFileAtomic } from '../settings/json-file.js';

/**
 * The money requests whose outcome is not known, kept on disk so that a crash
 * or restart cannot make a policy look free while its purchase, cancellation
 * or termination may still have gone through. Written before each request is
 * sent and after each is settled; no secrets (environment, username, policy
 * id, action, when).
 */
export const PENDING_MONEY_FILE = 'money-pending.json';
const KEPT_MARK = '.unreadable-';
const READ_MARK = '.replaced-';

export const PendingMoney = z.object({
  profileId: z.string(),
  username: z.string(),
  cidrId: z.string(),
  action: MoneyActionName,
  /** Epoch milliseconds the request was sent. */
  since: z.number(),
});
export type PendingMoney = z.infer<typeof PendingMoney>;

const PendingMoneyDocument = z.object({ version: z.literal(1), entries: z.array(PendingMoney) });

export interface PendingMoneyLoad {
  readonly entries: PendingMoney[];
  /**
   * Set when a record could not be read and it cannot be told which policies
   * it named: every money action stays refused while this is set (the message
   * says where the record is kept and how to lift it).
   */
  readonly blocked: string | null;
}

export class PendingMoneyFile {
  readonly path: string;
  #writes: Promise<void> = Promise.resolve();

  constructor(
    dataDir: string,
    private readonly log: (line: string) => void,
  ) {
    this.path = join(dataDir, PENDING_MONEY_FILE);
  }

  /**
   * Reads what an earlier run left. A record that cannot be read never unlocks
   * anything: it is kept aside untouched, the entries still legible in it stay
   * locked, and if it cannot be told which policies it named, money actions
   * stay refused until the kept file is removed by someone who has checked.
   */
  async load(): Promise<PendingMoneyLoad> {
    const kept = await this.#keptFiles();
    let text: string | null;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') {
        // Not moved: it may be readable in a moment (a file held by another program); nothing is unlocked meanwhile.
        this.log(`the record of unconfirmed money actions could not be read (${code ?? 'read error'}); money actions are refused until it can be`);
        return { entries: [], blocked: this.#blockedMessage(this.path, `it could not be read (${code ?? 'read error'})`) };
      }
      text = null;
    }
    if (text === null) return { entries: [], blocked: kept.length > 0 ? this.#blockedMessage(kept[0] as string, 'it could not be read when found') : null };

    const document = parseJson(text);
    const whole = PendingMoneyDocument.safeParse(document);
    if (whole.success && kept.length === 0) return { entries: whole.data.entries, blocked: null };
    if (whole.success) return { entries: whole.data.entries, blocked: this.#blockedMessage(kept[0] as string, 'it could not be read when found') };

    // Unreadable: keep what can be told, set the file aside untouched.
    const listed = document !== null && typeof document === 'object' && Array.isArray((document as { entries?: unknown }).entries)
      ? ((document as { entries: unknown[] }).entries)
      : null;
    const legible = (listed ?? []).flatMap((item) => {
      const entry = PendingMoney.safeParse(item);
      return entry.success ? [entry.data] : [];
    });
    const allTold = listed !== null && legible.length === listed.length;
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    // A record whose every entry was legible is kept for reference only; one that was not keeps money actions refused.
    const keptAs = `${this.path}${allTold ? READ_MARK : KEPT_MARK}${stamp}`;
    try {
      await rename(this.path, keptAs);
      // The legible entries, written anew: they stay locked across the next restart too.
      await this.save(() => legible);
    } catch {
      this.log('the unreadable record of unconfirmed money actions could not be set aside; it is left in place and money actions are refused');
      return { entries: legible, blocked: this.#blockedMessage(this.path, 'it could not be read') };
    }
    this.log(
      `the record of unconfirmed money actions could not be read; kept as ${basename(keptAs)}; ${legible.length} legible entr${legible.length === 1 ? 'y stays' : 'ies stay'} locked` +
        (allTold ? '' : '; money actions are refused until it is checked'),
    );
    const blockedBy = allTold ? kept[0] : keptAs;
    return { entries: legible, blocked: blockedBy ? this.#blockedMessage(blockedBy, 'it could not be read') : null };
  }

  /** Records the entries now pending; writes are made one after another, each of the latest state asked for. */
  save(entries: () => PendingMoney[]): Promise<void> {
    const write = this.#writes.then(() => writeFileAtomic(this.path, `${JSON.stringify({ version: 1, entries: entries() })}\n`));
    this.#writes = write.catch(() => undefined);
    return write;
  }

  async #keptFiles(): Promise<string[]> {
    const names = await readdir(dirname(this.path)).catch(() => [] as string[]);
    return names.filter((name) => name.startsWith(`${PENDING_MONEY_FILE}${KEPT_MARK}`)).map((name) => join(dirname(this.path), name));
  }

  #blockedMessage(file: string, why: string): string {
    return (
      `Capacity Desk keeps a record of purchases, cancellations and terminations whose outcome was not confirmed, and ${why}: ${file}. ` +
      'So that nothing is sent twice, no purchase, cancellation or termination is sent until it has been checked. ' +
      'Check on the service that no earlier action is still pending, then delete that file and restart Capacity Desk.'
    );
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
