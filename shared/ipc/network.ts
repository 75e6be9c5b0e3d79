import { z } from 'zod';

/** How the main process reaches the network, per environment, for the person's and support's eyes. */

/** How requests to one environment leave this computer, as decided for its base URL. */
export const ProxyInUse = z.object({
  baseUrl: z.string(),
  /** system: the OS proxy settings (Electron); environment: HTTPS_PROXY / HTTP_PROXY (browser host, or set explicitly); none: direct. */
  source: z.enum(['system', 'environment', 'none']),
  /** The proxy (credentials removed), or null for a direct connection. */
  proxy: z.string().nullable(),
  /** False when the proxy settings leave no route this app can use (requests fail with `note`). */
  usable: z.boolean(),
  /** What was skipped or why nothing works, in plain words. */
  note: z.string().optional(),
  /**
   * Which network stack carries the requests: undici (Node's, the default), or
   * Chromium's through Electron's `net` (a proxy that wants NTLM/Negotiate/Kerberos
   * sign-in, or a SOCKS proxy), with why.
   */
  route: z.discriminatedUnion('stack', [z.object({ stack: z.literal('undici') }), z.object({ stack: z.literal('electron-net'), reason: z.string() })]),
});
export type ProxyInUse = z.infer<typeof ProxyInUse>;

/** How the main process reaches the network, for the user's (and support's) eyes. */
export const NetworkStatus = z.object({
  /** The proxy in use (credentials removed), or null for direct connections. */
  proxy: z.string().nullable(),
  noProxy: z.string().nullable(),
  /** NODE_EXTRA_CA_CERTS names a file of extra trusted certificates. */
  extraCaCertsFile: z.string().nullable(),
  /** Whether the OS trust store is trusted too (needs Node 22.15+ or 23.10+; see README, "Corporate networks"). */
  systemCa: z.enum(['on', 'off', 'unsupported']),
  nodeVersion: z.string(),
  /** The proxy each environment's requests use, in the order of the environments. */
  proxies: z.array(ProxyInUse),
});
export type NetworkStatus = z.infer<typeof NetworkStatus>;
