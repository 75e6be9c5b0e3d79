import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ConnectionOptions } from 'node:tls';

/**
 * Asks a proxy, with a CONNECT of our own, what its 407 wants. undici reports
 * a refused tunnel only as "Proxy response (407)", without the
 * Proxy-Authenticate header, so the scheme has to be read again. Nothing is
 * sent to the target: the proxy refused to open the tunnel.
 */
export type ReadProxyChallenge = (proxyUrl: string, targetOrigin: string) => Promise<string[] | null>;

const PROBE_TIMEOUT_MS = 5_000;

/** The Proxy-Authenticate values of the proxy's answer to a CONNECT to the target; null when it did not answer 407. */
export function proxyChallengeReader(tls: ConnectionOptions = {}, timeoutMs = PROBE_TIMEOUT_MS): ReadProxyChallenge {
  return (proxyUrl, targetOrigin) =>
    new Promise((resolve) => {
      const proxy = new URL(proxyUrl);
      const target = new URL(targetOrigin);
      const port = target.port || (target.protocol === 'https:' ? '443' : '80');
      const send = proxy.protocol === 'https:' ? httpsRequest : httpRequest;
      const probe = send({
        ...(proxy.protocol === 'https:' ? tls : {}),
        host: proxy.hostname.replace(/^\[|\]$/g, ''),
        port: proxy.port || (proxy.protocol === 'https:' ? 443 : 80),
        method: 'CONNECT',
        path: `${target.hostname}:${port}`,
        headers: { host: `${target.hostname}:${port}` },
        timeout: timeoutMs,
      });
      const settle = (value: string[] | null): void => {
        probe.destroy();
        resolve(value);
      };
      const challenge = (statusCode: number | undefined, header: string[] | undefined): string[] | null => (statusCode === 407 ? (header ?? []) : null);
      // A proxy that opens the tunnel this time: close it at once, nothing goes through.
      probe.on('connect', (response, socket) => {
        socket.destroy();
        settle(challenge(response.statusCode, response.headersDistinct['proxy-authenticate']));
      });
      // Node hands a non-2xx answer to CONNECT to 'response'.
      probe.on('response', (response) => {
        response.resume();
        settle(challenge(response.statusCode, response.headersDistinct['proxy-authenticate']));
      });
      probe.on('timeout', () => settle(null));
      probe.on('error', () => settle(null));
      probe.end();
    });
}
