import { protocol } from 'electron';
import { SECURITY_HEADERS } from '../../shared/security/csp.js';
import { APP_HOST, APP_SCHEME } from '../services/security/origins.js';
import { KeptStaticFiles } from '../services/static/static-files.js';

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false } },
  ]);
}

/**
 * Serves the built renderer on app://capacity-desk only: no file:// pages, no
 * other host, nothing outside the renderer folder, CSP on every answer.
 */
export function serveRenderer(rendererDir: string): void {
  const files = new KeptStaticFiles(rendererDir);
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST || request.method !== 'GET') return new Response('Not found', { status: 404 });
    const file = await files.read(url.pathname);
    if (!file) return new Response('Not found', { status: 404 });
    return new Response(new Uint8Array(file.body), {
      status: 200,
      headers: { 'content-type': file.contentType, ...SECURITY_HEADERS },
    });
  });
}
