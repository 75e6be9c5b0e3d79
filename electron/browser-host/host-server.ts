import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { basename, dirname } from 'node:path';
import type { AppError } from '../../shared/ipc/result.js';
import { SECURITY_HEADERS, developmentPolicy } from '../../shared/security/csp.js';
import type { AppEvents } from '../services/events.js';
import { dispatch, isChannel, type InternalErrorReporter } from '../services/ipc/dispatch.js';
import { inputTooLargeMessage, maxInputBytes, type Handlers } from '../../shared/ipc/contract.js';
import { KeptStaticFiles, type StaticFile } from '../services/static/static-files.js';
import { markLaunch } from '../services/diagnostics/launch-marks.js';
import { BodyBudget } from './body-budget.js';
import { LaunchCodes } from './launch-codes.js';
import { PageCode } from './page-code.js';
import { RefusalLog } from '../services/logging/refusal-log.js';

export const SESSION_COOKIE = 'cd_host';
export const LAUNCH_PATH = '/__launch';
export const IPC_PREFIX = '/ipc/';
export const EVENTS_PATH = '/events';
export const SHIM_PATH = '/api-shim.js';
/** How long a launch code printed or handed to the browser stays good, unless the caller says otherwise. */
export const DEFAULT_LAUNCH_TTL_MS = 2 * 60_000;
/** Bytes of request bodies held in memory at once, across all requests. */
export const DEFAULT_BODY_BUDGET = 2 * 16 * 1024 * 1024;

export interface BrowserHostOptions {
  readonly handlers: Handlers;
  readonly events: AppEvents;
  readonly rendererDir: string;
  /** The compiled window.api shim served at /api-shim.js. */
  readonly shimFile: string;
  readonly port?: number;
  readonly reportInternal?: InternalErrorReporter;
  /** Refusals, counted and summarised (never one line each); never includes a secret. */
  readonly log?: (line: string) => void;
  /** Bytes of request bodies held at once, across requests (tests make it small). */
  readonly bodyBudget?: number;
  /** Called when a launch code is spent, so whoever handed it out can forget it. */
  readonly onLaunch?: () => void;
  /** Session lifetimes (tests make them short); see launch-codes.ts for the defaults. */
  readonly sessionIdleMs?: number;
  readonly sessionMaxMs?: number;
  /** `npm run dev` only: the renderer comes from a Vite dev server instead of rendererDir. */
  readonly devRenderer?: DevRenderer;
  /**
   * Called once, when the first page has been served the code it starts with (or calls the host): see page-code.ts.
   * The app itself wires nothing here (the launch mark "page code served", a step the launch bench prints, is set at
   * the same moment); it is how a test sees that moment, since launch marks are the process's, kept once, and a
   * file in a shared test worker cannot tell "not yet" or "only once" from them.
   */
  readonly onPageCode?: () => void;
  /** Tests only: waited for before a renderer file is sent (a test holds the page's chunks on their connections). */
  readonly beforeFile?: (pathname: string) => Promise<void>;
}

/** A Vite dev server on loopback that serves the renderer with hot reload (`npm run dev`). */
export interface DevRenderer {
  /** Where Vite serves pages and modules, e.g. http://127.0.0.1:5173. */
  readonly origin: string;
  /** Vite's hot-reload socket, e.g. ws://127.0.0.1:24678. */
  readonly socketOrigin: string;
  /** The nonce Vite marks its injected styles and scripts with. */
  readonly nonce: string;
}

export interface BrowserHost {
  /**
   * A launch address with a fresh one-time code: opening it once starts a
   * session (an HttpOnly cookie of its own); it is refused after that, or
   * after `ttlMs`.
   */
  newLaunchUrl(ttlMs?: number): string;
  /** `http://<random name>.localhost:<port>`: the only address the host answers on. */
  readonly origin: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves the built renderer and the IPC contract over loopback HTTP, for
 * machines without an Electron binary and for end-to-end tests. It binds
 * 127.0.0.1 only, wants a session cookie on every request (HttpOnly, strict
 * same-site; given once per one-time launch code, see launch-codes.ts), and
 * checks Host and Origin so that neither DNS rebinding nor another site in the
 * same browser can reach it.
 *
 * Cookies are not bound to ports: a cookie set by 127.0.0.1:A is sent to any
 * server on 127.0.0.1:B (another user's process, a dev server). So the app is
 * served under a host name made up for this run, `cd-<random>.localhost`
 * (Chromium resolves every `*.localhost` name to loopback without DNS), and its
 * host-only cookie goes only to that name; requests naming any other host are refused.
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const launches = new LaunchCodes({
    ...(options.sessionIdleMs !== undefined ? { sessionIdleMs: options.sessionIdleMs } : {}),
    ...(options.sessionMaxMs !== undefined ? { sessionMaxMs: options.sessionMaxMs } : {}),
  });
  const hostName = `cd-${randomBytes(12).toString('hex')}.localhost`;
  const refusals = new RefusalLog(options.log ?? (() => undefined));
  const budget = new BodyBudget(options.bodyBudget ?? DEFAULT_BODY_BUDGET);
  let origin = '';
  let expectedHost = '';
  const streams = new Set<ServerResponse>();
  const rendererFiles = new KeptStaticFiles(options.rendererDir);
  const shimFiles = new KeptStaticFiles(dirname(options.shimFile));
  const pageCode = new PageCode(() => {
    markLaunch('page code served');
    options.onPageCode?.();
  });

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.reportInternal?.('browser-host', error);
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'Internal error');
      else res.destroy();
    });
  });

  function refuse(res: ServerResponse, reason: string, status: number, text: string): void {
    refusals.refused(reason);
    send(res, status, 'text/plain; charset=utf-8', text);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = parseTarget(req.url, origin);
    if (!url) return refuse(res, 'malformed request target', 400, 'Bad request');
    if (req.headers.host !== expectedHost) return refuse(res, 'unexpected Host header', 421, 'Misdirected request');
    const requestOrigin = req.headers.origin;
    if (requestOrigin !== undefined && requestOrigin !== origin) {
      return refuse(res, 'cross-origin request', 403, 'Cross-origin requests are refused');
    }

    // The launch page is reached from a local file (see launch-file.ts), which the browser
    // calls cross-site; the one-time code is the credential here, so that is allowed.
    if (req.method === 'GET' && url.pathname === LAUNCH_PATH) {
      const session = launches.redeem(url.searchParams.get('code'));
      if (!session) {
        refusals.refused('launch link used again, expired or wrong');
        return send(res, 403, 'text/html; charset=utf-8', SPENT_LAUNCH_PAGE);
      }
      options.onLaunch?.();
      // A page, not a redirect: a redirect would stay part of a navigation the browser calls
      // cross-site (from the launch file), which carries no SameSite=Strict cookie. The page's
      // own move to "/" is same-origin.
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        // No Domain attribute: host-only, for this run's name alone. Max-Age ends it in the browser too.
        'set-cookie': `${SESSION_COOKIE}=${session}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${Math.floor(launches.sessionMaxMs / 1000)}`,
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
        ...SECURITY_HEADERS,
      });
      res.end(OPENING_PAGE);
      return;
    }

    const fetchSite = req.headers['sec-fetch-site'];
    if (fetchSite === 'cross-site' || fetchSite === 'same-site') {
      return refuse(res, 'cross-site request', 403, 'Cross-site requests are refused');
    }
    if (!launches.isSession(readCookie(req.headers.cookie, SESSION_COOKIE))) {
      return refuse(res, 'no valid session cookie', 401, 'Your session has ended or was never opened. Open Capacity Desk from the link it printed when it started (Enter prints a new one).');
    }

    if (url.pathname.startsWith(IPC_PREFIX)) {
      pageCode.pageCalled();
      return handleIpc(req, res, url.pathname.slice(IPC_PREFIX.length));
    }
    if (req.method === 'GET' && url.pathname === EVENTS_PATH) return openEventStream(res);
    if (req.method !== 'GET') return send(res, 405, 'text/plain; charset=utf-8', 'Method not allowed');

    if (url.pathname === SHIM_PATH) {
      const shim = await shimFiles.read(`/${basename(options.shimFile)}`);
      if (!shim) return send(res, 500, 'text/plain; charset=utf-8', 'The browser host was not built: run npm run build');
      return send(res, 200, shim.contentType, shim.body);
    }
    const dev = options.devRenderer;
    const file = dev ? await fetchDevFile(dev.origin, url) : await rendererFiles.read(url.pathname);
    if (!file) return send(res, 404, 'text/plain; charset=utf-8', 'Not found');
    if (file.contentType.startsWith('text/html')) {
      const page = file.body.toString('utf8');
      // The shim must define window.api before the app's module script runs: deferred, it still runs first (deferred
      // and module scripts run in document order), and it no longer stops the parser, so the module script and style
      // sheet are asked for at once rather than after the shim came (issue 25: Chromium asked for neither while the
      // shim stopped the parser, the page's code waiting 20-140 ms for it at load 23; why its preload scanner did not
      // ask is not settled: the CSP meta tag after the shim is the guess).
      const html = page.replace(/<head>/i, `<head><script defer src="${SHIM_PATH}"></script>`);
      if (dev) {
        res.writeHead(200, { 'content-type': file.contentType, 'cache-control': 'no-store', ...SECURITY_HEADERS, 'content-security-policy': developmentPolicy(dev) });
        res.end(html);
        return;
      }
      send(res, 200, file.contentType, html);
      markLaunch('app page served');
      pageCode.pageServed(page);
      return;
    }
    await options.beforeFile?.(url.pathname);
    send(res, 200, file.contentType, file.body);
    pageCode.fileServed(url.pathname);
  }

  async function handleIpc(req: IncomingMessage, res: ServerResponse, channel: string): Promise<void> {
    if (req.method !== 'POST') return send(res, 405, 'text/plain; charset=utf-8', 'Method not allowed');
    // A JSON content type cannot be sent cross-site without a preflight, which this host never answers.
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      return send(res, 415, 'text/plain; charset=utf-8', 'Expected application/json');
    }
    if (!isChannel(channel)) {
      // The channel name is the caller's text: the line names the refusal, not the name.
      refusals.refused('a channel the contract does not have');
      return send(res, 404, 'text/plain; charset=utf-8', 'Unknown channel');
    }
    // The channel's input limit (the contract's, which dispatch applies again for both hosts) bounds
    // the whole body here, before any of it is parsed.
    const body = await readBody(req, maxInputBytes(channel), budget);
    if (!body.ok) {
      refusals.refused(body.reason === 'too-large' ? 'request body over its limit' : 'request bodies over the memory budget');
      // The rest of the body is never read: close the connection once the answer is out.
      res.setHeader('connection', 'close');
      res.on('finish', () => req.destroy());
      return sendResult(res, { ok: false, error: body.error });
    }
    let payload: unknown;
    try {
      payload = JSON.parse(body.text);
    } catch {
      payload = null;
    }
    const envelope = payload as { input?: unknown } | null;
    const started = performance.now();
    const result =
      envelope && typeof envelope === 'object'
        ? await dispatch(options.handlers, channel, envelope.input, options.reportInternal)
        : { ok: false, error: { kind: 'invalid-input', message: 'The request could not be read.' } };
    // The host's own part of the round trip, for the page's resource timing (bench/support/app-page.ts): a
    // duration only, on the page's own origin.
    res.setHeader('server-timing', `dispatch;dur=${(performance.now() - started).toFixed(1)}`);
    return sendResult(res, result);
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
  expectedHost = `${hostName}:${port}`;
  origin = `http://${expectedHost}`;

  return {
    newLaunchUrl: (ttlMs = DEFAULT_LAUNCH_TTL_MS) => `${origin}${LAUNCH_PATH}?code=${launches.mint(ttlMs)}`,
    origin,
    port,
    async close() {
      unsubscribe();
      refusals.flush();
      for (const stream of streams) stream.end();
      // Cut every connection as the server stops listening: close() alone waits for connections a
      // browser keeps open (or a request still in flight), so a restart of the host could hang on them.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

const OPENING_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/">
<title>Capacity Desk</title></head><body><p>Opening Capacity Desk&hellip;</p></body></html>`;

const SPENT_LAUNCH_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Capacity Desk</title></head><body>
<h1>This launch link cannot be used</h1>
<p>Each link that opens Capacity Desk works once, for a few minutes, so that nobody else can use it.
This one has already been used or has expired.</p>
<p>If Capacity Desk is open in another window, go on there. Otherwise start Capacity Desk again
(or press Enter in the terminal where it runs for a new link).</p>
</body></html>`;

/** The request target as a URL, or null when it is not a plain absolute path (e.g. `//`, `http://x/`, `*`). */
function parseTarget(target: string | undefined, origin: string): URL | null {
  if (!target || !target.startsWith('/') || target.startsWith('//')) return null;
  try {
    const url = new URL(target, origin);
    return url.origin === origin ? url : null;
  } catch {
    return null;
  }
}

function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return null;
}

type BodyRead = { ok: true; text: string } | { ok: false; reason: 'too-large' | 'busy'; error: AppError };

/**
 * Reads a body up to `limit` bytes, holding no more than the shared budget
 * allows; past either bound it stops reading, answers, and closes the
 * connection rather than buffer what it will not use.
 */
function readBody(req: IncomingMessage, limit: number, budget: BodyBudget): Promise<BodyRead> {
  const tooLarge: BodyRead = {
    ok: false,
    reason: 'too-large',
    error: { kind: 'invalid-input', message: inputTooLargeMessage(limit) },
  };
  const busy: BodyRead = {
    ok: false,
    reason: 'busy',
    error: { kind: 'server', message: 'Capacity Desk is busy receiving other large requests. Try again in a moment.' },
  };
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(finish(tooLarge));

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let held = 0;
    const done = (result: BodyRead) => {
      budget.release(held);
      held = 0;
      req.removeAllListeners('data');
      resolve(result.ok ? result : finish(result));
    };
    req.on('data', (chunk: Buffer) => {
      if (held + chunk.length > limit) return done(tooLarge);
      if (!budget.tryReserve(chunk.length)) return done(busy);
      held += chunk.length;
      chunks.push(chunk);
    });
    req.on('end', () => done({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', (error) => {
      budget.release(held);
      reject(error);
    });
  });

  function finish(result: BodyRead): BodyRead {
    // Whatever is still on its way is not wanted: the answer goes out, then the connection closes.
    req.pause();
    return result;
  }
}

/** A page or module from the Vite dev server (`npm run dev`); null when it has none. */
async function fetchDevFile(origin: string, url: URL): Promise<StaticFile | null> {
  const response = await fetch(new URL(`${url.pathname}${url.search}`, origin));
  if (!response.ok) return null;
  return { body: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') ?? 'application/octet-stream' };
}

function sendResult(res: ServerResponse, result: unknown): void {
  send(res, 200, 'application/json; charset=utf-8', JSON.stringify(result));
}

function send(res: ServerResponse, status: number, contentType: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store', ...SECURITY_HEADERS });
  res.end(body);
}
