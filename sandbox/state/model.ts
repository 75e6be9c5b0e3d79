import type { LinkedAccount } from '../../shared/api/accounts.js';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import type { CyberView } from '../../shared/api/cyber.js';

/** What every listed policy has: its place in creation order. */
export interface Indexed {
  /** Position in creation order (createdDate, then id): the sort key of every list. */
  readonly seq: number;
}

export interface CapacityEntry extends Indexed {
  readonly kind: 'capacity';
  readonly owner: string;
  readonly launchMs: number;
  readonly endMs: number;
  /** The wire record, replaced (never edited in place) on every change. */
  policy: CapacityPolicy;
  /** UTF-8 JSON of `policy`, kept until the record changes: lists are the hot path. */
  json: Buffer | undefined;
  /** UTF-8 JSON of the describe view, kept likewise. */
  viewJson: Buffer | undefined;
}

export interface CyberEntry extends Indexed {
  readonly kind: 'cyber';
  readonly owner: string;
  readonly customerId: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly nameLower: string;
  view: CyberView;
  terminationEventId: number | null;
}

export interface Dataset {
  readonly capacities: CapacityEntry[];
  readonly cyber: CyberEntry[];
  readonly nextEventId: number;
  /** Each user's linked accounts by username (the seeded users', plus book accounts when asked for). */
  readonly linkedAccounts?: ReadonlyMap<string, readonly LinkedAccount[]>;
}
