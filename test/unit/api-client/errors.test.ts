import { describe, expect, it } from 'vitest';
import { classifyNetworkFailure, contractError, errorFromResponse } from '../../../electron/services/api-client/errors.js';
import { CapacityPolicy } from '../../../shared/api/capacity.js';

const envelope = (code: number, description: string) =>
  JSON.stringify({ error: { code: String(code), message: 'x', details: { timestamp: '2026-11-22T01:18:15.123', description } } });
const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('error mapping of answers', () => {
  it('puts a 400 on its field, parsed from "field: rule"', () => {
    expect(errorFromResponse(400, envelope(400, 'vpc: must match ^vpc-.*'))).toEqual({
      kind: 'rejected',
      status: 400,
      message: 'vpc: must match ^vpc-.*',
      description: 'vpc: must match ^vpc-.*',
      field: 'vpc',
    });
    expect(errorFromResponse(400, envelope(400, 'Username and password are required')).field).toBeUndefined();
  });

  it('maps 401, 404, 429 and 5xx by status, keeping the service description', () => {
    expect(errorFromResponse(401, envelope(401, 'Invalid username or password'))).toMatchObject({
      kind: 'unauthorized',
      description: 'Invalid username or password',
    });
    expect(errorFromResponse(404, envelope(404, 'Policy sc_9 not found'))).toMatchObject({ kind: 'not-found', status: 404 });
    expect(errorFromResponse(429, '')).toMatchObject({ kind: 'server', status: 429, message: expect.stringContaining('busy') });
    expect(errorFromResponse(503, 'upstream down')).toMatchObject({ kind: 'server', status: 503 });
    expect(errorFromResponse(418, '')).toMatchObject({ kind: 'contract', status: 418 });
  });

  it('names the first field of a body that breaks its schema', () => {
    const issues = CapacityPolicy.safeParse({ cidrId: 'sc_1' }).error?.issues ?? [];
    expect(contractError(200, issues)).toMatchObject({ kind: 'contract', status: 200, field: 'policyName' });
  });
});

describe('network failures', () => {
  const base = 'https://api.example.com';

  it('says when the service was never reached, so nothing can have happened', () => {
    expect(classifyNetworkFailure(withCode('ECONNREFUSED'), 'http://127.0.0.1:9')).toMatchObject({
      error: { kind: 'offline' },
      delivery: 'not-sent',
      connectionLost: false,
    });
    const dns = new Error('fetch failed', { cause: withCode('ENOTFOUND', 'getaddrinfo ENOTFOUND api.example.com') });
    const dnsFailure = classifyNetworkFailure(dns, base);
    expect(dnsFailure.error.message).toContain('could not be found (DNS)');
    expect(dnsFailure.delivery).toBe('not-sent');
    expect(classifyNetworkFailure(withCode('EAI_AGAIN'), base).error.message).toContain('DNS did not answer');
    expect(classifyNetworkFailure(withCode('UND_ERR_CONNECT_TIMEOUT'), base)).toMatchObject({
      error: { kind: 'timeout' },
      delivery: 'not-sent',
    });
  });

  it('explains TLS failures and how to trust a company root', () => {
    const selfSigned = classifyNetworkFailure(withCode('SELF_SIGNED_CERT_IN_CHAIN'), base);
    expect(selfSigned.error.message).toContain('not trusted on this computer');
    expect(selfSigned.error.message).toContain('NODE_EXTRA_CA_CERTS');
    expect(classifyNetworkFailure(withCode('CERT_HAS_EXPIRED'), base).error.message).toContain('expired');
    expect(classifyNetworkFailure(withCode('ERR_TLS_CERT_ALTNAME_INVALID'), base).error.message).toContain('another name');
  });

  it('explains a proxy that refuses the tunnel', () => {
    const refused = new Error('Proxy response (407) !== 200 when HTTP Tunneling');
    expect(classifyNetworkFailure(refused, base).error.message).toContain('HTTP 407');
  });

  it('treats timeouts after sending and lost connections as "may have happened"', () => {
    expect(classifyNetworkFailure(withCode('UND_ERR_HEADERS_TIMEOUT'), base)).toMatchObject({
      error: { kind: 'timeout' },
      delivery: 'unknown',
      connectionLost: false,
    });
    const deadline = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    expect(classifyNetworkFailure(deadline, base)).toMatchObject({ error: { kind: 'timeout' }, delivery: 'unknown' });
    const lost = classifyNetworkFailure(withCode('UND_ERR_SOCKET', 'other side closed'), base);
    expect(lost).toMatchObject({ error: { kind: 'offline' }, delivery: 'unknown', connectionLost: true });
    // Words for people: no error code in the message.
    expect(lost.error.message).not.toMatch(/UND_ERR|\(E[A-Z]+\)/);
    expect(classifyNetworkFailure(withCode('EHOSTUNREACH'), base).error.message).not.toContain('EHOSTUNREACH');
    expect(classifyNetworkFailure(withCode('ECONNRESET'), base).connectionLost).toBe(true);
  });
});
