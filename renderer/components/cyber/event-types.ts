import { TERMINATION_EVENT_TYPE } from '../../../shared/api/contract-choices.js';
import { ownEntry } from '../../../shared/records.js';

/** Plain words for the event types the sandbox and the service are known to send. */
const LABELS: Readonly<Record<string, string>> = {
  [TERMINATION_EVENT_TYPE]: 'DR termination',
  REPLICATION_STARTED: 'Replication started',
  RECOVERY_POINT_VERIFIED: 'Recovery point verified',
  FAILOVER_TEST: 'Failover test',
  FAILBACK_TEST: 'Failback test',
};

/** A known type in words; any other one readable from its SHOUTING_SNAKE form, never hidden. */
export function eventLabel(type: string): string {
  // The type comes from the service: "constructor" is a type like any other, not Object's.
  const known = ownEntry(LABELS, type);
  if (known) return known;
  const words = type.toLowerCase().replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : type;
}

export function isTermination(type: string): boolean {
  return type === TERMINATION_EVENT_TYPE;
}
