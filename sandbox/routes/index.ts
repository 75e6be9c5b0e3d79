import type { EndpointName } from '../../shared/api/endpoints.js';
import type { Handler } from '../context.js';
import { linkedAccounts, signIn } from './auth.js';
import {
  cancelCapacity,
  configureCapacity,
  describeCapacity,
  listCapacities,
  purchaseCapacity,
  setAutoRenewal,
} from './capacity.js';
import { listCyberPolicies, terminateCyberEvent, viewCyberPolicy } from './cyber.js';
import { searchCapacity } from './search.js';

/** One handler per entry of ENDPOINTS; the compiler checks none is missing. */
export const HANDLERS: Readonly<Record<EndpointName, Handler>> = {
  signIn,
  linkedAccounts,
  configureCapacity,
  setAutoRenewal,
  purchaseCapacity,
  cancelCapacity,
  searchCapacity,
  listCapacities,
  describeCapacity,
  listCyberPolicies,
  viewCyberPolicy,
  terminateCyberEvent,
};
