import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname } from 'node:path';
import { SECURITY_HEADERS } from '../../shared/security/csp.js';
import type { AppEvents } from '../services/events.js';
import { dispatch, isChannel, type InternalErrorReporter } from '../services/ipc/dispatch.js';
import type { Handlers } from '../services/ipc/handlers.js';
import { readStaticFile } from '../services/static/static-files.js';

export const SESSION_COOKIE = 'cd_host';
export const LAUNCH_PATH = '/__launch';
export const IPC_PREFIX = '/ipc/';
export const EVENTS_PATH = '/events';
export const SHIM_PATH = '/api-shim.js';
// Large enough for a CSV export of a long list; the host is loopback-only and behind the per-launch secret.
const MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface BrowserHostOptions {
  readonly handlers: Handlers;
  readonly events: AppEvents;
  readonly rendererDir: string;
  /** The compiled window.api shim served at /api-shim.js. */
  readonly shimFile: string;
  readonly port?: number;
  readonly reportInternal?: InternalErrorReporter;
  /** One line per refused request; never includes the secret. */
  readonly log?: (line: string) => void;
}

export interface BrowserHost {
  /** Open this once: it carries the per-launch secret and sets the session cookie. */
  readonly launchUrl: string;
  readonly origin: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves the built renderer and the IPC contract over loopback HTTP, for
 * machines without an Electron binary and for end-to-end tests. It binds
 * 127.0.0.1 only, wants the per-launch secret on every request (as a strict
 * same-site cookie set by the launch URL), and checks Host and Origin so that
 * neither DNS rebinding nor another site in the same browser can reach it.
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const secret = randomBytes(32).toString('base64url');
  const log = options.log ?? (() => undefined);
  let origin = '';
  let expectedHost = '';
  const streams = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.reportInternal?.('browser-host', error);
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'Internal error');
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    if (req.headers.host !== expectedHost) {
      log(`refused ${req.method} ${url.pathname}: unexpected Host header`);
      return send(res, 421, 'text/plain; charset=utf-8', 'Misdirected request');
    }
    const requestOrigin = req.headers.origin;
    if (requestOrigin !== undefined && requestOrigin !== origin) {
      log(`refused ${req.method} ${url.pathname}: cross-origin request`);
      return send(res, 403, 'text/plain; charset=utf-8', 'Cross-origin requests are refused');
    }
    const fetchSite = req.headers['sec-fetch-site'];
    if (fetchSite === 'cross-site' || fetchSite === 'same-site') {
      log(`refused ${req.method} ${url.pathname}: cross-site request`);
      return send(res, 403, 'text/plain; charset=utf-8', 'Cross-site requests are refused');
    }

    if (req.method === 'GET' && url.pathname === LAUNCH_PATH) {
      if (!matchesSecret(url.searchParams.get('key'), secret)) {
        log('refused launch: wrong or missing key');
        return send(res, 403, 'text/plain; charset=utf-8', 'This launch link is not valid. Start Capacity Desk again.');
      }
      res.writeHead(303, {
        location: '/',
        'set-cookie': `${SESSION_COOKIE}=${secret}; HttpOnly; SameSite=Strict; Path=/`,
        'cache-control': 'no-store',
        ...SECURITY_HEADERS,
      });
      res.end();
      return;
    }

    if (!matchesSecret(readCookie(req.headers.cookie, SESSION_COOKIE), secret)) {
      log(`refused ${req.method} ${url.pathname}: missing or wrong secret`);
      return send(res, 401, 'text/plain; charset=utf-8', 'Open Capacity Desk from the link it printed when it started.');
    }

    if (url.pathname.startsWith(IPC_PREFIX)) return handleIpc(req, res, url.pathname.slice(IPC_PREFIX.length));
    if (req.method === 'GET' && url.pathname === EVENTS_PATH) return openEventStream(res);
    if (req.method !== 'GET') return send(res, 405, 'text/plain; charset=utf-8', 'Method not allowed');

    if (url.pathname === SHIM_PATH) {
      const shim = await readStaticFile(dirname(options.shimFile), `/${basename(options.shimFile)}`);
      if (!shim) return send(res, 500, 'text/plain; charset=utf-8', 'The browser host was not built: run npm run build');
      return send(res, 200, shim.contentType, shim.body);
    }
    const file = await readStaticFile(options.rendererDir, url.pathname);
    if (!file) return send(res, 404, 'text/plain; charset=utf-8', 'Not found');
    if (file.contentType.startsWith('text/html')) {
      // The shim must define window.api before the app's module script runs.
      const html = file.body.toString('utf8').replace('<head>', `<head><script src="${SHIM_PATH}"></script>`);
      return send(res, 200, file.contentType, html);
    }
    return send(res, 200, file.contentType, file.body);
  }

  async function handleIpc(req: IncomingMessage, res: ServerResponse, channel: string): Promise<void> {
    if (req.method !== 'POST') return send(res, 405, 'text/plain; charset=utf-8', 'Method not allowed');
    // A JSON content type cannot be sent cross-site without a preflight, which this host never answers.
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      return send(res, 415, 'text/plain; charset=utf-8', 'Expected application/json');
    }
    if (!isChannel(channel)) return send(res, 404, 'text/plain; charset=utf-8', 'Unknown channel');
    const text = await readBody(req);
    let payload: unknown;
    try {
      payload = text === null ? null : JSON.parse(text);
    } catch {
      payload = null;
    }
    const envelope = payload as { input?: unknown } | null;
    const result =
      text === null
        ? { ok: false, error: { kind: 'validation', message: 'The request was too large.' } }
        : envelope && typeof envelope === 'object'
          ? await dispatch(options.handlers, channel, envelope.input, options.reportInternal)
          : { ok: false, error: { kind: 'validation', message: 'The request could not be read.' } };
    return send(res, 200, 'application/json; charset=utf-8', JSON.stringify(result));
  }

  function openEventStream(res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      ...SECURITY_HEADERS,
    });
    res.write(': connected\n\n');
    streams.add(res);
    res.on('close', () => streams.delete(res));
  }

  const unsubscribe = options.events.subscribe((event, payload) => {
    const frame = `data: ${JSON.stringify({ event, payload })}\n\n`;
    for (const stream of streams) stream.write(frame);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  expectedHost = `127.0.0.1:${port}`;

  return {
    launchUrl: `${origin}${LAUNCH_PATH}?key=${secret}`,
    origin,
    port,
    async close() {
      unsubscribe();
      for (const stream of streams) stream.end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
    },
  };
}

function matchesSecret(candidate: string | null | undefined, secret: string): boolean {
  if (!candidate) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return null;
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, contentType: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store', ...SECURITY_HEADERS });
  res.end(body);
}
