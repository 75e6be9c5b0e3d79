import type { CapacityStatus } from '../../shared/api/capacity.js';
import type { Result } from '../../shared/ipc/result.js';

/** What a capacity policy's status allows (docs/contract-choices.md: purchase only when ready, the rest only when active). */
export interface AllowedActions {
  readonly purchase: boolean;
  readonly configure: boolean;
  readonly autoRenewal: boolean;
  readonly cancel: boolean;
}

const READY: CapacityStatus = 'READY_FOR_PURCHASE';
const ACTIVE: CapacityStatus = 'ACTIVE';

export function allowedActions(status: string): AllowedActions {
  const active = status === ACTIVE;
  return { purchase: status === READY, configure: active, autoRenewal: active, cancel: active };
}

export function hasAnyAction(actions: AllowedActions): boolean {
  return actions.purchase || actions.configure || actions.autoRenewal || actions.cancel;
}

/**
 * The groups of the describe answer each action reads: an action whose groups
 * did not read in full is not offered (money actions never act on a guess).
 */
export const ACTION_NEEDS = {
  purchase: ['policyDetails', 'instances', 'regionSettings', 'dates', 'pricing'],
  configure: ['policyDetails', 'configuration'],
  autoRenewal: ['policyDetails', 'configuration'],
  cancel: ['policyDetails', 'dates'],
} as const satisfies Readonly<Record<keyof AllowedActions, readonly string[]>>;

export interface DetailActions {
  readonly actions: AllowedActions;
  /** Groups that some action this status allows would read, but the answer lacked. */
  readonly missing: readonly string[];
}

/** What a describe answer allows: by status, and only where the groups each action reads are there. */
export function actionsOfDetail(view: { readonly policyDetails?: { readonly policyStatus: string } | undefined } & object): DetailActions {
  const byStatus = allowedActions(view.policyDetails?.policyStatus ?? '');
  const has = (group: string) => (view as Record<string, unknown>)[group] !== undefined;
  const missing = new Set<string>();
  if (!view.policyDetails) missing.add('policyDetails');
  const allow = (action: keyof AllowedActions): boolean => {
    if (!byStatus[action]) return false;
    const lacking = ACTION_NEEDS[action].filter((group) => !has(group));
    for (const group of lacking) missing.add(group);
    return lacking.length === 0;
  };
  const actions = { purchase: allow('purchase'), configure: allow('configure'), autoRenewal: allow('autoRenewal'), cancel: allow('cancel') };
  return { actions, missing: [...missing] };
}

/**
 * After a purchase: whether the policy is no longer for sale. Bought now, or
 * the service refused it (it sells only a policy ready for purchase, so it was
 * bought or changed elsewhere) or no longer knows it. A purchase that was never
 * sent (bad input, cancelled, refused by the app) or got no clear answer says
 * nothing about the policy, which stays on offer.
 */
export function noLongerForSale(result: Result<unknown>): boolean {
  return policyMayHaveChanged(result);
}

/** After a money or settings action: whether what the policy shows may have changed, here or elsewhere. */
export function policyMayHaveChanged(result: Result<unknown>): boolean {
  return result.ok || result.error.kind === 'rejected' || result.error.kind === 'not-found';
}
