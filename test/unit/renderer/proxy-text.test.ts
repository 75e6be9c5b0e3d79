import { describe, expect, it } from 'vitest';
import { proxyText, routeText } from '../../../renderer/lib/proxy-text.js';

const base = 'https://api.example.com';
const UNDICI = { stack: 'undici' } as const;

describe('the proxy line of an environment', () => {
  it('names the proxy and where the setting comes from', () => {
    expect(proxyText({ baseUrl: base, source: 'system', proxy: 'http://proxy.corp:3128', usable: true, route: UNDICI })).toBe('http://proxy.corp:3128 (system settings)');
    expect(proxyText({ baseUrl: base, source: 'environment', proxy: 'http://***@proxy.corp:3128', usable: true, route: UNDICI })).toBe(
      'http://***@proxy.corp:3128 (HTTPS_PROXY / HTTP_PROXY)',
    );
  });

  it('says direct, and whether the OS settings chose it', () => {
    expect(proxyText({ baseUrl: base, source: 'none', proxy: null, usable: true, route: UNDICI })).toBe('none, direct connection');
    expect(proxyText({ baseUrl: base, source: 'system', proxy: null, usable: true, route: UNDICI })).toBe('none, direct connection (system settings)');
  });

  it('carries the note: what was skipped, or why nothing works', () => {
    expect(proxyText({ baseUrl: base, source: 'system', proxy: null, usable: true, note: 'Skipped SOCKS5 s:1080 (SOCKS proxies are not supported).', route: UNDICI })).toBe(
      'none, direct connection (system settings). Skipped SOCKS5 s:1080 (SOCKS proxies are not supported).',
    );
    expect(proxyText({ baseUrl: base, source: 'system', proxy: null, usable: false, note: 'No route.', route: UNDICI })).toBe('none usable (system settings). No route.');
  });
});

describe('the route line of an environment', () => {
  it('says which network stack carries the requests, and why Chromium\'s when it does', () => {
    expect(routeText({ baseUrl: base, source: 'none', proxy: null, usable: true, route: UNDICI })).toBe('Node (undici)');
    const reason = 'the proxy http://proxy.corp:3128 asks for NTLM sign-in, which Chromium\'s network stack answers with your computer sign-in';
    expect(routeText({ baseUrl: base, source: 'system', proxy: null, usable: true, route: { stack: 'electron-net', reason } })).toBe(
      `Chromium's network stack (Electron net), because ${reason}`,
    );
  });
});
