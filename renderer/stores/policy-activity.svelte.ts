import { isStatedFee } from '../../shared/money/stated-fees.js';
import type { ActivityEntry, ActivityPolicyKind } from '../../shared/own-data/activity.js';
import type { AppError } from '../../shared/ipc/result.js';
import { api } from '../lib/api.js';
import { LatestOnly } from '../lib/latest-only.js';

/**
 * One policy's activity record (what this app did to it), as the main
 * process keeps it in the local replica: readable offline too, newest first.
 */
export class PolicyActivity {
  entries = $state<ActivityEntry[]>([]);
  /** False when the record is kept in memory for this session only (no keychain). */
  persistent = $state(true);
  loaded = $state(false);
  loading = $state(false);
  error = $state<AppError | null>(null);
  #latest = new LatestOnly();
  /** The early-cancellation fee the service stated when this app canceled the policy; null when none is recorded. */
  readonly statedFee: number | null = $derived(this.entries.find(isStatedFee)?.fee ?? null);

  constructor(
    readonly policyKind: ActivityPolicyKind,
    readonly cidrId: string,
  ) {}

  /** Reads the record again; an answer overtaken by a later load is dropped. */
  async load(): Promise<void> {
    const ticket = this.#latest.begin();
    this.loading = true;
    const result = await api.activity.list({ policyKind: this.policyKind, policyId: this.cidrId });
    if (!ticket.current()) return;
    this.loading = false;
    if (result.ok) {
      this.entries = result.value.entries;
      this.persistent = result.value.persistent;
      this.loaded = true;
      this.error = null;
    } else {
      this.error = result.error;
    }
  }
}
