/**
 * Every answer docs/contract-choices.md records where the service's own
 * description says "not shown". The real service may differ: each choice lives here once, so a
 * change is one edit, and the client, the sandbox, the forms and the OpenAPI
 * document all follow it.
 */

export const API_PREFIX = '/external/api/v1';

export const CAPACITY_STATUSES = [
  'ACTIVE',
  'READY_FOR_PURCHASE',
  'EXPIRED',
  'CANCELED',
  'FAILED',
  'COMPLETED',
] as const;

export const CYBER_STATUSES = ['READY_FOR_PURCHASE', 'ACTIVE', 'CANCELED', 'COMPLETED'] as const;

export const SORT_ORDERS = ['asc', 'desc'] as const;

export const OFFERING_STATUSES = ['AVAILABLE_ALL', 'AVAILABLE_PARTIAL', 'NOT_AVAILABLE'] as const;

/**
 * Operating states. The spec shows only QUEUED_FOR_START; the others are this
 * project's choice, shown as they come by the client.
 */
export const OPERATING_STATE = {
  notStarted: 'NOT_STARTED',
  queuedForStart: 'QUEUED_FOR_START',
  running: 'RUNNING',
  stopped: 'STOPPED',
} as const;

/** The `type` of the disaster-recovery event that terminate creates. */
export const TERMINATION_EVENT_TYPE = 'TERMINATION';

export const RENEWAL_FREQUENCIES = ['ONE_WEEK', 'TWO_WEEKS', 'ONE_MONTH'] as const;

/** Query parameter names, written once. */
export const QUERY = {
  instanceType: 'instanceType',
  platform: 'platform',
  availabilityZone: 'availabilityZone',
  startDate: 'startDate',
  endDate: 'endDate',
  clientUtcOffset: 'clientUtcOffset',
  page: 'page',
  pageSize: 'pageSize',
  sortOrder: 'sortOrder',
  status: 'status',
  policyName: 'policyName',
} as const;

export const PAGING = {
  defaultPage: 1,
  defaultPageSize: 10,
  maxPageSize: 100,
  defaultSortOrder: 'desc',
} as const;

export const SEARCH_LIMITS = {
  maxWindowDays: 366,
  minUtcOffset: -18,
  maxUtcOffset: 18,
  defaultUtcOffset: 0,
  /** Format of startDate and endDate on the wire. */
  dateFormat: 'MM/dd/yyyy',
  datePattern: /^\d{2}\/\d{2}\/\d{4}$/,
} as const;

export const CONFIG_RULES = {
  vpcPattern: /^vpc-.*/,
  securityGroupPattern: /^sg-[0-9a-fA-F]{8,}$/,
  amiImagePattern: /^ami-.*/,
  ebsMin: 1,
  ebsMax: 16384,
} as const;

/** Fields of the configure body that may change; at least one must be sent. */
export const CONFIGURABLE_FIELDS = ['vpc', 'securityGroup', 'amiImage', 'sshPairKey', 'ebsVolumeSize'] as const;

/** The configuration a purchased policy starts with. */
export const DEFAULT_CONFIGURATION = {
  vpc: 'default',
  amiImage: 'default',
  securityGroups: 'none',
  sshPairKey: 'none',
  ebsVolumeSize: 10,
} as const;

export const TOKEN_LIFETIME_SECONDS = 3600;

/** Rule texts: the part after `<field>: ` in a 400 description. */
export const RULE = {
  required: 'is required',
  nonEmpty: 'must not be empty',
  string: 'must be a string',
  boolean: 'must be a boolean',
  page: 'must be an integer >= 1',
  pageSize: `must be an integer between 1 and ${PAGING.maxPageSize}`,
  sortOrder: 'must be asc or desc',
  date: 'must be a real date in MM/dd/yyyy format',
  endBeforeStart: 'must not be before startDate',
  windowTooLong: `window must be at most ${SEARCH_LIMITS.maxWindowDays} days`,
  utcOffset: `must be a number of hours between ${SEARCH_LIMITS.minUtcOffset} and ${SEARCH_LIMITS.maxUtcOffset}`,
  vpc: 'must match ^vpc-.*',
  securityGroup: 'must match ^sg-[0-9a-fA-F]{8,}$',
  amiImage: 'must match ^ami-.*',
  ebsVolumeSize: `must be an integer between ${CONFIG_RULES.ebsMin} and ${CONFIG_RULES.ebsMax}`,
  atLeastOneConfigField: `at least one of ${CONFIGURABLE_FIELDS.join(', ')} is required`,
  frequency: `must be one of ${RENEWAL_FREQUENCIES.join(', ')}`,
  frequencyRequired: 'is required when autoRenewalEnabled is true',
} as const;

/**
 * Each rule of RULE worded for a person, beside it: RULE stays the service's text
 * (what the sandbox sends and the schemas check), this is what the forms show.
 */
export const RULE_FOR_PEOPLE: Readonly<Record<keyof typeof RULE, string>> = {
  required: 'This is required',
  nonEmpty: 'This cannot be empty',
  string: 'Enter text here',
  boolean: 'Choose yes or no',
  page: 'The page is a whole number, 1 or more',
  pageSize: `The page size is a whole number from 1 to ${PAGING.maxPageSize}`,
  sortOrder: 'Choose ascending or descending',
  date: 'Enter a real date',
  endBeforeStart: 'The end date cannot be before the start date',
  windowTooLong: `The window can be at most ${SEARCH_LIMITS.maxWindowDays} days long`,
  utcOffset: `Enter hours from UTC between ${SEARCH_LIMITS.minUtcOffset} and ${SEARCH_LIMITS.maxUtcOffset}, e.g. 5.5`,
  vpc: 'A VPC id starts with vpc-, like vpc-0a1b2c3d',
  securityGroup: 'A security group id looks like sg-0a1b2c3d (sg- and at least 8 hexadecimal characters)',
  amiImage: 'An image id starts with ami-, like ami-0a1b2c3d',
  ebsVolumeSize: `Enter a whole number from ${CONFIG_RULES.ebsMin} to ${CONFIG_RULES.ebsMax}`,
  atLeastOneConfigField: 'Change at least one setting before saving',
  frequency: 'Choose how often to renew',
  frequencyRequired: 'Choose how often to renew when auto-renewal is on',
};

/** The person-worded message for a rule text of RULE (as the schemas or the service state it), or null for any other text. */
export function ruleForPeople(rule: string): string | null {
  const key = (Object.keys(RULE) as (keyof typeof RULE)[]).find((name) => RULE[name] === rule);
  return key ? RULE_FOR_PEOPLE[key] : null;
}

/** Descriptions of the error envelope and success messages, written once. */
export const MESSAGE = {
  credentialsRequired: 'Username and password are required',
  invalidCredentials: 'Invalid username or password',
  tokenUnusable: 'Access token cannot be processed',
  unexpected: 'An unexpected error occurred. Our team is working on it.',
  bodyUnparsable: 'Request body could not be parsed',
  fieldRule: (field: string, rule: string) => `${field}: ${rule}`,
  policyNotFound: (id: string) => `Policy ${id} not found`,
  customerNotFound: (cidExt: string) => `Customer ${cidExt} not found`,
  statusNotFound: (value: string) => `Policy status ${value} not found`,
  unsupportedInstance: (type: string, platform: string) =>
    `Instance type ${type} with platform ${platform} is not supported`,
  cannotPurchase: (id: string, status: string) => `cidrId: policy ${id} cannot be purchased in status ${status}`,
  cannotCancel: (id: string, status: string) => `cidrId: policy ${id} cannot be canceled in status ${status}`,
  canceled: (id: string, fee: number) => `Policy ${id} canceled successfully. Early cancellation fee: ${fee.toFixed(2)}`,
  autoRenewalUpdated: (id: string) => `Auto-renewal settings updated for policy ${id}`,
  terminationCreated: 'Event row created',
  terminationAlready: 'Termination event already triggered',
  routeNotFound: (method: string, path: string) => `No endpoint ${method} ${path}`,
} as const;

/** Reason phrases of the error envelope's `message`. */
export const REASON: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Reads the fee back out of a cancel message; null when the message has none. */
export function parseCancellationFee(message: string): number | null {
  const match = /Early cancellation fee:\s*(-?\d+(?:\.\d+)?)/.exec(message);
  return match ? Number(match[1]) : null;
}

/** Splits a 400 description of the form `field: rule` into its parts. */
export function parseFieldRule(description: string): { field: string; rule: string } | null {
  const match = /^([A-Za-z][A-Za-z0-9_.]*): (.+)$/s.exec(description);
  return match ? { field: match[1] as string, rule: match[2] as string } : null;
}

/**
 * Other names the real service may give a field this project names; the
 * service's description leaves these open ("not shown"). Readers accept an
 * alias when the project's own name is absent, and the drift report says so,
 * so adapting to the real service is an edit here and nowhere else.
 */
export const FIELD_ALIASES = {
  /** The envelope of both paginated lists. */
  page: { data: ['items', 'content', 'results'], total: ['totalCount', 'totalElements', 'count'], pageSize: ['size', 'limit'] },
  /** A capacity policy: each list item, and purchase's and configure's answer. */
  capacityPolicy: {
    cidrId: ['cidr_id', 'policyId'],
    policyName: ['name'],
    policyStatus: ['status'],
    policyInstance: ['instance'],
    cspRegion: ['region'],
    capacityConfiguration: ['configuration'],
  },
  /** The groups of describe's schedule-policy view. */
  capacityView: {
    policyDetails: ['details', 'policy'],
    regionSettings: ['region', 'cspRegion'],
    instances: ['policyInstances'],
    configuration: ['capacityConfiguration'],
    disasterRecoveryEvents: ['drEvents', 'events'],
  },
  /** A disaster-recovery policy of the cyber list. */
  cyberListItem: { cidrId: ['cidr_id', 'policyId'], policyName: ['name'], policyStatus: ['status'] },
  /** The groups of the cyber view. */
  cyberView: {
    policyDetails: ['details', 'policy'],
    regionSettings: ['regions'],
    instances: ['policyInstances'],
    disasterRecoveryEvents: ['drEvents', 'events'],
  },
  linkedAccount: { accountId: ['id'], accountName: ['name'], linkedAt: ['createdDate', 'linkedDate'] },
  offering: { title: ['name'], status: ['availability'] },
} as const satisfies Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
