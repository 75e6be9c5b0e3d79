/**
 * A "drifting" service: an HTTP proxy in front of a real sandbox
 * that rewrites each JSON answer the way an independently built server that
 * follows the API description might, driven by this project's own OpenAPI
 * document (generated from the zod schemas): it keeps only required fields,
 * drops fields a list row does not strictly need, adds unknown fields, renames
 * the "not shown" groups of the detail views, slips in a list item without an
 * id and reorders every object's keys. What it does to each answer is drawn by
 * fast-check from a seed, so a failing run can be replayed.
 *
 * Money answers are left as they are unless `malformMoney` is on: then their
 * answers lose a required field, and the app must refuse them clearly.
 *
 * Run by hand: `npx tsx test/support/drifting-proxy.ts <target-url> [seed]`,
 * then add an environment whose base URL is the printed address.
 */
import fc from 'fast-check';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildOpenApiDocument } from '../../shared/api/openapi.js';
import { compilePathMatcher } from '../../shared/api/endpoints.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
}

/** What to do to one answer. */
export interface DriftPlan {
  /** Drop every field the OpenAPI document does not list as required. */
  readonly keepOnlyRequired: boolean;
  /** Fields dropped from each list item (never its id), by name. */
  readonly dropFromItems: readonly string[];
  /** Unknown fields added to objects (name and value). */
  readonly unknownFields: ReadonlyArray<readonly [string, Json]>;
  /** Rename the top-level groups of describe and the cyber view (the "not shown" groups). */
  readonly renameGroups: boolean;
  /** Insert a list item without its id. */
  readonly itemWithoutId: boolean;
  /** Seed of the key shuffle. */
  readonly shuffleSeed: number;
}

/** The operations read tolerantly, with the id each list item cannot do without. */
const LIST_IDS: Readonly<Record<string, { readonly id: string; readonly inData: boolean }>> = {
  listCapacities: { id: 'cidrId', inData: true },
  listCyberPolicies: { id: 'cidrId', inData: true },
  linkedAccounts: { id: 'accountId', inData: false },
  searchCapacity: { id: 'title', inData: false },
};
const DETAIL_OPERATIONS = new Set(['describeCapacity', 'viewCyberPolicy']);
const MONEY_OPERATIONS = new Set(['purchaseCapacity', 'configureCapacity']);
const ITEM_FIELDS = [
  'policyName',
  'policyStatus',
  'cspAccountName',
  'policyOperatingState',
  'policyInstance',
  'cspRegion',
  'createdDate',
  'capacityConfiguration',
  'pricing',
  'accountName',
  'provider',
  'status',
  'linkedAt',
  'startDateTime',
  'endDateTime',
] as const;

/** Plans as fast-check draws them: every kind of drift, alone and together. */
export const driftPlanArbitrary: fc.Arbitrary<DriftPlan> = fc.record({
  keepOnlyRequired: fc.boolean(),
  dropFromItems: fc.subarray([...ITEM_FIELDS]),
  unknownFields: fc.array(fc.tuple(fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,11}$/), fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>), {
    maxLength: 3,
  }),
  renameGroups: fc.boolean(),
  itemWithoutId: fc.boolean(),
  shuffleSeed: fc.integer(),
});

/** The plan that drifts in every way at once (the E2E run uses it, so every view meets all of it). */
export const EVERY_DRIFT: DriftPlan = {
  keepOnlyRequired: true,
  dropFromItems: ['policyName', 'pricing', 'provider', 'linkedAt', 'status', 'createdDate'],
  unknownFields: [
    ['contractTerms', { noticeDays: 30, penaltyFee: 12.5, signedOn: '2026-01-15T09:30:00Z' }],
    ['regionNotes', [{ zone: 'use1-az1', capacityPercent: 0.4 }]],
  ],
  renameGroups: true,
  itemWithoutId: true,
  shuffleSeed: 7,
};

export interface DriftingProxyOptions {
  /** The real service (the sandbox's URL). */
  readonly target: string;
  /** A fixed plan for every answer; by default each answer draws its own from `seed`. */
  readonly plan?: DriftPlan;
  readonly seed?: number;
  /** Answers of purchase and configure lose their `pricing`. */
  readonly malformMoney?: boolean;
  /** Added to every request it passes on (the built-in sandbox's access secret). */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface DriftingProxy {
  readonly url: string;
  /** Changes the plan for the next answers (property tests draw one per run). */
  setPlan(plan: DriftPlan | undefined): void;
  setMalformMoney(on: boolean): void;
  close(): Promise<void>;
}

export async function startDriftingProxy(options: DriftingProxyOptions): Promise<DriftingProxy> {
  const document = buildOpenApiDocument() as unknown as {
    paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content?: Record<string, { schema: SchemaNode }> }> }>>;
    components: { schemas: Record<string, SchemaNode> };
  };
  const operations = Object.entries(document.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), match: compilePathMatcher(template), operation })),
  );
  let plan = options.plan;
  let malformMoney = options.malformMoney ?? false;
  let counter = options.seed ?? 1;
  const target = options.target.replace(/\/+$/, '');

  const server: Server = createServer((req, res) => {
    void relay(req, res).catch((error: unknown) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`drifting proxy: ${String(error)}`);
    });
  });

  async function relay(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers: Record<string, string> = { ...options.headers };
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) headers[name] = value;
    }
    const answer = await fetch(target + (req.url ?? '/'), {
      method: req.method ?? 'GET',
      headers,
      ...(body.length > 0 ? { body } : {}),
    });
    const text = await answer.text();
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    const found = operations.find((candidate) => candidate.method === req.method && candidate.match(path) !== null);
    const schema = found?.operation.responses[String(answer.status)]?.content?.['application/json']?.schema;
    let out = text;
    if (found && schema && answer.status < 300) {
      const json = JSON.parse(text) as Json;
      const name = found.operation.operationId;
      if (MONEY_OPERATIONS.has(name)) {
        if (malformMoney && json && typeof json === 'object' && !Array.isArray(json)) delete json.pricing;
        out = JSON.stringify(json);
      } else if (LIST_IDS[name] || DETAIL_OPERATIONS.has(name)) {
        const drawn = plan ?? (fc.sample(driftPlanArbitrary, { seed: counter++, numRuns: 1 })[0] as DriftPlan);
        out = JSON.stringify(drift(name, json, schema, drawn, document.components.schemas));
      }
    }
    const passHeaders: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name)) passHeaders[name] = value;
    });
    res.writeHead(answer.status, passHeaders);
    res.end(out);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setPlan: (next) => {
      plan = next;
    },
    setMalformMoney: (on) => {
      malformMoney = on;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Rewrites one answer of an operation as the plan says. */
export function drift(operation: string, json: Json, schema: SchemaNode, plan: DriftPlan, components: Record<string, SchemaNode>): Json {
  const random = seeded(plan.shuffleSeed);
  const resolve = (node: SchemaNode | undefined): SchemaNode | undefined => {
    let current = node;
    for (let depth = 0; current?.$ref && depth < 10; depth += 1) current = components[current.$ref.split('/').pop() as string];
    return current;
  };
  const walk = (node: SchemaNode | undefined, value: Json): Json => {
    const resolved = resolve(node);
    if (Array.isArray(value)) return value.map((item) => walk(resolved?.items, item));
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, Json> = {};
    const properties = resolved?.properties ?? {};
    const required = new Set(resolved?.required ?? Object.keys(properties));
    for (const [key, item] of Object.entries(value)) {
      if (plan.keepOnlyRequired && properties[key] && !required.has(key)) continue;
      out[key] = walk(properties[key], item);
    }
    // Never a name the document knows here: an unknown field must stay unknown.
    for (const [name, extra] of plan.unknownFields) out[properties[name] || name in value ? `${name}Extra` : name] = extra;
    return shuffle(out, random);
  };

  let result = walk(schema, json);
  const list = LIST_IDS[operation];
  if (list) {
    const items = list.inData ? (result as Record<string, Json>).data : result;
    if (Array.isArray(items)) {
      const reduced = items.map((item) => {
        if (!item || typeof item !== 'object' || Array.isArray(item)) return item;
        const copy = { ...item };
        for (const field of plan.dropFromItems) if (field !== list.id) delete copy[field];
        return copy;
      });
      if (plan.itemWithoutId && reduced.length > 0) {
        const sample = { ...(reduced[0] as Record<string, Json>) };
        delete sample[list.id];
        reduced.splice(Math.min(1, reduced.length), 0, sample);
      }
      result = list.inData ? { ...(result as Record<string, Json>), data: reduced } : reduced;
    }
  }
  if (DETAIL_OPERATIONS.has(operation) && plan.renameGroups && result && typeof result === 'object' && !Array.isArray(result)) {
    // Names that no alias of contract-choices covers: the app meets them as unknown groups.
    const renamed: Record<string, Json> = {};
    for (const [key, value] of Object.entries(result)) renamed[key === 'pricing' || key === 'configuration' ? `${key}Info` : key] = value;
    result = shuffle(renamed, random);
  }
  return result;
}

function shuffle(object: Record<string, Json>, random: () => number): Record<string, Json> {
  const keys = Object.keys(object);
  for (let i = keys.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [keys[i], keys[j]] = [keys[j] as string, keys[i] as string];
  }
  return Object.fromEntries(keys.map((key) => [key, object[key] as Json]));
}

/** A small deterministic generator, so a plan's shuffle replays exactly. */
function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const [target, seed] = process.argv.slice(2);
  if (!target) throw new Error('usage: tsx test/support/drifting-proxy.ts <target-url> [seed]');
  void startDriftingProxy({ target, ...(seed ? { seed: Number(seed) } : {}) }).then((proxy) => {
    console.log(`drifting proxy for ${target} at ${proxy.url}`);
  });
}
