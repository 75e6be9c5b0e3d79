import { z } from 'zod';
import {
  CONFIG_RULES,
  CONFIGURABLE_FIELDS,
  OFFERING_STATUSES,
  RENEWAL_FREQUENCIES,
  RULE,
  SEARCH_LIMITS,
} from './contract-choices.js';
import { PageParam, PageSizeParam, PagingInput, SortOrderParam, pageOf } from './paging.js';
import { daysBetween, parseWireDate } from '../format/dates.js';
import { CapacityStatus } from './capacity-status.js';

export { CapacityStatus } from './capacity-status.js';

export const RenewalFrequency = z.enum(RENEWAL_FREQUENCIES);
export type RenewalFrequency = z.infer<typeof RenewalFrequency>;

const Timestamp = z.iso.datetime({ offset: true });

export const PolicyInstance = z.object({
  id: z.number().int(),
  instanceType: z.string(),
  platformCode: z.string(),
  tenancyCode: z.string(),
  vcpu: z.number().int(),
  memory: z.number(),
  gpu: z.number().int(),
  gpuMemory: z.number(),
  qty: z.number().int(),
});
export type PolicyInstance = z.infer<typeof PolicyInstance>;

export const CspRegion = z.object({
  regionCode: z.string(),
  regionType: z.string(),
  availabilityZoneId: z.string(),
});
export type CspRegion = z.infer<typeof CspRegion>;

export const CapacityConfiguration = z.object({
  launchDateTime: Timestamp,
  endDateTime: Timestamp,
  autoRenewalEnabled: z.boolean(),
  frequency: z.string().nullable(),
  vpc: z.string(),
  securityGroups: z.string(),
  amiImage: z.string(),
  sshPairKey: z.string(),
  ebsVolumeSize: z.number().int(),
});
export type CapacityConfiguration = z.infer<typeof CapacityConfiguration>;

export const Pricing = z.object({
  ourPrice: z.number(),
  cspProviderPrice: z.number(),
  savings: z.number(),
  savingsPercentage: z.number(),
  creditCardProcessingFee: z.number().nullable(),
  bankAccountProcessingFee: z.number().nullable(),
});
export type Pricing = z.infer<typeof Pricing>;

/** Returned by purchase and configure, and each item of the capacities list. */
export const CapacityPolicy = z.object({
  cidrId: z.string(),
  policyName: z.string(),
  cspAccountName: z.string(),
  // Statuses outside the known set are shown as they come, never rejected.
  policyStatus: z.string(),
  policyOperatingState: z.string(),
  policyInstance: PolicyInstance,
  cspRegion: CspRegion,
  createdDate: Timestamp,
  capacityConfiguration: CapacityConfiguration,
  pricing: Pricing,
});
export type CapacityPolicy = z.infer<typeof CapacityPolicy>;

export const CapacityPage = pageOf(CapacityPolicy);
export type CapacityPage = z.infer<typeof CapacityPage>;

/** A disaster-recovery event, as both detailed views carry them. */
export const DrEvent = z.object({
  id: z.number().int(),
  type: z.string(),
  createdDate: Timestamp,
  description: z.string().optional(),
});
export type DrEvent = z.infer<typeof DrEvent>;

/** The schedule-policy view of describe: the groups this project names. */
export const CapacityView = z.object({
  policyDetails: z.object({
    cidrId: z.string(),
    policyName: z.string(),
    policyStatus: z.string(),
    policyOperatingState: z.string(),
    cspAccountName: z.string(),
  }),
  regionSettings: CspRegion,
  instances: z.array(PolicyInstance),
  dates: z.object({
    createdDate: Timestamp,
    launchDateTime: Timestamp,
    endDateTime: Timestamp,
  }),
  configuration: CapacityConfiguration,
  disasterRecoveryEvents: z.array(DrEvent),
  pricing: Pricing,
});
export type CapacityView = z.infer<typeof CapacityView>;

export const AvailabilityOffering = z.object({
  title: z.string(),
  // Known values are OFFERING_STATUSES; any other is shown as it comes.
  status: z.string(),
  startDateTime: Timestamp,
  endDateTime: Timestamp,
});
export type AvailabilityOffering = z.infer<typeof AvailabilityOffering>;
export const OfferingStatus = z.enum(OFFERING_STATUSES);

export const AvailabilityOfferingList = z.array(AvailabilityOffering);

export const MessageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;

export const CidrIdBody = z.object({
  cidrId: z.string({ error: RULE.required }).min(1, { error: RULE.required }),
});
export type CidrIdBody = z.infer<typeof CidrIdBody>;

/** Each configure field's rule, usable one field at a time by forms. */
export const ConfigureFields = {
  vpc: z.string({ error: RULE.string }).regex(CONFIG_RULES.vpcPattern, { error: RULE.vpc }),
  securityGroup: z
    .string({ error: RULE.string })
    .regex(CONFIG_RULES.securityGroupPattern, { error: RULE.securityGroup }),
  amiImage: z.string({ error: RULE.string }).regex(CONFIG_RULES.amiImagePattern, { error: RULE.amiImage }),
  sshPairKey: z.string({ error: RULE.string }).min(1, { error: RULE.nonEmpty }),
  ebsVolumeSize: z
    .number({ error: RULE.ebsVolumeSize })
    .int({ error: RULE.ebsVolumeSize })
    .min(CONFIG_RULES.ebsMin, { error: RULE.ebsVolumeSize })
    .max(CONFIG_RULES.ebsMax, { error: RULE.ebsVolumeSize }),
} as const;

export const ConfigureRequest = z
  .object({
    cidrId: CidrIdBody.shape.cidrId,
    vpc: ConfigureFields.vpc.optional(),
    securityGroup: ConfigureFields.securityGroup.optional(),
    amiImage: ConfigureFields.amiImage.optional(),
    sshPairKey: ConfigureFields.sshPairKey.optional(),
    ebsVolumeSize: ConfigureFields.ebsVolumeSize.optional(),
  })
  .refine((body) => CONFIGURABLE_FIELDS.some((field) => body[field] !== undefined), {
    error: RULE.atLeastOneConfigField,
    path: ['capacityConfiguration'],
  });
export type ConfigureRequest = z.infer<typeof ConfigureRequest>;

export const AutoRenewalRequest = z
  .object({
    cidrId: CidrIdBody.shape.cidrId,
    autoRenewalEnabled: z.boolean({ error: RULE.boolean }),
    frequency: z.enum(RENEWAL_FREQUENCIES, { error: RULE.frequency }).nullable().optional(),
  })
  .refine((body) => !body.autoRenewalEnabled || body.frequency != null, {
    error: RULE.frequencyRequired,
    path: ['frequency'],
  });
export type AutoRenewalRequest = z.infer<typeof AutoRenewalRequest>;

const wireDate = z.string({ error: RULE.required }).refine((text) => parseWireDate(text) !== null, {
  error: RULE.date,
});
const requiredText = z.string({ error: RULE.required }).trim().min(1, { error: RULE.required });

const searchTextFields = {
  instanceType: requiredText,
  platform: requiredText,
  availabilityZone: requiredText,
  startDate: wireDate,
  endDate: wireDate,
};

const utcOffsetNumber = z
  .number({ error: RULE.utcOffset })
  .min(SEARCH_LIMITS.minUtcOffset, { error: RULE.utcOffset })
  .max(SEARCH_LIMITS.maxUtcOffset, { error: RULE.utcOffset });

/** The window rule: end not before start, at most maxWindowDays long. */
function checkSearchWindow(query: { startDate: string; endDate: string }, ctx: z.RefinementCtx): void {
  const start = parseWireDate(query.startDate);
  const end = parseWireDate(query.endDate);
  if (!start || !end) return;
  const days = daysBetween(start, end);
  if (days < 0) ctx.addIssue({ code: 'custom', path: ['endDate'], message: RULE.endBeforeStart });
  else if (days > SEARCH_LIMITS.maxWindowDays) ctx.addIssue({ code: 'custom', path: ['endDate'], message: RULE.windowTooLong });
}

/** The search query with every rule of docs/contract-choices.md; input is the text form of the query string. */
export const SearchQuery = z
  .object({
    ...searchTextFields,
    clientUtcOffset: z
      .string()
      .regex(/^-?\d+(\.\d+)?$/, { error: RULE.utcOffset })
      .transform(Number)
      .pipe(utcOffsetNumber)
      .default(SEARCH_LIMITS.defaultUtcOffset),
  })
  .superRefine(checkSearchWindow);
export type SearchQuery = z.infer<typeof SearchQuery>;

/** The same search as the app's forms and IPC give it: the same rules, the offset as a number. */
export const SearchInput = z
  .object({ ...searchTextFields, clientUtcOffset: utcOffsetNumber.default(SEARCH_LIMITS.defaultUtcOffset) })
  .superRefine(checkSearchWindow);
export type SearchInput = z.infer<typeof SearchInput>;

/** The capacities list query, text form; `status` is checked apart (unknown is a 404). */
export const CapacityListQuery = z.object({
  page: PageParam,
  pageSize: PageSizeParam,
  sortOrder: SortOrderParam,
  status: z.string().optional(),
});
export type CapacityListQuery = z.infer<typeof CapacityListQuery>;

/** The capacities list query as the app's callers give it. */
export const CapacityListInput = PagingInput.extend({ status: CapacityStatus.optional() });
export type CapacityListInput = z.infer<typeof CapacityListInput>;
