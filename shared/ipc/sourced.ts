import { z } from 'zod';
import { AccountsRead, CapacityDetail, CapacityRow, CyberDetail, CyberRowPage } from '../api/readers.js';
import { SkippedItem } from '../api/tolerant.js';
import { OverviewSummary } from './overview.js';
import { UnreadableCopy } from './offline.js';

/**
 * Where an answer came from: the encrypted local replica, or the service just
 * now. Every read the views show carries it, so each view can say how fresh
 * what it shows is.
 */
export const DATA_SOURCES = ['replica', 'service'] as const;
export const DataSource = z.enum(DATA_SOURCES);
export type DataSource = z.infer<typeof DataSource>;

export const Origin = z.object({
  source: DataSource,
  /** When the data was fetched from the service (ISO 8601). */
  fetchedAt: z.string(),
  /** The service could not be reached just now, so the local copy answered instead. */
  serviceUnreachable: z.boolean().optional(),
});
export type Origin = z.infer<typeof Origin>;

/** Whether the service itself answered just now (never the local copy). */
export const ServiceCheck = z.object({
  reachable: z.boolean(),
  /** When it was asked (ISO 8601). */
  checkedAt: z.string(),
});
export type ServiceCheck = z.infer<typeof ServiceCheck>;

/** One window of the capacity list, as the list view asks for it. */
export const CapacityWindow = z.object({
  rows: z.array(CapacityRow),
  offset: z.number().int().min(0),
  /** Rows matching the filter and search, of which `rows` is a window. */
  total: z.number().int().min(0),
  origin: Origin,
  /**
   * True when the replica answered: free-text search and sorting by any
   * column work. False while the list pages the service (before the first
   * sync completes): then only the status filter and newest/oldest apply.
   */
  local: z.boolean(),
  /** Items of a service page that could not be shown (no id), with why. */
  skipped: z.array(SkippedItem),
  /** Set when this user's copy exists but could not be read: nothing of it is served. */
  unreadable: UnreadableCopy.optional(),
});
export type CapacityWindow = z.infer<typeof CapacityWindow>;

export const SourcedCapacityDetail = CapacityDetail.extend({ origin: Origin });
export type SourcedCapacityDetail = z.infer<typeof SourcedCapacityDetail>;
export const SourcedCyberDetail = CyberDetail.extend({ origin: Origin });
export type SourcedCyberDetail = z.infer<typeof SourcedCyberDetail>;
export const SourcedAccounts = AccountsRead.extend({ origin: Origin });
export type SourcedAccounts = z.infer<typeof SourcedAccounts>;
export const SourcedCyberPage = CyberRowPage.extend({
  origin: Origin,
  /**
   * The copy answered from a kept list that may lack some of the list's policies: the service said the whole list
   * holds more than the copy keeps (only a first page was read), or no such total was kept with it (a copy written
   * by a version before money18). Its `total` counts what is kept: the list holds at least that many (issue 26).
   */
  keptListPartial: z.boolean().optional(),
});
export type SourcedCyberPage = z.infer<typeof SourcedCyberPage>;
export const SourcedOverview = OverviewSummary.extend({ origin: Origin });
export type SourcedOverview = z.infer<typeof SourcedOverview>;
