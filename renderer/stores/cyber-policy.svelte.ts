import { TERMINATION_EVENT_TYPE } from '../../shared/api/contract-choices.js';
import type { CyberView } from '../../shared/api/cyber.js';
import type { SourcedCyberDetail } from '../../shared/ipc/sourced.js';
import type { CyberDetail } from '../../shared/api/readers.js';
import type { TerminateResult } from '../../shared/ipc/money-results.js';
import type { AppError } from '../../shared/ipc/result.js';
import { api } from '../lib/api.js';
import { Resource } from '../lib/resource.svelte.js';
import { moneyLocks } from './money-locks.svelte.js';

type DrEvent = CyberView['disasterRecoveryEvents'][number];

/** The termination event of a view, if one was ever triggered. */
export function terminationEventOf(view: CyberDetail): DrEvent | undefined {
  return view.disasterRecoveryEvents?.find((event) => event.type === TERMINATION_EVENT_TYPE);
}

/**
 * The words the person types to confirm a termination: the policy id exactly,
 * or its name (spaces at the ends and letter case do not matter for the name).
 */
export function confirmsTermination(typed: string, view: CyberDetail): boolean {
  const text = typed.trim();
  if (text === '') return false;
  const policyName = view.policyDetails?.policyName;
  return text === view.cidrId || (policyName !== undefined && text.toLocaleLowerCase() === policyName.trim().toLocaleLowerCase());
}

/** One disaster-recovery policy's view and its termination, for the detail screen. */
export class CyberPolicyStore {
  readonly cidrId: string;
  readonly read = new Resource<SourcedCyberDetail>();

  terminating = $state(false);
  terminateError = $state<AppError | null>(null);
  /** The last termination answer, shown until the view is left. */
  outcome = $state<TerminateResult | null>(null);

  constructor(cidrId: string) {
    this.cidrId = cidrId;
  }

  get view(): SourcedCyberDetail | null {
    return this.read.value;
  }

  get loading(): boolean {
    return this.read.loading;
  }

  get error(): AppError | null {
    return this.read.error;
  }

  async load(): Promise<void> {
    await this.read.load(() => api.cyber.view({ cidrId: this.cidrId }));
  }

  /**
   * Sends the termination once: a second call while one is in flight returns
   * at once (the button is disabled too, and the main process refuses a
   * concurrent one). Returns true when the service answered with an outcome.
   */
  async terminate(): Promise<boolean> {
    if (this.terminating) return false;
    this.terminating = true;
    this.terminateError = null;
    try {
      const result = await api.cyber.terminate({ cidrId: this.cidrId });
      if (result.ok) this.outcome = result.value;
      else {
        this.terminateError = result.error;
        // The outcome may be unknown: every button for this policy must learn it is locked.
        void moneyLocks.refresh(this.cidrId);
      }
      // Whatever happened (even a timeout whose fate is unknown), show the timeline as it is now,
      // and only then allow another attempt.
      await this.load();
      return result.ok;
    } finally {
      this.terminating = false;
    }
  }
}
