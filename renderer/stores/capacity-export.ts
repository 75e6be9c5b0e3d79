import type { CapacityRow } from '../../shared/api/readers.js';
import type { LocalCapacityQuery } from '../../shared/ipc/offline.js';
import type { CollectResult } from '../components/export/collect.js';
import { api } from '../lib/api.js';

/** The most rows one export carries (the CSV channel's limit). */
const EXPORT_MAX_ROWS = 20_000;
const WINDOW = 500;

const HEADER = [
  'Policy ID',
  'Policy name',
  'Status',
  'Account',
  'Customer',
  'Instance type',
  'Quantity',
  'Platform',
  'Availability zone',
  'Launch',
  'End',
  'Auto-renewal',
  'Our price',
  'Currency',
  'Savings %',
  'Created',
];

function cells(row: CapacityRow, currency: string | null, customerOf: (row: CapacityRow) => string | null): (string | number | boolean | null)[] {
  return [
    row.cidrId,
    row.policyName ?? null,
    row.policyStatus ?? null,
    row.cspAccountName ?? null,
    customerOf(row),
    row.policyInstance?.instanceType ?? null,
    row.policyInstance?.qty ?? null,
    row.policyInstance?.platformCode ?? null,
    row.cspRegion?.availabilityZoneId ?? null,
    row.capacityConfiguration?.launchDateTime ?? null,
    row.capacityConfiguration?.endDateTime ?? null,
    row.capacityConfiguration?.autoRenewalEnabled ?? null,
    row.pricing?.ourPrice ?? null,
    // Named on every row, so a filtered or pasted part of the sheet still says it; "not set" until the environment has one.
    row.pricing?.ourPrice === undefined ? null : (currency ?? 'not set'),
    row.pricing?.savingsPercentage ?? null,
    row.createdDate ?? null,
  ];
}

/**
 * Every row of the capacity list as it is shown (status, customer, search and
 * sort applied), in windows, for "Export CSV", each with its customer's name.
 */
export async function collectCapacityExport(list: {
  readonly status: LocalCapacityQuery['status'] | null;
  readonly text: string;
  readonly sortBy: NonNullable<LocalCapacityQuery['sortBy']>;
  readonly sortOrder: NonNullable<LocalCapacityQuery['sortOrder']>;
  readonly customer?: LocalCapacityQuery['customer'] | null;
}, currency: string | null, customerOf: (row: CapacityRow) => string | null = () => null): Promise<CollectResult> {
  const rows: CapacityRow[] = [];
  for (let offset = 0; offset < EXPORT_MAX_ROWS; offset += WINDOW) {
    const result = await api.capacity.list({
      offset,
      limit: WINDOW,
      text: list.text,
      sortBy: list.sortBy,
      sortOrder: list.sortOrder,
      ...(list.status ? { status: list.status } : {}),
      ...(list.customer ? { customer: list.customer } : {}),
    });
    if (!result.ok) return { ok: false, error: result.error };
    rows.push(...result.value.rows);
    if (result.value.rows.length === 0 || result.value.offset + result.value.rows.length >= result.value.total) break;
    // The service's pages are smaller than a window: go on from where the answer ended.
    offset = result.value.offset + result.value.rows.length - WINDOW;
  }
  return { ok: true, data: { header: HEADER, rows: rows.slice(0, EXPORT_MAX_ROWS).map((row) => cells(row, currency, customerOf)) } };
}
