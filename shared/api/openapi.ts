/**
 * The OpenAPI 3.1 document of the service, built from the endpoint table and
 * the zod schemas: nothing in it is written by hand twice. Pure (zod only), so
 * the sandbox serves it and scripts/gen-openapi.ts writes docs/openapi.json.
 */
import { z } from 'zod';
import { AccessToken, SignInRequest } from './auth.js';
import { LinkedAccount, LinkedAccountList } from './accounts.js';
import {
  AutoRenewalRequest,
  AvailabilityOffering,
  AvailabilityOfferingList,
  CapacityConfiguration,
  CapacityPage,
  CapacityPolicy,
  CapacityView,
  CidrIdBody,
  ConfigureRequest,
  CspRegion,
  DrEvent,
  MessageResponse,
  PolicyInstance,
  Pricing,
} from './capacity.js';
import {
  CAPACITY_STATUSES,
  CYBER_STATUSES,
  OFFERING_STATUSES,
  PAGING,
  QUERY,
  REASON,
  SEARCH_LIMITS,
} from './contract-choices.js';
import { CyberListItem, CyberPage, CyberView, TerminateAlreadyTriggered, TerminateCreated } from './cyber.js';
import { ENDPOINTS, type ApiTag, type EndpointDef, type EndpointName } from './endpoints.js';
import { ErrorEnvelope } from './errors.js';

export const OPENAPI_VERSION = '3.1.0';
export const API_VERSION = '1.0.0';
export const DEFAULT_SERVER_URL = 'http://127.0.0.1:4010';

type JsonObject = { [key: string]: unknown };

/**
 * Every schema that gets a name under components/schemas; the rest are inlined.
 * test/unit/api/openapi-components.test.ts fails for an exported object schema of
 * the API's resource modules that is neither here nor an endpoint's query.
 */
export const NAMED: readonly (readonly [string, z.ZodType])[] = [
  ['ErrorEnvelope', ErrorEnvelope],
  ['SignInRequest', SignInRequest],
  ['AccessToken', AccessToken],
  ['LinkedAccount', LinkedAccount],
  ['LinkedAccountList', LinkedAccountList],
  ['PolicyInstance', PolicyInstance],
  ['CspRegion', CspRegion],
  ['CapacityConfiguration', CapacityConfiguration],
  ['Pricing', Pricing],
  ['CapacityPolicy', CapacityPolicy],
  ['CapacityPage', CapacityPage],
  ['DrEvent', DrEvent],
  ['CapacityPolicyDetails', CapacityView.shape.policyDetails],
  ['CapacityDates', CapacityView.shape.dates],
  ['CapacityView', CapacityView],
  ['AvailabilityOffering', AvailabilityOffering],
  ['AvailabilityOfferingList', AvailabilityOfferingList],
  ['MessageResponse', MessageResponse],
  ['CidrIdBody', CidrIdBody],
  ['ConfigureRequest', ConfigureRequest],
  ['AutoRenewalRequest', AutoRenewalRequest],
  ['CyberListItem', CyberListItem],
  ['CyberPage', CyberPage],
  ['CyberPolicyDetails', CyberView.shape.policyDetails],
  ['CyberRegionSettings', CyberView.shape.regionSettings],
  ['CyberDates', CyberView.shape.dates],
  ['CyberView', CyberView],
  ['TerminateCreated', TerminateCreated],
  ['TerminateAlreadyTriggered', TerminateAlreadyTriggered],
];

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  ErrorEnvelope: 'Every error body: the HTTP status as text, its reason phrase, a UTC timestamp without offset and a description.',
  CapacityPolicy: 'A capacity policy record: returned by purchase and configure, and each item of the capacities list.',
  CapacityView: 'The schedule-policy view of describe, in named groups.',
  CapacityPolicyDetails: 'Policy details group of the describe view.',
  CapacityDates: 'Dates group of the describe view.',
  CyberView: 'The disaster-recovery policy view, in named groups.',
  CyberPolicyDetails: 'Policy details group of the cyber view.',
  CyberRegionSettings: 'Region settings group of the cyber view: the primary and the recovery region.',
  CyberDates: 'Dates group of the cyber view.',
  DrEvent: 'A disaster-recovery event; terminate adds one of type TERMINATION.',
  AvailabilityOffering: `An offering of a search; status is one of ${OFFERING_STATUSES.join(', ')} (clients show any other as it comes).`,
  Pricing: 'Prices of the whole window; savingsPercentage is a fraction of the provider price.',
};

const PARAMETER_DESCRIPTIONS: Readonly<Record<string, string>> = {
  [QUERY.instanceType]: 'Instance type to check, e.g. m5.xlarge.',
  [QUERY.platform]: 'Platform of the offering, e.g. Linux/UNIX or Windows.',
  [QUERY.availabilityZone]: 'Availability-zone identifier, e.g. use1-az1.',
  [QUERY.startDate]: `First day of the window, ${SEARCH_LIMITS.dateFormat}.`,
  [QUERY.endDate]: `Last day of the window, ${SEARCH_LIMITS.dateFormat}; not before startDate, window at most ${SEARCH_LIMITS.maxWindowDays} days.`,
  [QUERY.clientUtcOffset]: `Client's UTC offset in hours, ${SEARCH_LIMITS.minUtcOffset} to ${SEARCH_LIMITS.maxUtcOffset}; default ${SEARCH_LIMITS.defaultUtcOffset}.`,
  [QUERY.page]: `Page number from 1; default ${PAGING.defaultPage}. A page past the end is empty, with the true total.`,
  [QUERY.pageSize]: `Records per page, 1 to ${PAGING.maxPageSize}; default ${PAGING.defaultPageSize}.`,
  [QUERY.sortOrder]: `Sort by createdDate, asc or desc; default ${PAGING.defaultSortOrder}.`,
  [QUERY.policyName]: 'Case-insensitive substring of the policy name.',
};

const STATUS_DESCRIPTIONS: Readonly<Partial<Record<EndpointName, string>>> = {
  listCapacities: `Policy status filter, one of ${CAPACITY_STATUSES.join(', ')}; any other value answers 404.`,
  listCyberPolicies: `Policy status filter, one of ${CYBER_STATUSES.join(', ')}; any other value answers 404.`,
};

const PATH_PARAMETER_DESCRIPTIONS: Readonly<Record<string, string>> = {
  cidr_id: 'Policy identifier (cidrId), e.g. sc_1000001.',
  cid_ext: 'External customer identifier, e.g. CUST-1001.',
};

const TAG_DESCRIPTIONS: Readonly<Record<ApiTag, string>> = {
  Accounts: 'Cloud-provider accounts linked to the user.',
  Authentication: 'Sign-in and access tokens.',
  Capacity: 'Reserved compute-capacity policies.',
  Cyber: 'Disaster-recovery (cyber) policies.',
};

const SUCCESS_DESCRIPTIONS: Readonly<Record<number, string>> = { 200: 'OK', 201: 'Created' };

function componentRef(id: string): string {
  return `#/components/schemas/${id}`;
}

/** JSON Schema keywords that belong to a standalone document, not to an OpenAPI component. */
function stripDocumentKeys(schema: JsonObject): JsonObject {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

function buildComponents(): { schemas: Record<string, JsonObject>; ids: Map<z.ZodType, string> } {
  const registry = z.registry<{ id: string }>();
  const ids = new Map<z.ZodType, string>();
  for (const [id, schema] of NAMED) {
    registry.add(schema, { id });
    ids.set(schema, id);
  }
  const output = z.toJSONSchema(registry, { target: 'draft-2020-12', uri: componentRef, unrepresentable: 'any' });
  const schemas: Record<string, JsonObject> = {};
  for (const [id] of NAMED) {
    const schema = stripDocumentKeys(output.schemas[id] as JsonObject);
    const description = DESCRIPTIONS[id];
    schemas[id] = description ? { description, ...schema } : schema;
  }
  return { schemas, ids };
}

function schemaRef(ids: ReadonlyMap<z.ZodType, string>, schema: z.ZodType): JsonObject {
  const id = ids.get(schema);
  if (!id) throw new Error('a schema of the endpoint table is missing from the named components');
  return { $ref: componentRef(id) };
}

function queryParameters(name: EndpointName, query: z.ZodType): JsonObject[] {
  // Query values travel as text, so the input side of each schema is the one to document.
  const schema = z.toJSONSchema(query, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }) as JsonObject;
  const properties = (schema['properties'] ?? {}) as Record<string, JsonObject>;
  const required = new Set((schema['required'] ?? []) as string[]);
  return Object.entries(properties).map(([param, propertySchema]) => ({
    name: param,
    in: 'query',
    required: required.has(param),
    description: (param === QUERY.status ? STATUS_DESCRIPTIONS[name] : PARAMETER_DESCRIPTIONS[param]) ?? param,
    schema: propertySchema,
  }));
}

function errorResponseName(status: number): string {
  return `Error${status}`;
}

function operation(name: EndpointName, def: EndpointDef, ids: ReadonlyMap<z.ZodType, string>): JsonObject {
  const parameters: JsonObject[] = [
    ...def.pathParams.map((param) => ({
      name: param,
      in: 'path',
      required: true,
      description: PATH_PARAMETER_DESCRIPTIONS[param] ?? param,
      schema: { type: 'string' },
    })),
    ...(def.query ? queryParameters(name, def.query) : []),
  ];
  const responses: JsonObject = {};
  for (const [status, schema] of Object.entries(def.responses)) {
    responses[status] = {
      description: SUCCESS_DESCRIPTIONS[Number(status)] ?? 'Success',
      content: { 'application/json': { schema: schemaRef(ids, schema) } },
    };
  }
  for (const status of def.errors) responses[String(status)] = { $ref: `#/components/responses/${errorResponseName(status)}` };
  return {
    operationId: name,
    summary: def.summary,
    tags: [def.tag],
    security: def.auth ? [{ bearerAuth: [] }] : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(def.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: schemaRef(ids, def.body) } } } }
      : {}),
    responses,
  };
}

export interface OpenApiOptions {
  /** The server to list; the sandbox passes its own URL. */
  readonly serverUrl?: string;
}

/** The whole document; the same input always gives the same output, key order included. */
export function buildOpenApiDocument(options: OpenApiOptions = {}): JsonObject {
  const { schemas, ids } = buildComponents();
  const paths: Record<string, Record<string, JsonObject>> = {};
  const errorStatuses = new Set<number>();
  for (const name of Object.keys(ENDPOINTS) as EndpointName[]) {
    const def: EndpointDef = ENDPOINTS[name];
    def.errors.forEach((status) => errorStatuses.add(status));
    const item = (paths[def.path] ??= {});
    item[def.method.toLowerCase()] = operation(name, def, ids);
  }
  const responses: Record<string, JsonObject> = {};
  for (const status of [...errorStatuses].sort((a, b) => a - b)) {
    responses[errorResponseName(status)] = {
      description: REASON[status] ?? String(status),
      content: { 'application/json': { schema: { $ref: componentRef('ErrorEnvelope') } } },
    };
  }
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Reserved-Capacity and Disaster-Recovery Policy API',
      version: API_VERSION,
      description:
        'Sign-in, linked cloud accounts, reserved compute-capacity policies and disaster-recovery (cyber) policies. ' +
        'Generated from the shared zod schemas of Capacity Desk; every "not shown" of the service description is answered as recorded in docs/contract-choices.md of the Capacity Desk repository.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: options.serverUrl ?? DEFAULT_SERVER_URL, description: 'Capacity Desk sandbox' }],
    security: [{ bearerAuth: [] }],
    tags: Object.entries(TAG_DESCRIPTIONS).map(([tag, description]) => ({ name: tag, description })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The access_token of sign-in.' },
      },
      schemas,
      responses,
    },
  };
}
