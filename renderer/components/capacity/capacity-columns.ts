import type { CapacityRow } from '../../../shared/api/readers.js';
import type { SheetKind } from '../../../shared/ipc/export-sheet.js';
import type { LocalSortColumn } from '../../../shared/ipc/offline.js';
import { formatFraction } from '../../../shared/format/money.js';
import { agreement } from '../../stores/agreement.svelte.js';
import { customers } from '../../stores/customers.svelte.js';
import { statedFees } from '../../stores/stated-fees.svelte.js';
import { autoRenewalShort, autoRenewalSummary, instanceSummary } from '../../lib/capacity-format.js';
import { formatDate, localWallClock } from '../../lib/dates.js';
import { statusLabel } from '../ui/status.js';

/**
 * Every column of the capacity table, in one place: the screen, the column
 * chooser, the sort headers and the exports all read this list. A new column
 * (a customer, a fee) is one entry here.
 */

/** How a cell looks on screen; `text` is plain. */
export type CellLook = 'text' | 'mono' | 'name' | 'status' | 'amount' | 'savings' | 'customer';

/** One column of an export: a column on screen may export as more than one (instances: type and quantity). */
export interface ExportPart {
  readonly label: string;
  readonly kind: SheetKind;
  /** The cell's value: wall-clock text for `datetime`, a fraction for `percent`, a number for `amount` and `integer`. */
  readonly value: (row: CapacityRow) => string | number | null;
}

export interface CapacityColumn {
  readonly id: string;
  /** The header on screen, the chooser's label. */
  readonly label: string;
  /** Read by screen readers instead of an abbreviated label. */
  readonly srLabel?: string;
  /** Width in CSS pixels at first; a person may resize it. */
  readonly width: number;
  /** Takes the space left over (one column: the name, so names are cut last). */
  readonly grows?: boolean;
  readonly align?: 'start' | 'end';
  /** What the local copy sorts by for this column; none: the header does not sort. */
  readonly sortKey?: LocalSortColumn;
  /** Shown unless the person hides it. */
  readonly shownAtFirst: boolean;
  /** False for the columns that name a row (always shown). */
  readonly hideable: boolean;
  readonly look: CellLook;
  /** The text on screen (and the cell's title); '' when the service sent nothing. */
  readonly text: (row: CapacityRow) => string;
  readonly exports: readonly ExportPart[];
}

const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);
const finite = (value: number | undefined): number | null => (value !== undefined && Number.isFinite(value) ? value : null);
// Every amount with the environment's currency (agreement terms); plain while none is set, which the view says once.
const amountText = (value: number | undefined): string => (finite(value) === null ? '' : agreement.amount(value));
/** The customer whose book lists the row's account; '' when it belongs to none (shown as unassigned). */
const customerName = (row: CapacityRow): string => customers.ofAccount(row.cspAccountName)?.name ?? '';

export const CAPACITY_COLUMNS: readonly CapacityColumn[] = [
  {
    id: 'cidrId',
    label: 'Policy ID',
    width: 118,
    sortKey: 'cidrId',
    shownAtFirst: true,
    hideable: false,
    look: 'mono',
    text: (row) => row.cidrId,
    exports: [{ label: 'Policy ID', kind: 'text', value: (row) => row.cidrId }],
  },
  {
    id: 'name',
    label: 'Policy name',
    width: 200,
    grows: true,
    sortKey: 'policyName',
    shownAtFirst: true,
    hideable: false,
    look: 'name',
    text: (row) => row.policyName ?? '',
    exports: [{ label: 'Policy name', kind: 'text', value: (row) => orNull(row.policyName) }],
  },
  {
    id: 'account',
    label: 'Account',
    srLabel: 'Linked account',
    width: 140,
    shownAtFirst: true,
    hideable: true,
    look: 'text',
    text: (row) => row.cspAccountName ?? '',
    exports: [{ label: 'Account', kind: 'text', value: (row) => orNull(row.cspAccountName) }],
  },
  {
    id: 'customer',
    label: 'Customer',
    width: 140,
    shownAtFirst: true,
    hideable: true,
    look: 'customer',
    text: customerName,
    exports: [{ label: 'Customer', kind: 'text', value: (row) => customerName(row) || null }],
  },
  {
    id: 'status',
    label: 'Status',
    width: 146,
    sortKey: 'policyStatus',
    shownAtFirst: true,
    hideable: true,
    look: 'status',
    text: (row) => (row.policyStatus ? statusLabel(row.policyStatus) : ''),
    exports: [{ label: 'Status', kind: 'text', value: (row) => (row.policyStatus ? statusLabel(row.policyStatus) : null) }],
  },
  {
    id: 'instances',
    label: 'Instances',
    srLabel: 'Instance type and quantity',
    width: 150,
    sortKey: 'instanceType',
    shownAtFirst: true,
    hideable: true,
    look: 'mono',
    text: (row) => instanceSummary(row.policyInstance ?? {}),
    exports: [
      { label: 'Instance type', kind: 'text', value: (row) => orNull(row.policyInstance?.instanceType) },
      { label: 'Quantity', kind: 'integer', value: (row) => finite(row.policyInstance?.qty) },
    ],
  },
  {
    id: 'platform',
    label: 'Platform',
    width: 92,
    sortKey: 'platform',
    shownAtFirst: false,
    hideable: true,
    look: 'text',
    text: (row) => row.policyInstance?.platformCode ?? '',
    exports: [{ label: 'Platform', kind: 'text', value: (row) => orNull(row.policyInstance?.platformCode) }],
  },
  {
    id: 'tenancy',
    label: 'Tenancy',
    width: 96,
    shownAtFirst: false,
    hideable: true,
    look: 'text',
    text: (row) => row.policyInstance?.tenancyCode ?? '',
    exports: [{ label: 'Tenancy', kind: 'text', value: (row) => orNull(row.policyInstance?.tenancyCode) }],
  },
  {
    id: 'region',
    label: 'Region',
    width: 110,
    shownAtFirst: false,
    hideable: true,
    look: 'mono',
    text: (row) => row.cspRegion?.regionCode ?? '',
    exports: [{ label: 'Region', kind: 'text', value: (row) => orNull(row.cspRegion?.regionCode) }],
  },
  {
    id: 'zone',
    label: 'Zone',
    srLabel: 'Availability zone',
    width: 84,
    sortKey: 'availabilityZone',
    shownAtFirst: true,
    hideable: true,
    look: 'mono',
    text: (row) => row.cspRegion?.availabilityZoneId ?? '',
    exports: [{ label: 'Availability zone', kind: 'text', value: (row) => orNull(row.cspRegion?.availabilityZoneId) }],
  },
  {
    id: 'launch',
    label: 'Launch',
    width: 106,
    sortKey: 'launch',
    shownAtFirst: true,
    hideable: true,
    look: 'text',
    text: (row) => dateText(row.capacityConfiguration?.launchDateTime),
    exports: [{ label: 'Launch', kind: 'datetime', value: (row) => localWallClock(row.capacityConfiguration?.launchDateTime) }],
  },
  {
    id: 'end',
    label: 'End',
    width: 106,
    sortKey: 'end',
    shownAtFirst: true,
    hideable: true,
    look: 'text',
    text: (row) => dateText(row.capacityConfiguration?.endDateTime),
    exports: [{ label: 'End', kind: 'datetime', value: (row) => localWallClock(row.capacityConfiguration?.endDateTime) }],
  },
  {
    id: 'renewal',
    label: 'Renewal',
    srLabel: 'Auto-renewal',
    width: 104,
    sortKey: 'autoRenewal',
    shownAtFirst: true,
    hideable: true,
    look: 'text',
    text: (row) => renewal(row, autoRenewalShort),
    exports: [{ label: 'Auto-renewal', kind: 'text', value: (row) => renewal(row, autoRenewalSummary) || null }],
  },
  {
    id: 'price',
    label: 'Our price',
    width: 100,
    align: 'end',
    sortKey: 'ourPrice',
    shownAtFirst: true,
    hideable: true,
    look: 'amount',
    text: (row) => amountText(row.pricing?.ourPrice),
    exports: [{ label: 'Our price', kind: 'amount', value: (row) => finite(row.pricing?.ourPrice) }],
  },
  {
    id: 'providerPrice',
    label: 'Provider price',
    width: 110,
    align: 'end',
    shownAtFirst: false,
    hideable: true,
    look: 'amount',
    text: (row) => amountText(row.pricing?.cspProviderPrice),
    exports: [{ label: 'Provider price', kind: 'amount', value: (row) => finite(row.pricing?.cspProviderPrice) }],
  },
  {
    id: 'savings',
    label: 'Savings',
    srLabel: 'Savings amount',
    width: 96,
    align: 'end',
    sortKey: 'savings',
    shownAtFirst: true,
    hideable: true,
    look: 'amount',
    text: (row) => amountText(row.pricing?.savings),
    exports: [{ label: 'Savings', kind: 'amount', value: (row) => finite(row.pricing?.savings) }],
  },
  {
    id: 'savingsPct',
    label: 'Savings %',
    srLabel: 'Savings percentage',
    width: 92,
    align: 'end',
    sortKey: 'savingsPercentage',
    shownAtFirst: true,
    hideable: true,
    look: 'savings',
    text: (row) => (finite(row.pricing?.savingsPercentage) === null ? '' : formatFraction(row.pricing?.savingsPercentage as number)),
    exports: [{ label: 'Savings %', kind: 'percent', value: (row) => finite(row.pricing?.savingsPercentage) }],
  },
  {
    // The fee the service stated when this app canceled the policy (own data); a policy canceled elsewhere has none.
    id: 'fee',
    label: 'Fee',
    srLabel: 'Cancellation fee stated by the service',
    width: 100,
    align: 'end',
    sortKey: 'fee',
    shownAtFirst: false,
    hideable: true,
    look: 'amount',
    text: (row) => amountText(statedFees.of(row.cidrId) ?? undefined),
    exports: [{ label: 'Cancellation fee', kind: 'amount', value: (row) => statedFees.of(row.cidrId) }],
  },
  {
    id: 'created',
    label: 'Created',
    width: 112,
    sortKey: 'createdDate',
    shownAtFirst: false,
    hideable: true,
    look: 'text',
    text: (row) => dateText(row.createdDate),
    exports: [{ label: 'Created', kind: 'datetime', value: (row) => localWallClock(row.createdDate) }],
  },
];

/** A column's id; unknown ids (an old saved layout) are ignored where they are read. */
export const CAPACITY_COLUMN_IDS: readonly string[] = CAPACITY_COLUMNS.map((column) => column.id);

const BY_ID: ReadonlyMap<string, CapacityColumn> = new Map(CAPACITY_COLUMNS.map((column) => [column.id, column]));

export function capacityColumn(id: string): CapacityColumn | undefined {
  return BY_ID.get(id);
}

/** The column a sort key belongs to (the header that shows aria-sort). */
export function columnOfSortKey(key: LocalSortColumn): CapacityColumn | undefined {
  return CAPACITY_COLUMNS.find((column) => column.sortKey === key);
}

/**
 * The export of the given columns: their labels, kinds and each row's values, in the order shown. Amounts come with a
 * Currency column, after the first of them: named on every row that has an amount, so a filtered or pasted part of
 * the sheet still says it; "not set" until the environment has one. It followed "Our price" alone, so a sheet of the
 * savings or fees without the price had amounts and no currency (money18).
 */
export function exportSheet(columns: readonly CapacityColumn[], rows: readonly CapacityRow[]) {
  const shown = columns.flatMap((column) => column.exports);
  const amounts = shown.filter((part) => part.kind === 'amount');
  const currency: ExportPart = {
    label: 'Currency',
    kind: 'text',
    value: (row) => (amounts.some((part) => part.value(row) !== null) ? (agreement.currency ?? 'not set') : null),
  };
  const first = shown.findIndex((part) => part.kind === 'amount');
  const parts = first < 0 ? shown : [...shown.slice(0, first + 1), currency, ...shown.slice(first + 1)];
  return {
    columns: parts.map(({ label, kind }) => ({ label, kind })),
    rows: rows.map((row) => parts.map((part) => part.value(row))),
  };
}

function dateText(iso: string | undefined): string {
  return iso ? formatDate(iso) : '';
}

function renewal(row: CapacityRow, words: (enabled: boolean, frequency: string | null) => string): string {
  const config = row.capacityConfiguration;
  return config?.autoRenewalEnabled === undefined ? '' : words(config.autoRenewalEnabled, config.frequency ?? null);
}
