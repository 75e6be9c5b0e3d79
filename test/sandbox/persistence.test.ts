import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CapacityPage, CapacityView, type CapacityPolicy } from '../../shared/api/capacity.js';
import { QUERY, TERMINATION_EVENT_TYPE } from '../../shared/api/contract-choices.js';
import { CyberPage, CyberView } from '../../shared/api/cyber.js';
import { ENDPOINTS } from '../../shared/api/endpoints.js';
import { Persister, STATE_FORMAT, writeFileAtomically } from '../../sandbox/state/persistence.js';
import { ALEX, JORDAN, Sandbox, expectBody } from './helpers.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sandbox-state-'));
  file = join(dir, 'state.json');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function firstIn(sandbox: Sandbox, token: string, status: string): Promise<CapacityPolicy> {
  const page = expectBody(
    await sandbox.call('listCapacities', token, { query: { [QUERY.status]: status, [QUERY.pageSize]: 100 } }),
    200,
    CapacityPage,
  );
  return page.data[0] as CapacityPolicy;
}

async function snapshot(sandbox: Sandbox, token: string, ids: readonly string[], cyberId: string) {
  const views = [];
  for (const id of ids) views.push(expectBody(await sandbox.call('describeCapacity', token, { params: { cidr_id: id } }), 200, CapacityView));
  const cyber = expectBody(await sandbox.call('viewCyberPolicy', token, { params: { cidr_id: cyberId } }), 200, CyberView);
  const list = (await sandbox.call('listCapacities', token, { query: { [QUERY.pageSize]: 100 } })).body;
  return { views, cyber, list };
}

describe('persistence with dataFile', () => {
  it('a restart loses nothing: purchases, cancels, configuration, renewal, terminations, the clock', async () => {
    let sandbox = await Sandbox.start({ dataFile: file, seed: 9, scale: 200 });
    let token = await sandbox.signIn(ALEX);
    const bought = await firstIn(sandbox, token, 'READY_FOR_PURCHASE');
    const canceled = await firstIn(sandbox, token, 'ACTIVE');
    expect((await sandbox.call('purchaseCapacity', token, { body: { cidrId: bought.cidrId } })).status).toBe(200);
    expect((await sandbox.call('cancelCapacity', token, { body: { cidrId: canceled.cidrId } })).status).toBe(200);
    await sandbox.call('configureCapacity', token, { body: { cidrId: bought.cidrId, vpc: 'vpc-kept', ebsVolumeSize: 77 } });
    await sandbox.call('setAutoRenewal', token, { body: { cidrId: bought.cidrId, autoRenewalEnabled: true, frequency: 'TWO_WEEKS' } });
    const cid = ALEX.customers[0]?.cidExt as string;
    const cyberItem = expectBody(await sandbox.call('listCyberPolicies', token, { params: { cid_ext: cid } }), 200, CyberPage).data.find(
      (p) => !p.terminationTriggered,
    );
    if (!cyberItem) throw new Error('no cyber policy to terminate');
    const created = await sandbox.call('terminateCyberEvent', token, { params: { cidr_id: cyberItem.cidrId } });
    expect(created.status).toBe(201);
    await sandbox.setClock({ now: '2027-03-01T00:00:00.000Z', frozen: true });
    token = await sandbox.signIn(ALEX);
    const before = await snapshot(sandbox, token, [bought.cidrId, canceled.cidrId], cyberItem.cidrId);
    await sandbox.close();

    const saved = JSON.parse(await readFile(file, 'utf8')) as { format: string; seed: number };
    expect(saved.format).toBe(STATE_FORMAT);
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    // Other options are ignored: the file is the state.
    sandbox = await Sandbox.start({ dataFile: file, seed: 1234, scale: 10 });
    try {
      token = await sandbox.signIn(ALEX);
      const after = await snapshot(sandbox, token, [bought.cidrId, canceled.cidrId], cyberItem.cidrId);
      expect(after).toEqual(before);
      expect(after.views[0]?.configuration).toMatchObject({ vpc: 'vpc-kept', ebsVolumeSize: 77, autoRenewalEnabled: true, frequency: 'TWO_WEEKS' });
      expect(after.views[1]?.policyDetails.policyStatus).toBe('CANCELED');
      expect(after.cyber.disasterRecoveryEvents.filter((e) => e.type === TERMINATION_EVENT_TYPE)).toHaveLength(1);
      expect((await sandbox.control('GET', '/clock')).body).toEqual({ now: '2027-03-01T00:00:00.000Z', frozen: true });
      const again = await sandbox.call('terminateCyberEvent', token, { params: { cidr_id: cyberItem.cidrId } });
      expect(again.status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });

  it('keeps its token-signing key with the state, so a restart keeps everyone signed in; without a file it does not', async () => {
    let sandbox = await Sandbox.start({ dataFile: file, scale: 50 });
    const token = await sandbox.signIn(ALEX);
    await sandbox.close();
    sandbox = await Sandbox.start({ dataFile: file });
    expect((await sandbox.call('linkedAccounts', token)).status).toBe(200);
    await sandbox.close();

    let memoryOnly = await Sandbox.start({ scale: 50 });
    const forgotten = await memoryOnly.signIn(ALEX);
    await memoryOnly.close();
    memoryOnly = await Sandbox.start({ scale: 50 });
    expect((await memoryOnly.call('linkedAccounts', forgotten)).status).toBe(401);
    await memoryOnly.close();
  });

  it('reads a state file written before it kept the key, and signs with a new one', async () => {
    let sandbox = await Sandbox.start({ dataFile: file, scale: 50 });
    const token = await sandbox.signIn(ALEX);
    await sandbox.close();
    const { tokenSecret, ...older } = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(tokenSecret).toEqual(expect.any(String));
    await writeFile(file, JSON.stringify(older));

    sandbox = await Sandbox.start({ dataFile: file });
    expect((await sandbox.call('linkedAccounts', token)).status).toBe(401);
    expect((await sandbox.call('linkedAccounts', await sandbox.signIn(ALEX))).status).toBe(200);
    await sandbox.close();
    const rewritten = JSON.parse(await readFile(file, 'utf8')) as { tokenSecret?: string };
    expect(rewritten.tokenSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rewritten.tokenSecret).not.toBe(tokenSecret);
  });

  it('keeps time-driven changes even after the clock is moved back', async () => {
    let sandbox = await Sandbox.start({ dataFile: file, scale: 120 });
    await sandbox.setClock({ advanceSeconds: 800 * 86_400 });
    let token = await sandbox.signIn(ALEX);
    expect((await sandbox.call('listCapacities', token, { query: { [QUERY.status]: 'ACTIVE' } })).body).toMatchObject({ total: 0 });
    await sandbox.setClock({ advanceSeconds: -800 * 86_400 });
    await sandbox.close();
    sandbox = await Sandbox.start({ dataFile: file });
    try {
      token = await sandbox.signIn(ALEX);
      expect((await sandbox.call('listCapacities', token, { query: { [QUERY.status]: 'ACTIVE' } })).body).toMatchObject({ total: 0 });
    } finally {
      await sandbox.close();
    }
  });

  it('every concurrent terminate answer is durable when it arrives', async () => {
    const sandbox = await Sandbox.start({ dataFile: file, scale: 100 });
    try {
      const token = await sandbox.signIn(ALEX);
      const cid = ALEX.customers[1]?.cidExt as string;
      const item = expectBody(await sandbox.call('listCyberPolicies', token, { params: { cid_ext: cid } }), 200, CyberPage).data.find(
        (p) => !p.terminationTriggered,
      );
      if (!item) throw new Error('no cyber policy to terminate');
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => sandbox.call('terminateCyberEvent', token, { params: { cidr_id: item.cidrId } })),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      const onDisk = await readFile(file, 'utf8');
      expect(onDisk).toContain(item.cidrId);
    } finally {
      await sandbox.close();
    }
  });

  it('moves a damaged state file aside, keeps it, and starts from the seed', async () => {
    await writeFile(file, '{"format": "capacity-desk-sandbox/1", "seed": ');
    const lines: string[] = [];
    const sandbox = await Sandbox.start({ dataFile: file, log: (line) => lines.push(line) });
    try {
      expect(lines[0]).toMatch(/not JSON; moved to .*damaged/);
      const aside = (await readdir(dir)).find((name) => name.includes('.damaged-'));
      expect(await readFile(join(dir, aside as string), 'utf8')).toContain('"seed": ');
      expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ format: STATE_FORMAT });
      await sandbox.signIn(ALEX);
    } finally {
      await sandbox.close();
    }
  });
});

describe('atomic writes', () => {
  it('replaces the file whole and leaves no temp files', async () => {
    await writeFileAtomically(file, 'one');
    await writeFileAtomically(file, 'two');
    expect(await readFile(file, 'utf8')).toBe('two');
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('coalesces concurrent saves, the last one covering every change', async () => {
    let value = 0;
    const persister = new Persister(file, () => String(value));
    const saves: Promise<void>[] = [];
    for (let i = 1; i <= 50; i++) {
      value = i;
      saves.push(persister.save());
    }
    await Promise.all(saves);
    expect(await readFile(file, 'utf8')).toBe('50');
  });
});

describe('graceful close', () => {
  it('finishes a request in flight, then refuses new connections', async () => {
    const sandbox = await Sandbox.start();
    const token = await sandbox.signIn(ALEX);
    // Long enough that the request is surely still in flight when close() is called.
    await sandbox.control('POST', '/faults', { latencyMs: 5_000 });
    const pending = sandbox.call('linkedAccounts', token);
    // Not a fixed pause: on a loaded machine the request may not have arrived 50 ms later.
    await vi.waitFor(async () => expect(((await sandbox.control('GET', '/stats')).body as { linkedAccounts: number }).linkedAccounts).toBe(1), {
      timeout: 4_000,
    });
    const closed = sandbox.close();
    expect((await pending).status).toBe(200);
    await closed;
    await expect(fetch(sandbox.url + ENDPOINTS.linkedAccounts.path)).rejects.toThrow();
  });
});

describe('an account renamed through the controls', () => {
  it('names the account and every policy held in it anew, for its user only, and keeps both across a restart', async () => {
    const prod = ALEX.linkedAccounts.find((account) => account.accountName === 'morgan-prod')!;
    const heldIn = async (sandbox: Sandbox, token: string, name: string) =>
      expectBody(await sandbox.call('listCapacities', token, { query: { [QUERY.pageSize]: 100 } }), 200, CapacityPage).data.filter((p) => p.cspAccountName === name).map((p) => p.cidrId);
    let sandbox = await Sandbox.start({ dataFile: file, seed: 9, scale: 200 });
    let token = await sandbox.signIn(ALEX);
    const held = await heldIn(sandbox, token, prod.accountName);
    expect(held.length).toBeGreaterThan(0);
    expect((await sandbox.control('POST', '/rename-account', { username: ALEX.username, accountId: 'no-such', accountName: 'x' })).status).toBe(404);
    expect((await sandbox.control('POST', '/rename-account', { username: ALEX.username, accountId: prod.accountId, accountName: 'morgan-production' })).status).toBe(200);
    await sandbox.close();

    sandbox = await Sandbox.start({ dataFile: file, seed: 9, scale: 200 });
    try {
      token = await sandbox.signIn(ALEX);
      expect(await heldIn(sandbox, token, 'morgan-production')).toEqual(held);
      expect(await heldIn(sandbox, token, prod.accountName)).toEqual([]);
      const accounts = (await sandbox.call('linkedAccounts', token)).body as Array<{ accountId: string; accountName: string }>;
      expect(accounts.find((account) => account.accountId === prod.accountId)?.accountName).toBe('morgan-production');
      const jordan = (await sandbox.call('linkedAccounts', await sandbox.signIn(JORDAN))).body as Array<{ accountName: string }>;
      expect(jordan.map((account) => account.accountName)).toEqual(JORDAN.linkedAccounts.map((account) => account.accountName));
    } finally {
      await sandbox.close();
    }
  });
});
