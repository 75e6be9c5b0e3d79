import { describe, expect, it } from 'vitest';
import { errorFromNetwork, errorFromResponse } from '../../../electron/services/api-client/errors.js';

const envelope = (code: number, description: string) =>
  JSON.stringify({ error: { code: String(code), message: 'x', details: { timestamp: '2026-11-22T01:18:15.123', description } } });

describe('error mapping', () => {
  it('puts a 400 on its field, parsed from "field: rule"', () => {
    expect(errorFromResponse(400, envelope(400, 'vpc: must match ^vpc-.*'))).toEqual({
      kind: 'validation',
      status: 400,
      message: 'vpc: must match ^vpc-.*',
      description: 'vpc: must match ^vpc-.*',
      field: 'vpc',
    });
    expect(errorFromResponse(400, envelope(400, 'Username and password are required')).field).toBeUndefined();
  });

  it('maps 401, 404 and 5xx by status, keeping the service description', () => {
    expect(errorFromResponse(401, envelope(401, 'Invalid username or password'))).toMatchObject({
      kind: 'unauthorized',
      description: 'Invalid username or password',
    });
    expect(errorFromResponse(404, envelope(404, 'Policy sc_9 not found'))).toMatchObject({ kind: 'not-found', status: 404 });
    expect(errorFromResponse(503, 'upstream down')).toMatchObject({ kind: 'server', status: 503 });
    expect(errorFromResponse(418, '')).toMatchObject({ kind: 'contract', status: 418 });
  });

  it('names network failures in plain words', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(errorFromNetwork(refused, 'http://127.0.0.1:9')).toMatchObject({ kind: 'offline' });
    const dns = new Error('fetch failed', { cause: Object.assign(new Error('getaddrinfo'), { code: 'ENOTFOUND' }) });
    expect(errorFromNetwork(dns, 'https://api.example.com').message).toContain('DNS');
    const headers = Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(errorFromNetwork(headers, 'https://api.example.com')).toMatchObject({ kind: 'timeout' });
    const tls = Object.assign(new Error('self-signed'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    expect(errorFromNetwork(tls, 'https://api.example.com').message).toContain('certificate');
  });
});
