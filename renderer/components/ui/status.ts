import type { CAPACITY_STATUSES, CYBER_STATUSES, OFFERING_STATUSES, OPERATING_STATE } from '../../../shared/api/contract-choices.js';

export type Tone = 'success' | 'info' | 'warning' | 'danger' | 'neutral' | 'progress';

interface StatusLook {
  readonly label: string;
  readonly tone: Tone;
}

type PolicyStatus = (typeof CAPACITY_STATUSES)[number] | (typeof CYBER_STATUSES)[number];
type OfferingStatus = (typeof OFFERING_STATUSES)[number];
type OperatingState = (typeof OPERATING_STATE)[keyof typeof OPERATING_STATE];

// Typed by the contract's own lists: a status added there fails type-checking here until it has a look.
const POLICY_LOOKS: Readonly<Record<PolicyStatus, StatusLook>> = {
  ACTIVE: { label: 'Active', tone: 'success' },
  READY_FOR_PURCHASE: { label: 'Ready for purchase', tone: 'info' },
  EXPIRED: { label: 'Expired', tone: 'warning' },
  CANCELED: { label: 'Canceled', tone: 'neutral' },
  FAILED: { label: 'Failed', tone: 'danger' },
  COMPLETED: { label: 'Completed', tone: 'neutral' },
};

const OFFERING_LOOKS: Readonly<Record<OfferingStatus, StatusLook>> = {
  AVAILABLE_ALL: { label: 'Available', tone: 'success' },
  AVAILABLE_PARTIAL: { label: 'Partly available', tone: 'warning' },
  NOT_AVAILABLE: { label: 'Not available', tone: 'danger' },
};

const OPERATING_LOOKS: Readonly<Record<OperatingState, StatusLook>> = {
  NOT_STARTED: { label: 'Not started', tone: 'neutral' },
  QUEUED_FOR_START: { label: 'Queued for start', tone: 'progress' },
  RUNNING: { label: 'Running', tone: 'success' },
  STOPPED: { label: 'Stopped', tone: 'neutral' },
};

/** Anything not in here is shown exactly as the service sent it, in a neutral badge. */
const LOOKS: ReadonlyMap<string, StatusLook> = new Map(
  Object.entries({ ...POLICY_LOOKS, ...OFFERING_LOOKS, ...OPERATING_LOOKS }),
);

export interface StatusPresentation extends StatusLook {
  /** False for a value the contract does not name (shown as it comes). */
  readonly known: boolean;
}

export function presentStatus(status: string): StatusPresentation {
  const look = LOOKS.get(status);
  return look ? { ...look, known: true } : { label: status, tone: 'neutral', known: false };
}

/** "Ready for purchase" for a known status, the raw value otherwise. */
export function statusLabel(status: string): string {
  return presentStatus(status).label;
}
