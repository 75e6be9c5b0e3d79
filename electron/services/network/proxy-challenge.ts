/**
 * What a proxy's 407 asks for, and whether this app can answer it.
 *
 * undici answers no proxy challenge by itself: it sends Basic credentials only
 * when they are in HTTPS_PROXY, and cannot speak NTLM, Negotiate or Kerberos,
 * which need the Windows (or Kerberos) sign-in of the person at the computer.
 * Chromium's network stack (Electron's `net`) can: it uses that sign-in, as the
 * updater's downloads already do. So in Electron such an origin is sent through
 * `net` instead (system-proxy-dispatcher.ts); anywhere else the request fails,
 * as not sent, saying what the proxy wants. Pure: test/unit/network/proxy-challenge.test.ts.
 */

/** Schemes only the OS sign-in can meet (RFC 4559 Negotiate, NTLM, and Kerberos as some proxies name it). */
const INTEGRATED_SCHEMES = new Set(['ntlm', 'negotiate', 'kerberos']);

/**
 * The scheme names of one or more Proxy-Authenticate values, lower-cased, in order:
 * `NTLM`, `Basic realm="a, b", Negotiate` -> ['ntlm', 'basic', 'negotiate']. Auth
 * parameters (name=value, quoted strings with commas) and token68 blobs are not schemes.
 */
export function challengeSchemes(header: string | readonly string[] | undefined): string[] {
  const values = header === undefined ? [] : typeof header === 'string' ? [header] : header;
  const schemes: string[] = [];
  for (const value of values) {
    // Quoted strings may hold commas and '=': blank them first, so only the structure is left.
    const bare = value.replace(/"(?:[^"\\]|\\.)*"/g, '""');
    for (const element of bare.split(',')) {
      const text = element.trim();
      // "realm=x" after a comma is a parameter of the scheme before it, not a scheme.
      if (/^[A-Za-z0-9!#$%&'*+.^_`|~-]+\s*=/.test(text)) continue;
      const match = /^([A-Za-z0-9!#$%&'*+.^_`|~-]+)(?:\s|$)/.exec(text);
      if (match) schemes.push(match[1]!.toLowerCase());
    }
  }
  return [...new Set(schemes)];
}

export type ChallengeRoute =
  | { readonly kind: 'net'; readonly reason: string }
  | { readonly kind: 'fail'; readonly message: string };

/**
 * Where a request goes after its proxy answered 407 with these schemes.
 * `netAvailable`: Electron's network stack is there (the desktop app, not the browser host).
 */
export function routeForChallenge(proxy: string, schemes: readonly string[], netAvailable: boolean): ChallengeRoute {
  const integrated = schemes.filter((scheme) => INTEGRATED_SCHEMES.has(scheme));
  const named = schemes.length > 0 ? schemes.map(schemeName).join(', ') : 'no scheme it names';
  if (integrated.length > 0 && netAvailable) {
    return { kind: 'net', reason: `the proxy ${proxy} asks for ${integrated.map(schemeName).join('/')} sign-in, which Chromium's network stack answers with your computer sign-in` };
  }
  if (integrated.length > 0) {
    return {
      kind: 'fail',
      message: `The proxy ${proxy} asks for ${named} sign-in, which only the desktop app can answer (through Chromium's network stack). Use the desktop app, or ask IT for a proxy that takes a user name and password and put them in HTTPS_PROXY.`,
    };
  }
  return {
    kind: 'fail',
    message: `The proxy ${proxy} asks for authentication (HTTP 407, ${named}). Put the proxy credentials in HTTPS_PROXY (http://user:password@proxy:port) or ask IT.`,
  };
}

function schemeName(scheme: string): string {
  const known: Readonly<Record<string, string>> = { ntlm: 'NTLM', negotiate: 'Negotiate', kerberos: 'Kerberos', basic: 'Basic', digest: 'Digest' };
  return Object.hasOwn(known, scheme) ? known[scheme]! : scheme;
}
