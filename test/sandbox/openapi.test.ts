import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, type EndpointName } from '../../shared/api/endpoints.js';
import { buildOpenApiDocument } from '../../shared/api/openapi.js';
import { OPENAPI_FILE, renderOpenApi } from '../../scripts/gen-openapi.js';
import { Sandbox } from './helpers.js';

type Doc = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, { $ref?: string; content?: unknown }>; parameters?: { name: string; in: string }[] }>>;
  components: { schemas: Record<string, unknown>; responses: Record<string, unknown> };
};

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await Sandbox.start({ controls: false });
});
afterAll(() => sandbox.close());

describe('OpenAPI document', () => {
  it('docs/openapi.json is up to date (run: npx tsx scripts/gen-openapi.ts)', async () => {
    expect(await readFile(OPENAPI_FILE, 'utf8')).toBe(renderOpenApi());
  });

  it('is served at /openapi.json without a token, naming the sandbox as its server', async () => {
    const answer = await sandbox.raw('GET', '/openapi.json');
    expect(answer.status).toBe(200);
    const served = answer.body as Doc;
    expect(served.servers[0]?.url).toBe(sandbox.url);
    expect(served).toEqual(buildOpenApiDocument({ serverUrl: sandbox.url }));
  });

  it('describes every endpoint of the table, each status, each parameter', () => {
    const doc = buildOpenApiDocument() as unknown as Doc;
    expect(doc.openapi).toBe('3.1.0');
    for (const name of Object.keys(ENDPOINTS) as EndpointName[]) {
      const def = ENDPOINTS[name];
      const op = doc.paths[def.path]?.[def.method.toLowerCase()];
      expect(op?.operationId, name).toBe(name);
      const statuses = [...Object.keys(def.responses), ...def.errors.map(String)].sort();
      expect(Object.keys(op?.responses ?? {}).sort()).toEqual(statuses);
      for (const status of def.errors) expect(op?.responses[String(status)]?.$ref).toBe(`#/components/responses/Error${status}`);
      for (const param of def.pathParams) expect(op?.parameters?.some((p) => p.name === param && p.in === 'path')).toBe(true);
    }
    for (const group of ['CapacityView', 'CapacityPolicyDetails', 'CapacityDates', 'CyberView', 'CyberPolicyDetails', 'CyberRegionSettings', 'CyberDates', 'DrEvent', 'ErrorEnvelope'])
      expect(doc.components.schemas).toHaveProperty(group);
  });

  it('every $ref resolves', () => {
    const doc = buildOpenApiDocument();
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of refs) {
      const pointer = (JSON.parse(`{${ref}}`) as { $ref: string }).$ref;
      let node: unknown = doc;
      for (const part of pointer.slice(2).split('/')) node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
      expect(node, pointer).toBeDefined();
    }
  });

  it('passes redocly lint', async () => {
    const bin = fileURLToPath(new URL('../../node_modules/.bin/redocly', import.meta.url));
    const { stdout, stderr } = await promisify(execFile)(bin, ['lint', OPENAPI_FILE, '--format=stylish'], { timeout: 60_000 });
    expect(`${stdout}${stderr}`).toMatch(/valid/i);
    expect(`${stdout}${stderr}`).not.toMatch(/\berror\b/i);
    // Lint warnings, not the CLI's own banners (e.g. its Node version notice).
    expect(`${stdout}${stderr}`).not.toMatch(/You have \d+ warnings?/i);
  });
});
