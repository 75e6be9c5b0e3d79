import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { API_PREFIX, MESSAGE } from '../shared/api/contract-choices.js';
import { buildOpenApiDocument } from '../shared/api/openapi.js';
import { findUser } from './accounts.js';
import { JwtSigner } from './auth/jwt.js';
import { UserDirectory } from './auth/users.js';
import type { RequestContext, SandboxServices } from './context.js';
import { FaultInjector } from './controls/faults.js';
import { CONTROL_PREFIX, handleControl, type ResetInput } from './controls/routes.js';
import { RequestStats } from './controls/stats.js';
import { readBody } from './http/body.js';
import { BufferPool } from './http/buffer-pool.js';
import { ApiError, errorEnvelope } from './http/envelope.js';
import { json, type Reply } from './http/reply.js';
import { HANDLERS } from './routes/index.js';
import { Router } from './router.js';
import { DEFAULT_SCALE, MAX_SCALE, generateDataset, startOfUtcDay } from './seed/generate.js';
import { SandboxClock } from './state/clock.js';
import { Persister, loadOrSetAside, serializeState } from './state/persistence.js';
import { SandboxStore } from './state/store.js';

export interface SandboxOptions {
  port?: number; // 0 / undefined = free port
  host?: string; // default '127.0.0.1'
  seed?: number; // default 1
  scale?: number; // number of capacity policies to seed in total; default DEFAULT_SCALE
  /** Linked accounts added to the first user, their policies spread over them (a book of customers at scale); default 0. */
  accounts?: number;
  controls?: boolean; // enable /sandbox/* test controls; default false
  dataFile?: string | undefined; // persist state atomically so a restart loses nothing
  log?: (line: string) => void; // one line per request; default: no logging
  /** Start the sandbox clock at this instant (ISO 8601) instead of the machine's time; it then runs on. */
  now?: string | undefined;
  /**
   * When set, every request must carry it in ACCESS_HEADER, else 403 before
   * anything is read: the app's built-in sandbox answers only the app that
   * started it, not every program and user of the computer.
   */
  accessSecret?: string | undefined;
}

/** The header that carries `accessSecret`. */
export const ACCESS_HEADER = 'x-capacity-desk-sandbox';
const ACCESS_REFUSED = 'This sandbox answers only the Capacity Desk that started it';

export interface SandboxHandle {
  readonly url: string; // e.g. http://127.0.0.1:54321 (no trailing slash)
  readonly port: number;
  /** What every request must carry (the access secret's header); empty when it takes anyone's. */
  readonly accessHeaders: Readonly<Record<string, string>>;
  close(): Promise<void>; // graceful: stop accepting, finish in-flight, persist
}

const OPENAPI_PATH = '/openapi.json';
/** How long close() lets in-flight requests finish before cutting connections. */
const CLOSE_GRACE_MS = 5000;

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log;
  const clock = new SandboxClock();
  const initialNowMs = options.now === undefined ? undefined : Date.parse(options.now);
  if (initialNowMs !== undefined && Number.isNaN(initialNowMs)) throw new Error(`sandbox option now is not a date: ${options.now}`);
  const startClock = () => {
    clock.restore({ offsetMs: 0, frozenAtMs: null });
    if (initialNowMs !== undefined) clock.set(initialNowMs, false);
  };

  const saved = options.dataFile ? await loadOrSetAside(options.dataFile, log ?? ((line) => process.stderr.write(`${line}\n`))) : null;
  let seed = saved?.seed ?? options.seed ?? 1;
  let scale = normalizeScale(saved?.scale ?? options.scale ?? DEFAULT_SCALE);
  const accounts = saved?.accounts ?? options.accounts ?? 0;
  let anchorMs: number;
  if (saved) {
    clock.restore(saved.clock);
    anchorMs = saved.anchorMs;
  } else {
    startClock();
    anchorMs = startOfUtcDay(clock.nowMs());
  }

  const tokenSecret = saved?.tokenSecret ? Buffer.from(saved.tokenSecret, 'base64url') : randomBytes(32);
  const users = await UserDirectory.create();
  const services: SandboxServices = {
    store: new SandboxStore(generateDataset({ seed, scale, anchorMs, accounts }), clock.nowMs(), saved?.overlay),
    clock,
    users,
    jwt: new JwtSigner(tokenSecret),
    buffers: new BufferPool(),
    persist: () => Promise.resolve(),
  };
  const persister = options.dataFile
    ? new Persister(options.dataFile, () =>
        serializeState({ seed, scale, accounts, anchorMs, clock: clock.snapshot(), tokenSecret, overlay: services.store.overlay() }, new Date()),
      )
    : null;
  if (persister) {
    services.persist = () => persister.save();
    await persister.save();
  }

  const router = new Router(HANDLERS);
  const faults = new FaultInjector();
  const stats = new RequestStats();
  const controlsEnabled = options.controls === true;
  const accessDigest = options.accessSecret ? digest(options.accessSecret) : null;
  let openApiText: Buffer | undefined;

  const reset = async (input: ResetInput) => {
    seed = input.seed ?? seed;
    scale = normalizeScale(input.scale ?? scale);
    startClock();
    anchorMs = startOfUtcDay(clock.nowMs());
    services.store = new SandboxStore(generateDataset({ seed, scale, anchorMs, accounts }), clock.nowMs());
    faults.clear();
    stats.reset();
    await services.persist();
    return {
      seed,
      scale,
      capacityPolicies: services.store.capacityCount,
      cyberPolicies: services.store.cyberCount,
      now: clock.now().toISOString(),
    };
  };

  /** The answer to one request; null when a fault dropped the connection. */
  const dispatch = async (req: IncomingMessage, method: string, path: string, query: URLSearchParams): Promise<Reply | null> => {
    if (accessDigest && !carriesSecret(req, accessDigest)) throw new ApiError(403, ACCESS_REFUSED);
    const body = await readBody(req);
    if (controlsEnabled && (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`))) {
      const reply = await handleControl(method, path, body, {
        clock,
        faults,
        stats,
        reset,
        persist: services.persist,
        rename: (cidrId, policyName) => services.store.renameCapacity(cidrId, policyName),
        renameAccount: (username, accountId, accountName) => {
          const user = findUser(username);
          return user ? services.store.renameAccount(user, accountId, accountName) : undefined;
        },
      });
      if (reply) return reply;
      throw new ApiError(404, MESSAGE.routeNotFound(method, path));
    }
    if (path === OPENAPI_PATH && method === 'GET') {
      openApiText ??= Buffer.from(JSON.stringify(buildOpenApiDocument({ serverUrl: handle.url })));
      return { status: 200, json: openApiText };
    }

    const resolution = router.resolve(method, path);
    if (resolution.kind === 'found') stats.count(resolution.route.name);
    const fault = faults.active && path.startsWith(API_PREFIX) ? faults.decide(method, path) : null;
    if (fault) {
      if (fault.holdRequest) await faults.hold();
      if (fault.latencyMs > 0) await sleep(fault.latencyMs);
      if (fault.drop) {
        req.socket.destroy();
        return null;
      }
      if (fault.errorStatus !== null)
        throw new ApiError(fault.errorStatus, fault.errorStatus === 500 ? MESSAGE.unexpected : 'Injected fault (sandbox controls)');
    }
    if (resolution.kind === 'wrong-method')
      return {
        ...json(405, errorEnvelope(405, MESSAGE.routeNotFound(method, path), clock.now())),
        headers: { allow: resolution.allowed.join(', ') },
      };
    if (resolution.kind === 'none') throw new ApiError(404, MESSAGE.routeNotFound(method, path));

    const nowMs = clock.nowMs();
    services.store.settle(nowMs);
    const { route, params } = resolution;
    const context: RequestContext = {
      method,
      path,
      params,
      query,
      body,
      nowMs,
      user: route.def.auth ? authenticate(req, services, nowMs) : null,
    };
    if (fault?.throwInHandler) throw new Error(`injected handler failure in ${route.name}`);
    const reply = await route.handler(context, services);
    if (fault?.holdAnswer) await faults.hold();
    if (fault?.dropAnswer) {
      req.socket.destroy();
      return null;
    }
    return fault?.malformed ? { status: reply.status, json: truncate(reply.json) } : reply;
  };

  let inFlight = 0;
  let drained: (() => void) | null = null;

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    const rawUrl = req.url ?? '/';
    const mark = rawUrl.indexOf('?');
    const path = mark === -1 ? rawUrl : rawUrl.slice(0, mark);
    const query = new URLSearchParams(mark === -1 ? '' : rawUrl.slice(mark + 1));
    inFlight++;
    let note = '';
    res.once('close', () => {
      inFlight--;
      if (inFlight === 0 && drained) drained();
      log?.(`${new Date().toISOString()} ${method} ${path} ${res.headersSent ? res.statusCode : 'dropped'} ${(performance.now() - started).toFixed(1)}ms${note}`);
    });
    dispatch(req, method, path, query)
      .catch((error: unknown): Reply => {
        if (error instanceof ApiError) return json(error.status, errorEnvelope(error.status, error.description, clock.now()));
        note = ` error: ${error instanceof Error ? error.message : String(error)}`;
        return json(500, errorEnvelope(500, MESSAGE.unexpected, clock.now()));
      })
      .then((reply) => {
        if (!reply) return;
        // Only a fully written body gives its buffer back; after an abort the socket may still hold it.
        if (reply.release) res.once('finish', reply.release);
        if (res.destroyed) return;
        res.writeHead(reply.status, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': typeof reply.json === 'string' ? Buffer.byteLength(reply.json) : reply.json.length,
          'cache-control': 'no-store',
          ...reply.headers,
        });
        res.end(reply.json);
      })
      .catch(() => {
        // The client went away while we answered; nothing is left to tell it.
      });
  };

  const server = createServer({ keepAliveTimeout: 5000 }, onRequest);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | null = null;
  const handle: SandboxHandle = {
    url: `http://${urlHost}:${port}`,
    port,
    accessHeaders: options.accessSecret ? { [ACCESS_HEADER]: options.accessSecret } : {},
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Requests a test left held are let go, so they finish rather than wait out the grace.
        faults.clear();
        if (inFlight > 0) {
          const finished = new Promise<void>((resolve) => {
            drained = resolve;
          });
          await Promise.race([finished, sleep(CLOSE_GRACE_MS)]);
        }
        server.closeAllConnections();
        await stopped;
        await services.persist();
      })();
      return closing;
    },
  };
  return handle;
}

function normalizeScale(scale: number): number {
  return Math.max(0, Math.min(MAX_SCALE, Math.floor(Number.isFinite(scale) ? scale : DEFAULT_SCALE)));
}

/** Half of a JSON body: never valid JSON, since every body is an object or array. */
function truncate(json: string | Buffer): string | Buffer {
  const half = Math.max(1, Math.floor(json.length / 2));
  return typeof json === 'string' ? json.slice(0, half) : json.subarray(0, half);
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compared as digests, in constant time: the answer says nothing of how much of a guess was right. */
function carriesSecret(req: IncomingMessage, expected: Buffer): boolean {
  const given = req.headers[ACCESS_HEADER];
  return typeof given === 'string' && timingSafeEqual(digest(given), expected);
}

/** The bearer token's user, or the contract's 401. */
function authenticate(req: IncomingMessage, services: SandboxServices, nowMs: number) {
  const header = req.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  const claims = match ? services.jwt.verify(match[1] as string, Math.floor(nowMs / 1000)) : null;
  const user = claims ? findUser(claims.sub) : undefined;
  if (!user) throw new ApiError(401, MESSAGE.tokenUnusable);
  return user;
}
