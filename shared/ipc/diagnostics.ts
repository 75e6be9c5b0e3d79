import { z } from 'zod';

/**
 * Contract drift (docs/real-service.md): how the service's answers differ from what this
 * version expects, once per endpoint and shape, as field paths only, so a
 * person can paste it into a support ticket without exposing any data.
 */
export const DriftEntry = z.object({
  /** The endpoint's name in the shared endpoint table, e.g. listCapacities. */
  endpoint: z.string(),
  /** Sorted findings such as "missing data[].policyName" or "unknown field data[].region". */
  findings: z.array(z.string()),
  firstSeen: z.iso.datetime({ offset: true }),
  lastSeen: z.iso.datetime({ offset: true }),
  /** Answers seen with exactly this difference. */
  count: z.number().int().min(1),
});
export type DriftEntry = z.infer<typeof DriftEntry>;

export const DriftReport = z.object({
  /** The profile's service address (no credentials), so support knows which service answered. */
  service: z.string(),
  appVersion: z.string(),
  entries: z.array(DriftEntry),
});
export type DriftReport = z.infer<typeof DriftReport>;

export { driftReportText } from './drift-report-text.js';
