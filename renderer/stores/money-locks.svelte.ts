import { SvelteMap } from 'svelte/reactivity';
import type { MoneyActionName, MoneyState } from '../../shared/ipc/money.js';
import { api } from '../lib/api.js';
import { session } from './session.svelte.js';

const REQUEST_WORDS: Readonly<Record<MoneyActionName, string>> = {
  purchase: 'purchase',
  cancel: 'cancellation',
  terminate: 'DR termination',
};

/** The plain-words headline of a policy whose money action has an unknown outcome. */
export function uncertainHeadline(action: MoneyActionName): string {
  return `We could not confirm whether the ${REQUEST_WORDS[action]} went through. Nothing will be sent again until we know.`;
}

/**
 * Each policy's money-action state as the main process holds it (it alone
 * decides; this mirrors it for the buttons). Every window hears the
 * money.changed push, so a lock taken in one window disables the buttons in all.
 */
class MoneyLocks {
  /** Policy id → its last known state (Map: ids are user-controlled text). */
  readonly #states = new SvelteMap<string, MoneyState>();
  #listening = false;

  /** The policy's state for the signed-in environment; undefined until known. */
  get(cidrId: string): MoneyState | undefined {
    this.#listen();
    const state = this.#states.get(cidrId);
    return state && state.profileId === session.status?.profileId ? state : undefined;
  }

  /** Why the policy's money actions cannot be used now; null when they can. */
  blockedReason(cidrId: string): string | null {
    const state = this.get(cidrId);
    if (!state || state.state === 'free' || !state.action) return null;
    return state.state === 'in-flight'
      ? `A ${REQUEST_WORDS[state.action]} of this policy is being sent.`
      : uncertainHeadline(state.action);
  }

  /** Asks the main process where the policy stands (when a dialog opens, after a failed action). */
  async refresh(cidrId: string): Promise<MoneyState | undefined> {
    this.#listen();
    const result = await api.money.state({ cidrId });
    if (result.ok) this.#states.set(cidrId, result.value);
    return this.get(cidrId);
  }

  /** "Check status": the main process reads the policy back now and settles the outcome if it shows. */
  async check(cidrId: string): Promise<MoneyState | null> {
    this.#listen();
    const result = await api.money.check({ cidrId });
    if (!result.ok) return null;
    this.#states.set(cidrId, result.value);
    return result.value;
  }

  #listen(): void {
    if (this.#listening) return;
    this.#listening = true;
    api.on('money.changed', (state) => this.#states.set(state.cidrId, state));
  }
}

export const moneyLocks = new MoneyLocks();
