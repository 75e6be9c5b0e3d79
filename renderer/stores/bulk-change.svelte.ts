import type { RenewalFrequency } from '../../shared/api/capacity.js';
import type { CapacityRow } from '../../shared/api/readers.js';
import type { AppError, Result } from '../../shared/ipc/result.js';
import { SvelteMap } from 'svelte/reactivity';
import { api } from '../lib/api.js';
import { estimateCancellationFee, type FeeEstimate } from '../lib/cancel-fee-estimate.js';
import { agreement } from './agreement.svelte.js';
import type { FeeSchedule } from '../../shared/money/fee-schedule.js';
import { cancelOutlook } from '../../shared/money/cancel-outlook.js';
import { capacityActions } from './capacity-policy.svelte.js';

/** What a bulk action does to each policy. */
export type BulkChange =
  | { readonly kind: 'autoRenewal'; readonly enabled: true; readonly frequency: RenewalFrequency }
  | { readonly kind: 'autoRenewal'; readonly enabled: false }
  | { readonly kind: 'cancel' };

/** A selected policy with its customer, as a list hands it to a bulk action. */
export interface BulkRow {
  readonly policy: CapacityRow;
  readonly customer: string | null;
}

/** One policy of a bulk action, as the review shows it before the confirmation. */
export interface BulkItem {
  readonly policy: CapacityRow;
  readonly customer: string | null;
  /** Why it is left out (e.g. a cancel of a policy that is not active); null when it is sent. */
  readonly skipped: string | null;
  /** A cancel's estimated fee; null when it cannot be estimated. */
  readonly estimate: FeeEstimate | null;
  /** For a cancel: what leaving the policy alone means instead; null when its savings or window are not known. */
  readonly ifKept: IfKept | null;
}

/**
 * A cancel's alternative, in money (the cancel / keep / let-expire comparison of one policy, for each row of a
 * bulk cancel): the savings still to come that the cancel gives up, and how the window ends if left alone.
 */
export interface IfKept {
  readonly savingsToCome: number;
  readonly endMs: number;
  /** Auto-renewal is on: it renews at its end unless that is turned off (which costs no fee). */
  readonly renews: boolean;
}

/**
 * Where one policy's change stands. `unknown`: no clear answer, and a read-back
 * could not tell; nothing more is sent for it from here (a money action stays
 * locked until its status is checked on the policy).
 */
export type RowOutcome =
  | { readonly status: 'waiting' }
  | { readonly status: 'sending' }
  | { readonly status: 'done'; readonly message: string; readonly fee?: number | null }
  | { readonly status: 'failed'; readonly error: AppError }
  | { readonly status: 'unknown'; readonly error: AppError };

/** Requests in flight at once: a bulk action never floods the service. */
export const BULK_CONCURRENCY = 4;

/**
 * One bulk action over the selected policies: reviewed in full (every policy
 * and what will change, with the estimated fees of a cancel and their total)
 * before one confirmation; then each change is sent once through the same
 * channels as a single change (audited; cancels through the money lock), its
 * outcome kept per row; failed rows alone can be sent again.
 */
export class BulkChangeRun {
  readonly change: BulkChange;
  readonly items: readonly BulkItem[];
  /** Per policy id; reactive, so each row's outcome shows as it comes. */
  readonly outcomes = new SvelteMap<string, RowOutcome>();
  running = $state(false);
  /** True once the confirmation was given: the review becomes the outcome. */
  started = $state(false);

  /** `schedule`: the environment's cancellation-fee schedule (its agreement terms); unknown estimates nothing. */
  constructor(
    change: BulkChange,
    rows: readonly BulkRow[],
    nowMs: number = Date.now(),
    schedule: FeeSchedule = agreement.terms.cancellation,
  ) {
    this.change = change;
    this.items = rows.map(({ policy, customer }) => {
      const config = policy.capacityConfiguration;
      const active = policy.policyStatus === 'ACTIVE';
      return {
        policy,
        customer,
        skipped: active ? null : `Not active (${policy.policyStatus ?? 'status not known'}): only an active policy's ${change.kind === 'cancel' ? 'cancellation' : 'renewal'} can change.`,
        estimate:
          change.kind === 'cancel' && active
            ? estimateCancellationFee(
                { ourPrice: policy.pricing?.ourPrice, launchDateTime: config?.launchDateTime, endDateTime: config?.endDateTime },
                schedule,
                nowMs,
              )
            : null,
        ifKept: change.kind === 'cancel' && active ? ifKeptOf(policy, nowMs) : null,
      };
    });
    for (const item of this.sent) this.outcomes.set(item.policy.cidrId, { status: 'waiting' });
  }

  /** The policies the action is sent for. */
  get sent(): BulkItem[] {
    return this.items.filter((item) => item.skipped === null);
  }

  /** The sum of the estimated fees; null when any fee cannot be estimated. */
  get estimatedTotal(): number | null {
    let total = 0;
    for (const item of this.sent) {
      if (!item.estimate) return null;
      total += item.estimate.fee;
    }
    return Math.round(total * 100) / 100;
  }

  /** The savings still to come that the cancel gives up, summed; null when any policy's cannot be told. */
  get savingsGivenUp(): number | null {
    let total = 0;
    for (const item of this.sent) {
      if (!item.ifKept) return null;
      total += item.ifKept.savingsToCome;
    }
    return Math.round(total * 100) / 100;
  }

  outcomeOf(cidrId: string): RowOutcome | null {
    return this.outcomes.get(cidrId) ?? null;
  }

  count(status: RowOutcome['status']): number {
    return [...this.outcomes.values()].filter((outcome) => outcome.status === status).length;
  }

  /** Sends the change for every policy still waiting (after the confirmation). */
  confirm(): Promise<void> {
    return this.#send('waiting');
  }

  /** Sends it again for the failed policies only (never for done or unknown ones). */
  retryFailed(): Promise<void> {
    return this.#send('failed');
  }

  async #send(from: 'waiting' | 'failed'): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.started = true;
    const queue = this.sent.map((item) => item.policy).filter((policy) => this.outcomeOf(policy.cidrId)?.status === from);
    for (const policy of queue) this.outcomes.set(policy.cidrId, { status: 'waiting' });
    const worker = async () => {
      for (let policy = queue.shift(); policy; policy = queue.shift()) {
        this.outcomes.set(policy.cidrId, { status: 'sending' });
        this.outcomes.set(policy.cidrId, await this.#sendOne(policy.cidrId));
      }
    };
    try {
      await Promise.all(Array.from({ length: BULK_CONCURRENCY }, worker));
    } finally {
      this.running = false;
    }
  }

  async #sendOne(cidrId: string): Promise<RowOutcome> {
    const change = this.change;
    if (change.kind === 'cancel') {
      const result = await capacityActions.cancel(cidrId);
      if (result.ok) return { status: 'done', message: result.value.message, fee: result.value.fee };
      // The money lock read it back and still cannot tell: nothing more is sent until it is settled.
      return unsure(result.error) || result.error.kind === 'unsettled' || result.error.kind === 'conflict'
        ? { status: 'unknown', error: result.error }
        : { status: 'failed', error: result.error };
    }
    const body = change.enabled
      ? { cidrId, autoRenewalEnabled: true, frequency: change.frequency }
      : { cidrId, autoRenewalEnabled: false, frequency: null };
    const result = await capacityActions.setAutoRenewal(body);
    if (result.ok) return { status: 'done', message: result.value.message };
    if (!unsure(result.error)) return { status: 'failed', error: result.error };
    return this.#readBack(cidrId, result.error);
  }

  /** No answer to a renewal change: the policy is read back, and shows whether the change is there. */
  async #readBack(cidrId: string, error: AppError): Promise<RowOutcome> {
    const change = this.change;
    if (change.kind !== 'autoRenewal') return { status: 'unknown', error };
    const read: Result<{ configuration?: { autoRenewalEnabled?: boolean | undefined; frequency?: string | null | undefined } | undefined }> =
      await api.capacity.describe({ cidrId });
    const config = read.ok ? read.value.configuration : undefined;
    if (!read.ok || config?.autoRenewalEnabled === undefined) return { status: 'unknown', error };
    const applied = change.enabled ? config.autoRenewalEnabled && config.frequency === change.frequency : !config.autoRenewalEnabled;
    return applied ? { status: 'done', message: 'No answer came, but reading the policy back shows the change.' } : { status: 'failed', error };
  }
}

/** The request may or may not have reached the service. */
function unsure(error: AppError): boolean {
  return error.kind === 'offline' || error.kind === 'timeout';
}

function ifKeptOf(policy: CapacityRow, nowMs: number): IfKept | null {
  const config = policy.capacityConfiguration;
  const launchMs = Date.parse(config?.launchDateTime ?? '');
  const endMs = Date.parse(config?.endDateTime ?? '');
  const savings = policy.pricing?.savings;
  const ourPrice = policy.pricing?.ourPrice;
  if (savings === undefined || ourPrice === undefined || !Number.isFinite(savings) || Number.isNaN(launchMs) || Number.isNaN(endMs)) return null;
  // The fee schedule plays no part in what keeping means: only the savings' share still to run.
  const { savingsToCome } = cancelOutlook({ ourPrice, savings, launchMs, endMs }, { kind: 'unknown' }, nowMs);
  return { savingsToCome, endMs, renews: config?.autoRenewalEnabled === true };
}
