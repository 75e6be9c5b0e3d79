import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE, TOKEN_LIFETIME_SECONDS } from '../../shared/api/contract-choices.js';
import { ENDPOINTS } from '../../shared/api/endpoints.js';
import { SANDBOX_USERS } from '../../sandbox/accounts.js';
import { UserDirectory } from '../../sandbox/auth/users.js';
import { ALEX, JORDAN, Sandbox, expectBody, expectError, successSchema } from './helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await Sandbox.start();
});
afterAll(() => sandbox.close());

const signInPath = ENDPOINTS.signIn.path;

describe('seeded users', () => {
  it('are exactly the two of docs/contract-choices.md with their customers', () => {
    expect(SANDBOX_USERS.map((u) => [u.username, u.password, u.customers.map((c) => c.cidExt)])).toEqual([
      ['alex.morgan@example.com', 'sandbox-demo-1', ['CUST-1001', 'CUST-1002']],
      ['jordan.lee@example.com', 'sandbox-demo-2', ['CUST-2001']],
    ]);
  });
});

describe('the seeded users\' password hashes', () => {
  it('are made once per process: every sandbox it starts shares one directory, which still tells right from wrong', async () => {
    // A second sandbox in the same process (each app a test starts has one) signs the users in without hashing again.
    const second = await Sandbox.start();
    try {
      const answer = await second.call('signIn', null, { body: { username: ALEX.username, password: ALEX.password } });
      expect(answer.status).toBe(200);
    } finally {
      await second.close();
    }
    const directory = await UserDirectory.create();
    expect(await UserDirectory.create()).toBe(directory);
    expect(await directory.authenticate(ALEX.username, ALEX.password)).toEqual(ALEX);
    expect(await directory.authenticate(ALEX.username, JORDAN.password)).toBeNull();
    expect(await directory.authenticate('nobody@example.com', ALEX.password)).toBeNull();
    // Another list of users is a directory of its own.
    const jordanOnly = [JORDAN];
    const other = await UserDirectory.create(jordanOnly);
    expect(other).not.toBe(directory);
    expect(await UserDirectory.create(jordanOnly)).toBe(other);
  });
});

describe('POST sign-in', () => {
  it('issues an HS256 JWT that lasts 3600 s', async () => {
    const answer = await sandbox.call('signIn', null, { body: { username: ALEX.username, password: ALEX.password } });
    const token = expectBody(answer, 200, successSchema('signIn')) as { access_token: string; token_type: string; expires_in: number };
    expect(token.token_type).toBe('Bearer');
    expect(token.expires_in).toBe(TOKEN_LIFETIME_SECONDS);
    const [header, payload] = token.access_token.split('.');
    expect(JSON.parse(Buffer.from(header as string, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString()) as { sub: string; iat: number; exp: number };
    expect(claims.sub).toBe(ALEX.username);
    expect(claims.exp - claims.iat).toBe(TOKEN_LIFETIME_SECONDS);
  });

  it.each([
    ['no username', { password: 'x' }],
    ['no password', { username: ALEX.username }],
    ['empty username', { username: '', password: 'x' }],
    ['empty password', { username: ALEX.username, password: '' }],
    ['an empty object', {}],
    ['a number as username', { username: 42, password: 'x' }],
  ])('answers 400 for %s', async (_, body) => {
    expectError(await sandbox.call('signIn', null, { body }), 400, MESSAGE.credentialsRequired);
  });

  it('answers 400 when the body is not JSON', async () => {
    expectError(await sandbox.call('signIn', null, { rawBody: '{username:' }), 400, MESSAGE.bodyUnparsable);
  });

  it.each([
    ['a wrong password', { username: ALEX.username, password: 'sandbox-demo-2' }],
    ['an unknown user', { username: 'nobody@example.com', password: 'sandbox-demo-1' }],
    ["another user's password", { username: JORDAN.username, password: ALEX.password }],
  ])('answers 401 for %s', async (_, body) => {
    expectError(await sandbox.call('signIn', null, { body }), 401, MESSAGE.invalidCredentials);
  });

  it('needs no token', async () => {
    const answer = await sandbox.raw('POST', signInPath, {
      body: JSON.stringify({ username: JORDAN.username, password: JORDAN.password }),
      headers: { authorization: 'Bearer garbage' },
    });
    expect(answer.status).toBe(200);
  });
});

describe('GET my-linked-accounts', () => {
  it('lists several accounts of several providers per user, the same each time', async () => {
    for (const user of [ALEX, JORDAN]) {
      const token = await sandbox.signIn(user);
      const first = expectBody(await sandbox.call('linkedAccounts', token), 200, successSchema('linkedAccounts')) as {
        provider: string;
      }[];
      expect(first.length).toBeGreaterThanOrEqual(3);
      expect(new Set(first.map((a) => a.provider)).size).toBeGreaterThanOrEqual(2);
      expect((await sandbox.call('linkedAccounts', token)).body).toEqual(first);
      expect(first).toEqual(user.linkedAccounts);
    }
  });
});

describe('bearer tokens', () => {
  const path = ENDPOINTS.linkedAccounts.path;
  const unusable = async (authorization?: string) =>
    expectError(
      await sandbox.raw('GET', path, authorization === undefined ? {} : { headers: { authorization } }),
      401,
      MESSAGE.tokenUnusable,
    );

  it('401 without a token', () => unusable());
  it('401 for a malformed token', () => unusable('Bearer not-a-jwt'));
  it('401 for a non-Bearer scheme', async () => unusable(`Basic ${await sandbox.signIn()}`));
  it('401 for a tampered payload', async () => {
    const [h, , s] = (await sandbox.signIn()).split('.');
    const payload = Buffer.from(JSON.stringify({ sub: JORDAN.username, iat: 0, exp: 9_999_999_999, jti: 'x' })).toString('base64url');
    await unusable(`Bearer ${h}.${payload}.${s}`);
  });
  it('401 for a token signed with another secret', async () => {
    const h = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
    const p = Buffer.from(JSON.stringify({ sub: ALEX.username, iat: 0, exp: 9_999_999_999, jti: 'x' })).toString('base64url');
    const s = createHmac('sha256', 'guessed-secret').update(`${h}.${p}`).digest('base64url');
    await unusable(`Bearer ${h}.${p}.${s}`);
  });
  it('401 for alg none', async () => {
    const h = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const p = Buffer.from(JSON.stringify({ sub: ALEX.username, iat: 0, exp: 9_999_999_999, jti: 'x' })).toString('base64url');
    await unusable(`Bearer ${h}.${p}.`);
  });
  it('401 once the sandbox clock passes expiry, not before', async () => {
    const token = await sandbox.signIn();
    await sandbox.setClock({ advanceSeconds: TOKEN_LIFETIME_SECONDS - 60 });
    expect((await sandbox.call('linkedAccounts', token)).status).toBe(200);
    await sandbox.setClock({ advanceSeconds: 120 });
    await unusable(`Bearer ${token}`);
    await sandbox.reset();
  });
});

describe('unknown routes and failures', () => {
  it('404 envelope for an unknown path', async () => {
    expectError(await sandbox.raw('GET', '/external/api/v1/nothing-here'), 404, MESSAGE.routeNotFound('GET', '/external/api/v1/nothing-here'));
  });
  it('405 envelope with Allow for a known path and another method', async () => {
    const answer = await sandbox.raw('DELETE', ENDPOINTS.purchaseCapacity.path);
    expectError(answer, 405, MESSAGE.routeNotFound('DELETE', ENDPOINTS.purchaseCapacity.path));
    expect(answer.headers.get('allow')).toBe('POST');
  });
  it('a malformed percent-escape in a path parameter names no resource', async () => {
    const token = await sandbox.signIn();
    const answer = await sandbox.raw('GET', '/external/api/v1/flexcompute/describe/%E0%A4%A', { headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(404);
  });
  it('500 envelope when a handler throws', async () => {
    const token = await sandbox.signIn();
    await sandbox.control('POST', '/faults', { pathPrefix: ENDPOINTS.linkedAccounts.path, throwRate: 1, throwCount: 1 });
    expectError(await sandbox.call('linkedAccounts', token), 500, MESSAGE.unexpected);
    expect((await sandbox.call('linkedAccounts', token)).status).toBe(200);
    await sandbox.control('DELETE', '/faults');
  });
});
