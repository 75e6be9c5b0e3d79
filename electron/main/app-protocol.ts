import { protocol } from 'electron';
import { SECURITY_HEADERS } from '../../shared/security/csp.js';
import { APP_HOST, APP_SCHEME } from '../services/security/origins.js';
import { KeptStaticFiles } from '../services/static/static-files.js';
import type { PageLoading } from '../services/overview/page-loading.js';
import { PageCode } from '../browser-host/page-code.js';

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
export function serveRenderer(rendererDir: string, pageLoading?: Pick<PageLoading, 'pageAsked' | 'codeServed'>): void {
  const files = new KeptStaticFiles(rendererDir);
  // Each file is served by a callback on the main process's event loop, as the browser host's are: the overview's
  // count gives way to the first page's loading here too (page-loading.ts).
  const pageCode = new PageCode(() => pageLoading?.codeServed());
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST || request.method !== 'GET') return new Response('Not found', { status: 404 });
    const page = url.pathname === '/' || url.pathname.endsWith('.html');
    if (page) pageLoading?.pageAsked();
    const file = await files.read(url.pathname);
    if (!file) return new Response('Not found', { status: 404 });
    if (page) pageCode.pageServed(file.body.toString('utf8'));
    else pageCode.fileServed(url.pathname);
    return new Response(new Uint8Array(file.body), {
      status: 200,
      headers: { 'content-type': file.contentType, ...SECURITY_HEADERS },
    });
  });
}
