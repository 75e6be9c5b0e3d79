import { z } from 'zod';
import { LinkedAccountList } from '../../../shared/api/accounts.js';
import { CapacityView } from '../../../shared/api/capacity.js';
import { CapacityRow } from '../../../shared/api/readers.js';
import { CyberListItem, CyberView } from '../../../shared/api/cyber.js';
import { dictionaryOf } from '../../../shared/records.js';

/** What the replica holds: the capacity list as rows, the other kinds as records of one table, all in one database. */
export const REPLICA_KINDS = ['capacities', 'capacityViews', 'accounts', 'cyberLists', 'cyberViews'] as const;
export type ReplicaKind = (typeof REPLICA_KINDS)[number];

const Stamped = <T extends z.ZodType>(value: T) => z.object({ fetchedAt: z.iso.datetime(), value });

/**
 * The shape of each kind (records keyed by policy and customer ids have no
 * prototype, so any id the service sends is an ordinary key). Every page of
 * the database is authenticated by SQLCipher, so its content is exactly what
 * this app wrote: the large capacity list is not re-validated item by item on
 * load (that would dominate the load time at 100,000 rows); the other kinds are.
 */
export const REPLICA_SCHEMAS = {
  // As the views read them: a policy with a field the app does not know is kept, the field shown as unknown.
  capacities: z.array(CapacityRow),
  capacityViews: dictionaryOf(Stamped(CapacityView)),
  accounts: LinkedAccountList,
  cyberLists: dictionaryOf(Stamped(z.array(CyberListItem))),
  cyberViews: dictionaryOf(Stamped(CyberView)),
} as const satisfies { readonly [K in ReplicaKind]: z.ZodType };

/** The id of the one record of linked accounts. */
export const ACCOUNTS_ID = 'all';

export type ReplicaValue<K extends ReplicaKind> = z.output<(typeof REPLICA_SCHEMAS)[K]>;

export interface ReplicaEntry<K extends ReplicaKind> {
  /** When the data was fetched from the service (ISO 8601). */
  readonly fetchedAt: string;
  readonly value: ReplicaValue<K>;
}

/** Kinds kept as one record per id (a detail per policy, a DR list per customer); accounts are one record. */
export const RECORD_SCHEMAS = {
  capacityViews: CapacityView,
  cyberLists: z.array(CyberListItem),
  cyberViews: CyberView,
} as const;
export type RecordKind = keyof typeof RECORD_SCHEMAS;
export type RecordValue<K extends RecordKind> = z.output<(typeof RECORD_SCHEMAS)[K]>;
