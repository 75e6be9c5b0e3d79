import * as tls from 'node:tls';

export type SystemCaState = 'on' | 'off' | 'unsupported';

export interface TrustStore {
  /** A context trusting Node's bundled roots, NODE_EXTRA_CA_CERTS and the OS store; undefined = Node's default. */
  readonly secureContext: tls.SecureContext | undefined;
  readonly systemCa: SystemCaState;
}

type CertificateKind = 'default' | 'system' | 'bundled' | 'extra';
type GetCaCertificates = (kind?: CertificateKind) => string[];

/**
 * Trust the OS certificate store too, where Node can read it: companies that
 * inspect HTTPS install their root there, not in Node's bundled list.
 * tls.getCACertificates('system') exists from Node 22.15 / 23.10; on older
 * Node (the browser host on Node 20) NODE_EXTRA_CA_CERTS is the way.
 * CAPACITY_DESK_SYSTEM_CA=0 turns it off.
 */
export function loadTrustStore(
  env: NodeJS.ProcessEnv = process.env,
  getCaCertificates: GetCaCertificates | undefined = (tls as { getCACertificates?: GetCaCertificates }).getCACertificates,
  execArgv: readonly string[] = process.execArgv,
): TrustStore {
  if (usesSystemCaFlag(env, execArgv)) return { secureContext: undefined, systemCa: 'on' };
  if (typeof getCaCertificates !== 'function') return { secureContext: undefined, systemCa: 'unsupported' };
  if (env.CAPACITY_DESK_SYSTEM_CA === '0') return { secureContext: undefined, systemCa: 'off' };
  try {
    // 'default' is the bundled roots plus NODE_EXTRA_CA_CERTS: keep them and add the OS store.
    const ca = [...new Set([...getCaCertificates('default'), ...getCaCertificates('system')])];
    return { secureContext: tls.createSecureContext({ ca }), systemCa: 'on' };
  } catch {
    // An unreadable OS store must not stop the app: Node's own roots still work.
    return { secureContext: undefined, systemCa: 'off' };
  }
}

/** Node itself already trusts the OS store when started with --use-system-ca. */
function usesSystemCaFlag(env: NodeJS.ProcessEnv, execArgv: readonly string[]): boolean {
  return execArgv.includes('--use-system-ca') || /(^|\s)--use-system-ca(\s|$)/.test(env.NODE_OPTIONS ?? '');
}
