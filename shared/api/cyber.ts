import { z } from 'zod';
import { CYBER_STATUSES } from './contract-choices.js';
import { PageParam, PageSizeParam, PagingInput, SortOrderParam, pageOf } from './paging.js';
import { CspRegion, DrEvent, PolicyInstance, Pricing } from './capacity.js';

export const CyberStatus = z.enum(CYBER_STATUSES);
export type CyberStatus = z.infer<typeof CyberStatus>;

const Timestamp = z.iso.datetime({ offset: true });

export const CyberListItem = z.object({
  cidrId: z.string(),
  policyName: z.string(),
  policyStatus: z.string(),
  createdDate: Timestamp,
  customerId: z.string().optional(),
  regionCode: z.string().optional(),
  terminationTriggered: z.boolean().optional(),
});
export type CyberListItem = z.infer<typeof CyberListItem>;

export const CyberPage = pageOf(CyberListItem);
export type CyberPage = z.infer<typeof CyberPage>;

export const CyberView = z.object({
  policyDetails: z.object({
    cidrId: z.string(),
    policyName: z.string(),
    policyStatus: z.string(),
    customerId: z.string(),
    cspAccountName: z.string(),
  }),
  regionSettings: z.object({
    primary: CspRegion,
    recovery: CspRegion,
  }),
  instances: z.array(PolicyInstance),
  dates: z.object({
    createdDate: Timestamp,
    startDateTime: Timestamp,
    endDateTime: Timestamp,
  }),
  disasterRecoveryEvents: z.array(DrEvent),
  pricing: Pricing,
});
export type CyberView = z.infer<typeof CyberView>;

export const TerminateCreated = z.object({
  code: z.literal(201),
  data: z.object({ id: z.number().int() }),
  message: z.string(),
});
export const TerminateAlreadyTriggered = z.object({
  code: z.literal(200),
  data: z.object({ id: z.null() }),
  message: z.string(),
});
export const TerminateResponse = z.union([TerminateCreated, TerminateAlreadyTriggered]);
export type TerminateResponse = z.infer<typeof TerminateResponse>;

export const CyberListQuery = z.object({
  page: PageParam,
  pageSize: PageSizeParam,
  sortOrder: SortOrderParam,
  status: z.string().optional(),
  policyName: z.string().optional(),
});
export type CyberListQuery = z.infer<typeof CyberListQuery>;

export const CyberListInput = PagingInput.extend({
  status: CyberStatus.optional(),
  policyName: z.string().max(200).optional(),
});
export type CyberListInput = z.infer<typeof CyberListInput>;
