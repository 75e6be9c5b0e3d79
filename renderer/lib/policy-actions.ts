import type { CapacityStatus } from '../../shared/api/capacity.js';

/** What a capacity policy's status allows (CONTRACT.md: purchase only when ready, the rest only when active). */
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
