import { z } from 'zod';

/*
 * The offline list's sort columns, in a module of its own (re-exported by offline.ts): the capacity list's kept
 * state is read through this schema as the page's code is evaluated, and importing offline.ts for it built the
 * schemas of the copy's rows and of the service's policies before the overview could mount (issue 25, overview12).
 */

/** Columns the offline capacity list can be sorted by, answered in the main process. */
export const LOCAL_SORT_COLUMNS = [
  'createdDate',
  'cidrId',
  'policyName',
  'policyStatus',
  'instanceType',
  'qty',
  'platform',
  'availabilityZone',
  'launch',
  'end',
  'autoRenewal',
  'ourPrice',
  'savings',
  'savingsPercentage',
  // The cancellation fee the service stated (own data, not the copy's): the main process adds each policy's to the query.
  'fee',
] as const;
export const LocalSortColumn = z.enum(LOCAL_SORT_COLUMNS);
export type LocalSortColumn = z.infer<typeof LocalSortColumn>;
/** The sort columns a policy's own record holds (the fee is kept apart from it). */
export type RecordSortColumn = Exclude<LocalSortColumn, 'fee'>;
