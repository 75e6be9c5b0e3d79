import type { z } from 'zod';
import { API_PREFIX } from './contract-choices.js';
import { AccessToken, SignInRequest } from './auth.js';
import { LinkedAccountList } from './accounts.js';
import {
  AutoRenewalRequest,
  AvailabilityOfferingList,
  CapacityListQuery,
  CapacityPage,
  CapacityPolicy,
  CapacityView,
  CidrIdBody,
  ConfigureRequest,
  MessageResponse,
  SearchQuery,
} from './capacity.js';
import { CyberListQuery, CyberPage, CyberView, TerminateAlreadyTriggered, TerminateCreated } from './cyber.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT';

/** The groups of the OpenAPI document, each described there. */
export type ApiTag = 'Authentication' | 'Accounts' | 'Capacity' | 'Cyber';

export interface EndpointDef {
  readonly method: HttpMethod;
  /** Path relative to the base URL; `{name}` marks a path parameter. */
  readonly path: string;
  readonly auth: boolean;
  readonly summary: string;
  /** The OpenAPI document's group for it. */
  readonly tag: ApiTag;
  readonly pathParams: readonly string[];
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** Success statuses and their body schemas. */
  readonly responses: Readonly<Record<number, z.ZodType>>;
  /** Error statuses the endpoint documents (all answer the error envelope). */
  readonly errors: readonly number[];
  /** Largest answer body read, in bytes; DEFAULT_MAX_BODY_BYTES when absent. A larger answer is refused unread. */
  readonly maxBodyBytes?: number;
}

/**
 * The answer-size cap of an endpoint that states none: a detail view or a
 * money answer is a few kilobytes, so 1 MiB leaves room for a service that
 * adds fields and still keeps a hostile one from filling the main process.
 */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** A list page: at most 100 full records of a few kilobytes each, with the same room. */
export const LIST_PAGE_MAX_BODY_BYTES = 8 * 1024 * 1024;

/** The answer-size cap of an endpoint. */
export function maxBodyBytes(def: EndpointDef): number {
  return def.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
}

function endpoint<const E extends EndpointDef>(def: E): E {
  return def;
}

/** The whole API, written once: the client, the sandbox and the OpenAPI document read it. */
export const ENDPOINTS = {
  signIn: endpoint({
    method: 'POST',
    path: `${API_PREFIX}/sign-in`,
    auth: false,
    summary: 'Sign in and obtain an access token',
    tag: 'Authentication',
    pathParams: [],
    body: SignInRequest,
    responses: { 200: AccessToken },
    errors: [400, 401, 500],
  }),
  linkedAccounts: endpoint({
    method: 'GET',
    path: `${API_PREFIX}/my-linked-accounts`,
    auth: true,
    summary: 'Cloud-provider accounts linked to the signed-in user',
    tag: 'Accounts',
    pathParams: [],
    responses: { 200: LinkedAccountList },
    errors: [401, 500],
    maxBodyBytes: LIST_PAGE_MAX_BODY_BYTES,
  }),
  configureCapacity: endpoint({
    method: 'PUT',
    path: `${API_PREFIX}/flexcompute/capacity-configuration`,
    auth: true,
    summary: 'Update the capacity configuration of a policy',
    tag: 'Capacity',
    pathParams: [],
    body: ConfigureRequest,
    responses: { 200: CapacityPolicy },
    errors: [400, 401, 404, 500],
  }),
  setAutoRenewal: endpoint({
    method: 'PUT',
    path: `${API_PREFIX}/flexcompute/capacity/auto-renewal`,
    auth: true,
    summary: 'Enable or disable auto-renewal of a policy',
    tag: 'Capacity',
    pathParams: [],
    body: AutoRenewalRequest,
    responses: { 200: MessageResponse },
    errors: [400, 401, 404, 500],
  }),
  purchaseCapacity: endpoint({
    method: 'POST',
    path: `${API_PREFIX}/flexcompute/purchase`,
    auth: true,
    summary: 'Purchase a policy that is ready for purchase',
    tag: 'Capacity',
    pathParams: [],
    body: CidrIdBody,
    responses: { 200: CapacityPolicy },
    errors: [400, 401, 404, 500],
  }),
  cancelCapacity: endpoint({
    method: 'POST',
    path: `${API_PREFIX}/flexcompute/cancel`,
    auth: true,
    summary: 'Cancel an active policy; the message states the fee',
    tag: 'Capacity',
    pathParams: [],
    body: CidrIdBody,
    responses: { 200: MessageResponse },
    errors: [400, 401, 404, 500],
  }),
  searchCapacity: endpoint({
    method: 'GET',
    path: `${API_PREFIX}/flexcompute/search`,
    auth: true,
    summary: 'Search available offerings in an availability zone and window',
    tag: 'Capacity',
    pathParams: [],
    query: SearchQuery,
    responses: { 200: AvailabilityOfferingList },
    errors: [400, 401, 404, 500],
    maxBodyBytes: LIST_PAGE_MAX_BODY_BYTES,
  }),
  listCapacities: endpoint({
    method: 'GET',
    path: `${API_PREFIX}/flexcompute/capacities`,
    auth: true,
    summary: 'Paginated list of capacity policies',
    tag: 'Capacity',
    pathParams: [],
    query: CapacityListQuery,
    responses: { 200: CapacityPage },
    errors: [400, 401, 404, 500],
    maxBodyBytes: LIST_PAGE_MAX_BODY_BYTES,
  }),
  describeCapacity: endpoint({
    method: 'GET',
    path: `${API_PREFIX}/flexcompute/describe/{cidr_id}`,
    auth: true,
    summary: 'Detailed view of a capacity policy',
    tag: 'Capacity',
    pathParams: ['cidr_id'],
    responses: { 200: CapacityView },
    errors: [401, 404, 500],
  }),
  listCyberPolicies: endpoint({
    method: 'GET',
    path: `${API_PREFIX}/policies/cyber/{cid_ext}/customer`,
    auth: true,
    summary: 'Paginated list of a customer’s disaster-recovery policies',
    tag: 'Cyber',
    pathParams: ['cid_ext'],
    query: CyberListQuery,
    responses: { 200: CyberPage },
    errors: [400, 401, 404, 500],
    maxBodyBytes: LIST_PAGE_MAX_BODY_BYTES,
  }),
  viewCyberPolicy: endpoint({
    method: 'GET',
    path: `${API_PREFIX}/policies/cyber/{cidr_id}/view`,
    auth: true,
    summary: 'Detailed view of a disaster-recovery policy',
    tag: 'Cyber',
    pathParams: ['cidr_id'],
    responses: { 200: CyberView },
    errors: [401, 404, 500],
  }),
  terminateCyberEvent: endpoint({
    method: 'POST',
    path: `${API_PREFIX}/policies/cyber/terminate/{cidr_id}`,
    auth: true,
    summary: 'Create the disaster-recovery termination event of a policy (once)',
    tag: 'Cyber',
    pathParams: ['cidr_id'],
    responses: { 201: TerminateCreated, 200: TerminateAlreadyTriggered },
    errors: [401, 404, 500],
  }),
} as const;

export type EndpointName = keyof typeof ENDPOINTS;
/** The endpoints that need a signed-in user's token (every one but sign-in). */
export type AuthenticatedEndpoint = { [N in EndpointName]: (typeof ENDPOINTS)[N]['auth'] extends true ? N : never }[EndpointName];

/** Fills `{name}` placeholders, encoding each value. */
export function buildPath(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

/** Compiles a template once into a matcher; null when the path does not match. */
export function compilePathMatcher(template: string): (path: string) => Record<string, string> | null {
  const names: string[] = [];
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([a-z_]+)\\?\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const regex = new RegExp(`^${pattern}$`);
  return (path) => {
    const match = regex.exec(path);
    if (!match) return null;
    const params: Record<string, string> = {};
    try {
      names.forEach((name, i) => {
        params[name] = decodeURIComponent(match[i + 1] as string);
      });
    } catch {
      // A malformed percent-escape names no resource.
      return null;
    }
    return params;
  };
}
