import type { ProxyInUse } from '../../shared/ipc/network.js';

/** The "Proxy: …" line of an environment in Manage environments: the route, and where the setting comes from. */
export function proxyText(route: ProxyInUse): string {
  if (!route.usable) return `none usable (system settings). ${route.note ?? ''}`.trim();
  const where = route.source === 'system' ? 'system settings' : route.source === 'environment' ? 'HTTPS_PROXY / HTTP_PROXY' : null;
  const path = route.proxy ?? 'none, direct connection';
  const text = where ? `${path} (${where})` : path;
  return route.note ? `${text}. ${route.note}` : text;
}

/** The "Route: …" line: which network stack carries the environment's requests, and why when it is not the usual one. */
export function routeText(route: ProxyInUse): string {
  if (route.route.stack === 'electron-net') return `Chromium's network stack (Electron net), because ${route.route.reason}`;
  return 'Node (undici)';
}
