import { net } from 'electron';
import type { NetFetch } from '../services/network/net-dispatcher.js';

/**
 * Chromium's network stack for the API client's requests that undici cannot
 * carry (network/proxy-challenge.ts): the default session's proxy settings,
 * PAC, SOCKS, and the OS sign-in for NTLM, Negotiate and Kerberos proxies.
 * Credentials mode stays Chromium's default: an "omit" request may not answer
 * a proxy's sign-in challenge.
 */
export const electronNetFetch: NetFetch = (url, init) =>
  net.fetch(url, {
    method: init.method,
    headers: init.headers,
    ...(init.body !== null ? { body: init.body } : {}),
    signal: init.signal,
    // Only the service's own answer: the app:// handler must never see API requests.
    bypassCustomProtocolHandlers: true,
  });
