import { z } from 'zod';
import { LinkedAccount, LinkedAccountList } from './accounts.js';
import { AvailabilityOffering, CapacityConfiguration, CapacityPolicy, CapacityView, CspRegion, PolicyInstance, Pricing } from './capacity.js';
import { FIELD_ALIASES } from './contract-choices.js';
import { CyberListItem, CyberView } from './cyber.js';
import { leftover } from './drift.js';
import { JsonObject, SkippedItem, isPlainObject, loose, looseShape, ownField, readItems, toJson, withAliases, type AliasMap } from './tolerant.js';

/**
 * The tolerant readers of the views (lists and detail views). Only the id of
 * a list item is required: every other field may be missing or of another
 * kind and reads as "not known" (the row shows "—"); an item without an id is
 * left out and counted. A detail view keeps each group it knows when that
 * group reads in full, and everything else of the answer as `extra`, shown as
 * a generic section. Money actions do not use these: their answers stay strict.
 */

const Id = z.string().trim().min(1);
const looseObject = <S extends Readonly<Record<string, z.ZodType>>>(shape: S) => loose(z.object(looseShape(shape)));

export const CapacityRow = z.object({
  ...looseShape(CapacityPolicy.shape),
  cidrId: Id,
  policyInstance: looseObject(PolicyInstance.shape),
  cspRegion: looseObject(CspRegion.shape),
  capacityConfiguration: looseObject(CapacityConfiguration.shape),
  pricing: looseObject(Pricing.shape),
});
export type CapacityRow = z.output<typeof CapacityRow>;

export const CyberRow = z.object({ ...looseShape(CyberListItem.shape), cidrId: Id });
export type CyberRow = z.output<typeof CyberRow>;

export const AccountRow = z.object({ ...looseShape(LinkedAccount.shape), accountId: Id });
export type AccountRow = z.output<typeof AccountRow>;

export const OfferingRow = z.object({ ...looseShape(AvailabilityOffering.shape), title: Id });
export type OfferingRow = z.output<typeof OfferingRow>;

const Skipped = z.array(SkippedItem);

function rowPage<T extends z.ZodType>(row: T) {
  return z.object({
    data: z.array(row),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
    total: z.number().int().min(0),
    /** Items of the answer that could not be shown (no id), with why. */
    skipped: Skipped,
  });
}

export const CapacityRowPage = rowPage(CapacityRow);
export type CapacityRowPage = z.output<typeof CapacityRowPage>;
export const CyberRowPage = rowPage(CyberRow);
export type CyberRowPage = z.output<typeof CyberRowPage>;

export const AccountsRead = z.object({ items: z.array(AccountRow), skipped: Skipped });
export type AccountsRead = z.output<typeof AccountsRead>;
export const OfferingsRead = z.object({ items: z.array(OfferingRow), skipped: Skipped });
export type OfferingsRead = z.output<typeof OfferingsRead>;

/** Describe's view: the known groups that read in full, and the rest of the answer. */
export const CapacityDetail = CapacityView.partial().extend({ cidrId: Id, extra: JsonObject });
export type CapacityDetail = z.output<typeof CapacityDetail>;
export const CyberDetail = CyberView.partial().extend({ cidrId: Id, extra: JsonObject });
export type CyberDetail = z.output<typeof CyberDetail>;

/** The whole schedule-policy view when every group read; null when some did not (then it is not cached). */
export function completeCapacityView(detail: CapacityDetail): CapacityView | null {
  const parsed = CapacityView.safeParse(detail);
  return parsed.success ? parsed.data : null;
}
export function completeCyberView(detail: CyberDetail): CyberView | null {
  const parsed = CyberView.safeParse(detail);
  return parsed.success ? parsed.data : null;
}

/** The accounts when every one read in full and none was left out; null otherwise (then it is not cached). */
export function completeAccounts(read: AccountsRead): LinkedAccountList | null {
  if (read.skipped.length > 0) return null;
  const parsed = LinkedAccountList.safeParse(read.items);
  return parsed.success ? parsed.data : null;
}

/** What a reader is told about the request it reads the answer of. */
export interface ReadContext {
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, unknown>>;
}

/**
 * Aliases only for fields the schema has: a misspelt or stale name in FIELD_ALIASES does not
 * compile where its reader is built, instead of never matching.
 */
type AliasesOf<T extends z.ZodType, A extends AliasMap> =
  Exclude<keyof A, keyof z.output<T>> extends never ? A : A & { readonly notAFieldOfTheSchema: Exclude<keyof A, keyof z.output<T>> };

/** A reader: the tolerant value, or null when not even the envelope can be read. */
type Reader<T> = (json: unknown, context: ReadContext) => T | null;

function readPage<T extends z.ZodType, const A extends AliasMap>(row: T, itemAliases: AliasesOf<T, A>): Reader<{ data: z.output<T>[]; page: number; pageSize: number; total: number; skipped: SkippedItem[] }> {
  return (json, context) => {
    const envelope = withAliases(json, FIELD_ALIASES.page);
    if (!isPlainObject(envelope) || !Array.isArray(envelope.data)) return null;
    const { items, skipped } = readItems(envelope.data, row, itemAliases);
    const page = positiveInt(envelope.page) ?? positiveInt(Number(context.query.page)) ?? 1;
    const pageSize = positiveInt(envelope.pageSize) ?? positiveInt(Number(context.query.pageSize)) ?? Math.max(1, envelope.data.length);
    const total = nonNegativeInt(envelope.total) ?? (page - 1) * pageSize + envelope.data.length;
    return { data: items, page, pageSize, total, skipped };
  };
}

function readList<T extends z.ZodType, const A extends AliasMap>(row: T, itemAliases: AliasesOf<T, A>): Reader<{ items: z.output<T>[]; skipped: SkippedItem[] }> {
  return (json) => {
    // A list wrapped in the page envelope reads too.
    const envelope = withAliases(json, FIELD_ALIASES.page);
    const raw = Array.isArray(json) ? json : isPlainObject(envelope) && Array.isArray(envelope.data) ? envelope.data : null;
    return raw ? readItems(raw, row, itemAliases) : null;
  };
}

function readDetail<V extends z.ZodObject, const A extends AliasMap>(view: V, groupAliases: AliasesOf<V, A>) {
  return (json: unknown, context: ReadContext) => {
    const source = withAliases(json, groupAliases);
    if (!isPlainObject(source)) return null;
    // Keyed by the service's field names: no prototype, so none of them reaches Object.prototype.
    const groups = Object.create(null) as Record<string, unknown>;
    const extra = Object.create(null) as Record<string, z.output<typeof JsonObject>[string]>;
    const shape = view.shape as Record<string, z.ZodType>;
    for (const [key, raw] of Object.entries(source)) {
      if (raw === undefined) continue;
      const schema = ownField(shape, key);
      const parsed = schema?.safeParse(raw);
      if (!schema || !parsed?.success) {
        extra[key] = toJson(raw);
        continue;
      }
      groups[key] = parsed.data;
      const rest = leftover(schema, raw);
      if (rest) extra[key] = toJson(rest);
    }
    const details = isPlainObject(source.policyDetails) ? source.policyDetails : {};
    const cidrId = typeof details.cidrId === 'string' && details.cidrId.trim() !== '' ? details.cidrId : (context.params.cidr_id ?? '');
    return { ...groups, cidrId, extra } as z.output<V> extends infer O ? Partial<O> & { cidrId: string; extra: JsonObject } : never;
  };
}

function positiveInt(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : null;
}
function nonNegativeInt(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

/** The endpoints read tolerantly, each with its reader and the shape the reader gives. */
export const READERS = {
  listCapacities: { read: readPage(CapacityRow, FIELD_ALIASES.capacityPolicy), output: CapacityRowPage },
  listCyberPolicies: { read: readPage(CyberRow, FIELD_ALIASES.cyberListItem), output: CyberRowPage },
  linkedAccounts: { read: readList(AccountRow, FIELD_ALIASES.linkedAccount), output: AccountsRead },
  searchCapacity: { read: readList(OfferingRow, FIELD_ALIASES.offering), output: OfferingsRead },
  describeCapacity: { read: readDetail(CapacityView, FIELD_ALIASES.capacityView), output: CapacityDetail },
  viewCyberPolicy: { read: readDetail(CyberView, FIELD_ALIASES.cyberView), output: CyberDetail },
} as const;
export type ReadEndpoint = keyof typeof READERS;
export type ReadOf<N extends ReadEndpoint> = z.output<(typeof READERS)[N]['output']>;
