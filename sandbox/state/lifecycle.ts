import type { CapacityStatus } from '../../shared/api/capacity.js';
import { OPERATING_STATE } from '../../shared/api/contract-choices.js';

/** The operating state that goes with a status at an instant (documented in docs/sandbox.md). */
export function operatingStateFor(status: string, launchMs: number, nowMs: number): string {
  switch (status as CapacityStatus) {
    case 'READY_FOR_PURCHASE':
    case 'EXPIRED':
      return OPERATING_STATE.notStarted;
    case 'ACTIVE':
      return nowMs >= launchMs ? OPERATING_STATE.running : OPERATING_STATE.queuedForStart;
    default:
      return OPERATING_STATE.stopped;
  }
}
