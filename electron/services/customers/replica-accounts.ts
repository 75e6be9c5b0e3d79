import type { CapacityRow } from '../../../shared/api/readers.js';
import { accountKey } from '../../../shared/customers/matching.js';
import type { Connection } from '../platform/sqlcipher.js';
import { commitVersion } from '../replica/commit-version.js';
import type { SlimCapacityRow } from '../replica/capacity-replica-db.js';

/**
 * The replica's policies by account, for the customer filter and the customer
 * page: through the `account` column (the policy's cspAccountName as the
 * service wrote it) and its index, so one customer's policies are index
 * seeks, not a pass over every policy. Customers hold accounts as accountKey
 * compares them (case, spacing and Unicode form aside), which SQL cannot
 * compute: the copy's distinct account names are read (one seek each) and
 * matched here, then the rows are looked up by the names that matched.
 * Created with the replica's schema.
 */
export const ACCOUNT_INDEX = 'CREATE INDEX IF NOT EXISTS capacities_account ON capacities (account);';

/** Which accounts a query keeps: those whose accountKey is one of `keys`, or (inside false) every other. */
export interface AccountFilter {
  readonly keys: readonly string[];
  readonly inside: boolean;
}

/**
 * Each distinct account name of the copy, jumping from one to the next in the
 * index (2,500 names over 100,000 policies: 2,500 seeks, not 100,000 rows).
 */
const DISTINCT_ACCOUNTS = `
WITH RECURSIVE names (name) AS (
  SELECT min(account) FROM capacities
  UNION ALL
  SELECT (SELECT min(account) FROM capacities WHERE account > names.name) FROM names WHERE names.name IS NOT NULL
)
SELECT name FROM names WHERE name IS NOT NULL`;

/** The names as of a version of the file (its commit counter, as this connection reads it). */
const kept = new WeakMap<Connection, { readonly version: string; readonly names: readonly string[] }>();

/** The account names the copy's policies carry, each once; read again only after a commit. */
export function accountNames(connection: Connection): readonly string[] {
  const version = commitVersion(connection);
  const known = kept.get(connection);
  if (known?.version === version) return known.names;
  const names = connection.prepare(DISTINCT_ACCOUNTS).pluck().all() as string[];
  kept.set(connection, { version, names });
  return names;
}

/**
 * The SQL condition for the rows a filter keeps (over the columns named), and its parameters. A row without the account column (a copy
 * written before it existed, until its next sync) is matched through its
 * search text, whose last part is the account (account_of, on the reading
 * connection).
 */
export function accountCondition(connection: Connection, filter: AccountFilter, column = 'account', search = 'search'): { sql: string; params: Record<string, string> } {
  const keys = new Set(filter.keys);
  const names = accountNames(connection).filter((name) => keys.has(accountKey(name)));
  const params = { accountNames: JSON.stringify(names), accountKeys: JSON.stringify(filter.keys) };
  const named = `${column} IN (SELECT value FROM json_each(@accountNames))`;
  const searched = `account_of(${search}) IN (SELECT value FROM json_each(@accountKeys))`;
  // A row of no account at all is nobody's, so it is among the unassigned.
  const sql = filter.inside
    ? `(${named} OR (${column} IS NULL AND ${searched}))`
    : `(CASE WHEN ${column} IS NULL THEN NOT ${searched} ELSE NOT ${named} END)`;
  return { sql, params };
}

/** What a customer page reads of each of their policies: the slim columns and the processing fee, as a CapacityRow. */
export interface CustomerCapacities {
  /** Every policy of theirs, as much of it as the page's figures and its list read; newest first. */
  readonly rows: CapacityRow[];
  /** The first `first` of them (the rows the page lists). */
  readonly newest: CapacityRow[];
}

/**
 * One customer's policies for their page in one read: the columns of every
 * policy of theirs that the figures and the page's list show, no record read
 * whole. The fees of a bought policy come from the `fee` (card) and `bank_fee` columns; a row written
 * before those columns were (`bank_fee_written` 0) has its fees read out of its record
 * (as every fee was: 3,000 records read for a customer of 5,000 policies). The
 * list was read as 200 whole records (about 150 KB to parse, check and send,
 * for six columns shown).
 */
export function customerCapacities(connection: Connection, filter: AccountFilter, first: number, bought: readonly string[]): CustomerCapacities {
  const where = accountCondition(connection, filter, 'c.account', 'c.search');
  const tuples = connection
    .prepare(
      `SELECT c.rid, c.cidr_id, c.policy_name, c.policy_status, c.launch_at, c.end_at, c.auto_renewal, c.our_price, c.savings, c.account,
         CASE WHEN c.policy_status NOT IN (SELECT value FROM json_each(@bought)) THEN NULL
           WHEN c.bank_fee_written = 1 THEN c.fee
           ELSE (SELECT json_extract(b.body, '$.pricing.creditCardProcessingFee') FROM capacity_bodies AS b WHERE b.rid = c.rid)
         END AS fee,
         CASE WHEN c.policy_status NOT IN (SELECT value FROM json_each(@bought)) THEN NULL
           WHEN c.bank_fee_written = 1 THEN c.bank_fee
           ELSE (SELECT json_extract(b.body, '$.pricing.bankAccountProcessingFee') FROM capacity_bodies AS b WHERE b.rid = c.rid)
         END AS bank_fee
       FROM capacities AS c WHERE ${where.sql}
       ORDER BY c.created_date DESC, c.rid DESC`,
    )
    .raw()
    .all({ ...where.params, bought: JSON.stringify(bought) }) as CustomerTuple[];
  const rows = tuples.map(([, cidrId, name, status, launchAt, endAt, autoRenewal, ourPrice, savings, account, fee, bankFee]) =>
    figuresRow({ cidrId, name, status, launchAt, endAt, autoRenewal: autoRenewal === 1, ourPrice, savings, account, fee, bankFee }),
  );
  return { rows, newest: rows.slice(0, first) };
}

/**
 * The same answer from the slim rows in memory (CapacityReplica.rowsOfAccounts): ordered as the SQL path
 * orders them (newest first, the later written first among equal dates), the fee kept for a bought policy.
 */
export function customerCapacitiesOfRows(slim: readonly SlimCapacityRow[], first: number, bought: ReadonlySet<string>): CustomerCapacities {
  const sorted = [...slim].sort((a, b) => (a.createdDate < b.createdDate ? 1 : a.createdDate > b.createdDate ? -1 : b.rid - a.rid));
  const rows = sorted.map((row) =>
    figuresRow({
      cidrId: row.cidrId,
      name: row.policyName,
      status: row.policyStatus,
      launchAt: row.capacityConfiguration.launchDateTime,
      endAt: row.capacityConfiguration.endDateTime,
      autoRenewal: row.capacityConfiguration.autoRenewalEnabled,
      ourPrice: row.ourPrice,
      savings: row.pricing.savings,
      account: row.account,
      fee: bought.has(row.policyStatus) ? row.fee : null,
      bankFee: bought.has(row.policyStatus) ? row.bankFee : null,
    }),
  );
  return { rows, newest: rows.slice(0, first) };
}

type CustomerTuple = [
  rid: number,
  cidrId: string,
  name: string,
  status: string,
  launchAt: string,
  endAt: string,
  autoRenewal: number,
  ourPrice: number | null,
  savings: number | null,
  account: string | null,
  fee: unknown,
  bankFee: unknown,
];

/** The columns of a policy the page's figures and its list read. */
interface FigureColumns {
  readonly cidrId: string;
  readonly name: string;
  readonly status: string;
  readonly launchAt: string;
  readonly endAt: string;
  readonly autoRenewal: boolean;
  readonly ourPrice: number | null;
  readonly savings: number | null;
  readonly account: string | null;
  /** The card processing fee, and the bank-transfer one. */
  readonly fee: unknown;
  readonly bankFee: unknown;
}

/**
 * A policy as the page's figures read it. The slim table keeps a missing text
 * as empty and a missing figure as NULL: both read as "not known" here, as
 * they do in the record. The fee is kept only when it is a number. Built by
 * assignment, not by spreading conditional parts: the spreads made it most of
 * a large customer's page (about 20 ms of CPU for 5,000 rows at load 17).
 */
function figuresRow({ cidrId, name, status, launchAt, endAt, autoRenewal, ourPrice, savings, account, fee, bankFee }: FigureColumns): CapacityRow {
  const configuration: NonNullable<CapacityRow['capacityConfiguration']> = {};
  if (launchAt) configuration.launchDateTime = launchAt;
  if (endAt) configuration.endDateTime = endAt;
  configuration.autoRenewalEnabled = autoRenewal;
  const pricing: NonNullable<CapacityRow['pricing']> = {};
  if (ourPrice !== null) pricing.ourPrice = ourPrice;
  if (savings !== null) pricing.savings = savings;
  if (typeof fee === 'number') pricing.creditCardProcessingFee = fee;
  if (typeof bankFee === 'number') pricing.bankAccountProcessingFee = bankFee;
  const row: CapacityRow = { cidrId };
  if (name) row.policyName = name;
  if (status) row.policyStatus = status as CapacityRow['policyStatus'];
  if (account !== null) row.cspAccountName = account;
  row.capacityConfiguration = configuration;
  row.pricing = pricing;
  return row;
}
