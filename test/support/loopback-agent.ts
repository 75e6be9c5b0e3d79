import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent } from 'undici';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * An undici agent that resolves `*.localhost` to 127.0.0.1 the way Chromium
 * does (RFC 6761); Node asks the system resolver, which here does not. The
 * browser host serves only on such a name.
 */
export function loopbackAgent(options: ConstructorParameters<typeof Agent>[0] = {}): Agent {
  return new Agent({ ...options, connect: { lookup: loopbackLookup } });
}

function loopbackLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    if (options.all) return callback(null, [{ address: '127.0.0.1', family: 4 }]);
    return callback(null, '127.0.0.1', 4);
  }
  dnsLookup(hostname, options, callback as never);
}
