/**
 * The tolerant readers over real HTTP: an answer from a service
 * built from the API description, not from this project's sandbox. One item
 * without a name must not blank the list; an item without an id is left out
 * and counted; a detail view missing a group still reads; money answers stay strict.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../electron/services/api-client/api-client.js';
import { ApiFailure } from '../../../electron/services/api-client/errors.js';
import type { EndpointName } from '../../../shared/api/endpoints.js';

let server: Server | null = null;
let client: ApiClient | null = null;

afterEach(async () => {
  await client?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
  client = null;
});

async function serving(body: unknown): Promise<{ client: ApiClient; drift: { endpoint: EndpointName; findings: readonly string[] }[]; urls: string[] }> {
  const drift: { endpoint: EndpointName; findings: readonly string[] }[] = [];
  const urls: string[] = [];
  server = createServer((req, res) => {
    req.resume();
    urls.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new ApiClient({ baseUrl: `http://127.0.0.1:${port}`, onDrift: (endpoint, findings) => drift.push({ endpoint, findings }) });
  return { client, drift, urls };
}

const fullPolicy = {
  cidrId: 'CIDR-1',
  policyName: 'Batch window',
  cspAccountName: 'acme-prod',
  policyStatus: 'ACTIVE',
  policyOperatingState: 'RUNNING',
  policyInstance: { id: 1, instanceType: 'm5.large', platformCode: 'Linux/UNIX', tenancyCode: 'default', vcpu: 2, memory: 8, gpu: 0, gpuMemory: 0, qty: 4 },
  cspRegion: { regionCode: 'us-east-1', regionType: 'aws', availabilityZoneId: 'use1-az1' },
  createdDate: '2026-01-01T00:00:00Z',
  capacityConfiguration: {
    launchDateTime: '2026-02-01T00:00:00Z',
    endDateTime: '2026-03-01T00:00:00Z',
    autoRenewalEnabled: false,
    frequency: null,
    vpc: 'default',
    securityGroups: 'none',
    amiImage: 'default',
    sshPairKey: 'none',
    ebsVolumeSize: 10,
  },
  pricing: { ourPrice: 100, cspProviderPrice: 130, savings: 30, savingsPercentage: 0.23, creditCardProcessingFee: null, bankAccountProcessingFee: null },
};

describe('lists read item by item', () => {
  it('shows an item without a name and leaves out, and counts, the items without an id', async () => {
    const { client } = await serving({
      data: [fullPolicy, { cidrId: 'CIDR-2', policyStatus: 'ACTIVE' }, { policyName: 'no id' }, { cidrId: '' }],
      page: 1,
      pageSize: 10,
      total: 4,
    });
    const page = await client.read('listCapacities', { token: 't', query: {} });
    expect(page.data.map((row) => row.cidrId)).toEqual(['CIDR-1', 'CIDR-2']);
    expect(page.data[1]?.policyName).toBeUndefined();
    expect(page.data[0]?.pricing?.ourPrice).toBe(100);
    expect(page.skipped).toEqual([
      { index: 2, problems: ['cidrId is missing'] },
      { index: 3, problems: ['cidrId is not valid'] },
    ]);
    expect(page.total).toBe(4);
  });

  it('reads a field of the wrong kind as not known, not as a failed page', async () => {
    const { client } = await serving({ data: [{ ...fullPolicy, pricing: { ...fullPolicy.pricing, ourPrice: 'a lot' }, createdDate: 'yesterday' }], page: 1, pageSize: 10, total: 1 });
    const page = await client.read('listCapacities', { token: 't', query: {} });
    expect(page.data[0]?.pricing?.ourPrice).toBeUndefined();
    expect(page.data[0]?.pricing?.savings).toBe(30);
    expect(page.data[0]?.createdDate).toBeUndefined();
  });

  it('accepts the aliases of contract-choices for the envelope and the fields', async () => {
    const { client } = await serving({ items: [{ policyId: 'CIDR-9', name: 'Aliased' }], page: 1, pageSize: 10, totalCount: 1 });
    const page = await client.read('listCapacities', { token: 't', query: {} });
    expect(page.data).toEqual([{ cidrId: 'CIDR-9', policyName: 'Aliased' }]);
    expect(page.total).toBe(1);
  });

  it('reads linked accounts, cyber policies and offerings the same way', async () => {
    const accounts = await (await serving([{ accountId: 'A1' }, { accountName: 'no id' }])).client.read('linkedAccounts', { token: 't' });
    expect(accounts).toEqual({ items: [{ accountId: 'A1' }], skipped: [{ index: 1, problems: ['accountId is missing'] }] });
  });

  it('fails only when the envelope itself cannot be read, naming the field', async () => {
    const { client } = await serving({ page: 1 });
    const failure = await client.read('listCapacities', { token: 't', query: {} }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiFailure);
    expect((failure as ApiFailure).error).toMatchObject({ kind: 'contract', field: 'data' });
  });
});

describe('detail views read group by group', () => {
  it('keeps the groups that read, and everything else as extra', async () => {
    const { client } = await serving({
      details: { cidrId: 'CIDR-1', policyName: 'Renamed group', policyStatus: 'ACTIVE', policyOperatingState: 'RUNNING', cspAccountName: 'acme' },
      regionSettings: { regionCode: 'us-east-1', regionType: 'aws', availabilityZoneId: 'use1-az1', rack: 'R7' },
      pricing: { ourPrice: 'unknown' },
      contractTerms: { noticeDays: 30, penaltyFee: 12.5 },
    });
    const view = await client.read('describeCapacity', { token: 't', params: { cidr_id: 'CIDR-1' } });
    // `details` is an alias of policyDetails (contract-choices).
    expect(view.policyDetails?.policyName).toBe('Renamed group');
    expect(view.regionSettings?.availabilityZoneId).toBe('use1-az1');
    expect(view.pricing).toBeUndefined();
    expect(view.cidrId).toBe('CIDR-1');
    expect(view.extra).toEqual({ regionSettings: { rack: 'R7' }, pricing: { ourPrice: 'unknown' }, contractTerms: { noticeDays: 30, penaltyFee: 12.5 } });
  });

  it('reads an answer without policyDetails, naming the policy by the id it was asked for', async () => {
    const { client } = await serving({ something: { else: true } });
    const view = await client.read('viewCyberPolicy', { token: 't', params: { cidr_id: 'CYB-1' } });
    expect(view).toEqual({ cidrId: 'CYB-1', extra: { something: { else: true } } });
  });
});

describe('money answers stay strict', () => {
  it('refuses a purchase answer that lacks a field, with the field named', async () => {
    const { pricing: _dropped, ...withoutPricing } = fullPolicy;
    const { client, drift } = await serving(withoutPricing);
    const failure = await client.call('purchaseCapacity', { token: 't', body: { cidrId: 'CIDR-1' } }).catch((error: unknown) => error);
    expect((failure as ApiFailure).error).toMatchObject({ kind: 'contract', field: 'pricing' });
    // The money action may have happened: the caller must re-read, not retry.
    expect((failure as ApiFailure).delivery).toBe('unknown');
    expect(drift).toEqual([{ endpoint: 'purchaseCapacity', findings: ['missing pricing'] }]);
  });
});

describe('drift reports', () => {
  it('name field paths with positions folded, never values', async () => {
    const { client, drift } = await serving({
      data: [{ ...fullPolicy, policyName: undefined, secretNote: 'do-not-log' }, { ...fullPolicy, secretNote: 'x' }],
      page: 1,
      pageSize: 10,
      total: 2,
    });
    await client.read('listCapacities', { token: 't', query: {} });
    expect(drift).toEqual([{ endpoint: 'listCapacities', findings: ['missing data[].policyName', 'unknown field data[].secretNote'] }]);
    expect(JSON.stringify(drift)).not.toContain('do-not-log');
  });

  it('stay silent for an answer exactly as expected', async () => {
    const { client, drift } = await serving({ data: [fullPolicy], page: 1, pageSize: 10, total: 1 });
    await client.read('listCapacities', { token: 't', query: {} });
    expect(drift).toEqual([]);
  });
});

describe('query parameter names', () => {
  it('come from contract-choices (QUERY)', async () => {
    const { client, urls } = await serving({ data: [], page: 2, pageSize: 5, total: 0 });
    await client.read('listCapacities', { token: 't', query: { page: 2, pageSize: 5, sortOrder: 'asc' } });
    expect(urls[0]).toMatch(/[?&]page=2/);
    expect(urls[0]).toMatch(/[?&]pageSize=5/);
  });
});
