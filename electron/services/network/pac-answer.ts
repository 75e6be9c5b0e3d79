/**
 * Reads the answer of Electron's `session.resolveProxy(url)`: the OS proxy
 * settings (manual, PAC file or WPAD) in PAC form, e.g. "PROXY proxy.corp:3128; DIRECT".
 * Pure; test/unit/network/pac-answer.test.ts covers each form.
 *
 * undici takes one proxy per connection pool and cannot fail over, so the
 * first entry this app can use wins: PROXY (HTTP proxy), HTTPS (HTTP proxy
 * spoken to over TLS) or DIRECT. SOCKS entries are skipped with a note: when
 * the list also allows DIRECT the app goes direct, otherwise requests fail
 * with a message saying why, rather than trying a route the settings forbid.
 * Such an answer is marked `socks`: in Electron, SystemProxyDispatcher sends it
 * through Chromium's network stack instead (proxy-route.ts).
 */
export type ProxyDecision =
  | { readonly kind: 'direct'; readonly note?: string }
  | { readonly kind: 'proxy'; readonly url: string; readonly note?: string }
  | { readonly kind: 'unsupported'; readonly message: string; readonly socks?: true };

/** The code of the error a request fails with when the proxy settings leave no usable route (errors.ts: "not sent"). */
export const PROXY_UNUSABLE_CODE = 'CAPACITY_DESK_PROXY_UNUSABLE';

const DEFAULT_PORTS = { PROXY: 80, HTTPS: 443 } as const;

/** host:port, host, [v6]:port or [v6]; null when it is not a plausible proxy address. */
function hostPort(text: string, defaultPort: number): string | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(text);
  if (!match) return null;
  const port = match[2] === undefined ? defaultPort : Number(match[2]);
  if (port < 1 || port > 65_535) return null;
  return `${match[1]}:${port}`;
}

export function parsePacAnswer(answer: string): ProxyDecision {
  const entries = answer
    .split(';')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) return { kind: 'direct', note: 'The system proxy settings gave no answer; connecting directly.' };
  const skipped: string[] = [];
  let socks = false;
  for (const entry of entries) {
    const [keyword = '', address = '', ...rest] = entry.split(/\s+/);
    const kind = keyword.toUpperCase();
    const note = skipped.length > 0 ? `Skipped ${skipped.join(', ')}.` : undefined;
    const withNote = <T extends object>(decision: T): T => (note ? { ...decision, note } : decision);
    if (kind === 'DIRECT' && address === '') return withNote({ kind: 'direct' as const });
    if ((kind === 'PROXY' || kind === 'HTTPS') && rest.length === 0) {
      const target = hostPort(address, DEFAULT_PORTS[kind]);
      if (target) return withNote({ kind: 'proxy' as const, url: `${kind === 'HTTPS' ? 'https' : 'http'}://${target}` });
      skipped.push(`"${entry}" (not a proxy address)`);
      continue;
    }
    if (kind.startsWith('SOCKS')) {
      skipped.push(`${entry} (SOCKS proxies are not supported)`);
      socks = true;
      continue;
    }
    skipped.push(`"${entry}" (not understood)`);
  }
  return {
    kind: 'unsupported',
    message: `The system proxy settings allow no route this app can use: ${skipped.join(', ')}. Ask your IT department for an HTTP proxy, or set HTTPS_PROXY.`,
    // The desktop app can still go through Chromium's network stack, which speaks SOCKS (proxy-route.ts).
    ...(socks ? { socks: true as const } : {}),
  };
}
