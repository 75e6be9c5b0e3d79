import { z } from 'zod';
import { CAPACITY_STATUSES } from './contract-choices.js';

/**
 * A capacity policy's status, in a module of its own (re-exported by capacity.ts): the renderer's first screen
 * needs this one schema (the overview's status counts, the list's kept filter), and importing capacity.ts for it
 * built every schema of the service's policies, and of the modules that import it, as the page's code was
 * evaluated before the overview could mount (issue 25, branch overview12).
 */
export const CapacityStatus = z.enum(CAPACITY_STATUSES);
export type CapacityStatus = z.infer<typeof CapacityStatus>;
