import { describe, expect, it } from 'vitest';
import { parsePacAnswer } from '../../../electron/services/network/pac-answer.js';

describe('the answer of the OS proxy resolver (PAC form)', () => {
  it('DIRECT: no proxy', () => {
    expect(parsePacAnswer('DIRECT')).toEqual({ kind: 'direct' });
    expect(parsePacAnswer(' direct ')).toEqual({ kind: 'direct' });
  });

  it('PROXY: an HTTP proxy, port 80 when none is given', () => {
    expect(parsePacAnswer('PROXY proxy.corp:3128')).toEqual({ kind: 'proxy', url: 'http://proxy.corp:3128' });
    expect(parsePacAnswer('PROXY proxy.corp')).toEqual({ kind: 'proxy', url: 'http://proxy.corp:80' });
    expect(parsePacAnswer('PROXY [fd00::1]:8080')).toEqual({ kind: 'proxy', url: 'http://[fd00::1]:8080' });
  });

  it('HTTPS: a proxy spoken to over TLS, port 443 when none is given', () => {
    expect(parsePacAnswer('HTTPS secure-proxy.corp:8443')).toEqual({ kind: 'proxy', url: 'https://secure-proxy.corp:8443' });
    expect(parsePacAnswer('HTTPS secure-proxy.corp')).toEqual({ kind: 'proxy', url: 'https://secure-proxy.corp:443' });
  });

  it('several entries: the first usable one wins (undici cannot fail over)', () => {
    expect(parsePacAnswer('PROXY a.corp:3128; PROXY b.corp:3128; DIRECT')).toEqual({ kind: 'proxy', url: 'http://a.corp:3128' });
    expect(parsePacAnswer('DIRECT; PROXY a.corp:3128')).toEqual({ kind: 'direct' });
  });

  it('SOCKS: unsupported, said so; direct when the list allows it, else a clear failure', () => {
    expect(parsePacAnswer('SOCKS5 socks.corp:1080; DIRECT')).toEqual({
      kind: 'direct',
      note: 'Skipped SOCKS5 socks.corp:1080 (SOCKS proxies are not supported).',
    });
    expect(parsePacAnswer('SOCKS socks.corp:1080; PROXY web.corp:3128')).toMatchObject({ kind: 'proxy', url: 'http://web.corp:3128', note: expect.stringContaining('SOCKS') });
    const only = parsePacAnswer('SOCKS5 socks.corp:1080; SOCKS4 socks.corp:1081');
    expect(only.kind).toBe('unsupported');
    expect(only.kind === 'unsupported' && only.message).toMatch(/SOCKS5 socks\.corp:1080.*SOCKS4 socks\.corp:1081.*HTTPS_PROXY/);
  });

  it('garbage: never a proxy made up from it; a clear failure naming it', () => {
    for (const answer of ['PROXY', 'PROXY a b', 'PROXY host:99999', 'PROXY http://x:1', 'FOO bar', 'DIRECT now']) {
      const decision = parsePacAnswer(answer);
      expect(decision.kind, answer).toBe('unsupported');
      expect(decision.kind === 'unsupported' && decision.message, answer).toContain(answer);
    }
    expect(parsePacAnswer('PROXY ;;DIRECT')).toMatchObject({ kind: 'direct', note: expect.stringContaining('not a proxy address') });
  });

  it('an empty answer: direct, with a note', () => {
    expect(parsePacAnswer('')).toEqual({ kind: 'direct', note: 'The system proxy settings gave no answer; connecting directly.' });
    expect(parsePacAnswer(' ; ')).toMatchObject({ kind: 'direct' });
  });
});
