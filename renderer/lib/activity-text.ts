import type { ActivityEntry } from '../../shared/own-data/activity.js';
import type { ErrorKind } from '../../shared/ipc/result.js';
import { formatAmount } from '../../shared/format/money.js';
import { frequencyLabel } from './capacity-format.js';

/** The words of one activity entry for a person: what was done, how it ended, and what it cost or set. */

const ACTION_WORDS: Readonly<Record<ActivityEntry['action'], string>> = {
  purchase: 'Purchase',
  configure: 'Configuration change',
  autoRenewal: 'Auto-renewal change',
  cancel: 'Cancellation',
  terminate: 'DR termination',
};

const OUTCOME_WORDS: Readonly<Record<ActivityEntry['outcome'], string>> = {
  succeeded: 'Done',
  'not-done': 'Not done',
  unknown: 'Outcome unknown: no clear answer from the service',
  'settled-done': 'Confirmed done by reading the policy back',
  'settled-not-done': 'Confirmed not done by reading the policy back',
};

const REASON_WORDS: Readonly<Record<ErrorKind, string>> = {
  'invalid-input': 'the input was not valid',
  rejected: 'the service refused it',
  cancelled: 'it was cancelled',
  forbidden: 'the app refused it',
  unauthorized: 'the session had ended',
  'not-found': 'the service did not find the policy',
  offline: 'the service could not be reached',
  timeout: 'the service did not answer in time',
  server: 'the service reported a problem',
  contract: 'the answer could not be read',
  conflict: 'another request for it was under way',
  unsettled: 'an earlier request was not yet confirmed',
  internal: 'Capacity Desk could not finish it',
};

const FIELD_WORDS: Readonly<Record<string, string>> = {
  vpc: 'VPC',
  securityGroup: 'Security group',
  amiImage: 'Machine image (AMI)',
  sshPairKey: 'Key pair',
  ebsVolumeSize: 'EBS volume (GB)',
};

export function actionWords(entry: ActivityEntry): string {
  if (entry.action === 'autoRenewal' && entry.autoRenewal) {
    const to = entry.autoRenewal.enabled ? 'on' : 'off';
    // Said as done only when it was: an attempt that failed is named as what was asked.
    return entry.outcome === 'succeeded' ? `Auto-renewal switched ${to}` : `Auto-renewal change (to ${to})`;
  }
  return ACTION_WORDS[entry.action];
}

export function outcomeWords(entry: ActivityEntry): string {
  const words = OUTCOME_WORDS[entry.outcome];
  if (entry.outcome === 'not-done' && entry.reason) return `${words}: ${REASON_WORDS[entry.reason.kind]}`;
  return words;
}

/** The facts beside the outcome: fee, price, frequency, fields set, DR event. Empty when there are none. */
export function factWords(entry: ActivityEntry): string[] {
  const facts: string[] = [];
  if (entry.action === 'cancel' && (entry.outcome === 'succeeded' || entry.fee !== null)) {
    facts.push(entry.fee === null ? 'The service stated no cancellation fee' : `Cancellation fee ${formatAmount(entry.fee)}`);
  }
  if (entry.price !== null) facts.push(`Price ${formatAmount(entry.price)}`);
  if (entry.autoRenewal?.enabled) facts.push(frequencyLabel(entry.autoRenewal.frequency));
  for (const { field, value } of entry.configured) facts.push(`${Object.hasOwn(FIELD_WORDS, field) ? FIELD_WORDS[field] : field}: ${value}`);
  if (entry.eventId !== null) facts.push(`Termination event ${entry.eventId}`);
  return facts;
}

/** "by alex@example.com in Sandbox" (the environment's name when it is still known, else its id). */
export function byWhom(entry: ActivityEntry, environmentName: string = entry.profileId): string {
  return `by ${entry.username} in ${environmentName}`;
}
