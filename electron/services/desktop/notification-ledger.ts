import { join } from 'node:path';
import { z } from 'zod';
import { dictionaryOf } from '../../../shared/records.js';
import { readJsonFile, writeFileAtomic, type UnreadableReporter } from '../settings/json-file.js';

export const LEDGER_FILE = 'notifications-sent.json';

const Ledger = z.object({
  version: z.literal(1),
  /** Alert key -> the instant it is about; kept until then so a restart does not repeat it. */
  sent: dictionaryOf(z.iso.datetime({ offset: true })),
});

/** Which policy alerts were already shown, kept across restarts. */
export class NotificationLedger {
  readonly path: string;
  #sent = new Map<string, string>();

  constructor(
    dataDir: string,
    private readonly onUnreadable?: UnreadableReporter,
  ) {
    this.path = join(dataDir, LEDGER_FILE);
  }

  async load(): Promise<void> {
    const file = await readJsonFile(this.path, Ledger, { version: 1, sent: {} }, { onUnreadable: this.onUnreadable });
    this.#sent = new Map(Object.entries(file.sent));
  }

  keys(): ReadonlySet<string> {
    return new Set(this.#sent.keys());
  }

  /** Records alerts as shown and forgets those whose moment has passed. */
  async record(alerts: ReadonlyArray<{ key: string; at: Date }>, now: Date): Promise<void> {
    for (const alert of alerts) this.#sent.set(alert.key, alert.at.toISOString());
    for (const [key, at] of this.#sent) if (new Date(at).getTime() <= now.getTime()) this.#sent.delete(key);
    await writeFileAtomic(this.path, JSON.stringify({ version: 1, sent: Object.fromEntries(this.#sent) }));
  }
}
