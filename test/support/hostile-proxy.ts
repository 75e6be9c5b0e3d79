/**
 * A hostile service for the trust tests: a tiny node:http server in front of a
 * real sandbox that relays every request, except those a rule claims. A rule
 * can let the sandbox act first and then answer something odd in its place (a
 * 202, a redirect, garbage), trickle an answer a byte at a time, send a huge
 * body, or rewrite the JSON (a lying `total`). It counts what reached it and
 * how many bytes of each huge answer actually left.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type HostileAnswer =
  /** Let the sandbox act, then answer this status and raw body instead of its answer. */
  | { readonly kind: 'replace'; readonly status: number; readonly body: string; readonly headers?: Readonly<Record<string, string>> }
  /** Let the sandbox act, then send its answer one byte every `everyMs`. */
  | { readonly kind: 'trickle'; readonly everyMs: number }
  /** Answer 200 with `bytes` bytes of a JSON-looking body, declaring its length or not; the sandbox is not asked. */
  | { readonly kind: 'huge'; readonly bytes: number; readonly declareLength: boolean }
  /** Let the sandbox answer, then rewrite its JSON. */
  | { readonly kind: 'rewrite'; readonly rewrite: (json: unknown, url: URL) => unknown };

export interface HostileRule {
  readonly method?: string;
  /** Matches the request's path (no query) from its start. */
  readonly pathPrefix: string;
  readonly answer: HostileAnswer;
}

export interface HostileProxy {
  readonly url: string;
  /** Rules are tried in order; the first match answers. */
  setRules(rules: readonly HostileRule[]): void;
  /** Requests that reached the proxy, as "METHOD /path?query", with " [token]" when they carried one. */
  readonly requests: string[];
  /** Bytes of huge bodies actually written before the client hung up. */
  hugeBytesSent(): number;
  close(): Promise<void>;
}

/** `headers` go with every relayed request: the built-in sandbox's per-run secret, which the app sends to the sandbox's own address only. */
export async function startHostileProxy(target: string, headers: Readonly<Record<string, string>> = {}): Promise<HostileProxy> {
  const extraHeaders = headers;
  const base = target.replace(/\/+$/, '');
  let rules: readonly HostileRule[] = [];
  const requests: string[] = [];
  let hugeSent = 0;
  const timers = new Set<NodeJS.Timeout>();

  const relay = async (req: IncomingMessage, body: Buffer): Promise<{ status: number; text: string; contentType: string }> => {
    const headers: Record<string, string> = { ...extraHeaders };
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) headers[name] = value;
    }
    const answer = await fetch(base + (req.url ?? '/'), { method: req.method ?? 'GET', headers, ...(body.length > 0 ? { body } : {}) });
    return { status: answer.status, text: await answer.text(), contentType: answer.headers.get('content-type') ?? 'application/json' };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://proxy');
    requests.push(`${req.method} ${url.pathname}${url.search}${req.headers.authorization ? ' [token]' : ''}`);
    const rule = rules.find((r) => (r.method === undefined || r.method === req.method) && url.pathname.startsWith(r.pathPrefix));
    const answer = rule?.answer;
    if (answer?.kind === 'huge') {
      res.writeHead(200, { 'content-type': 'application/json', ...(answer.declareLength ? { 'content-length': String(answer.bytes) } : {}) });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let left = answer.bytes;
      const pump = (): void => {
        while (left > 0 && !res.destroyed) {
          const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
          left -= piece.length;
          hugeSent += piece.length;
          if (!res.write(piece)) {
            res.once('drain', pump);
            return;
          }
        }
        if (left === 0) res.end();
      };
      pump();
      return;
    }
    const relayed = await relay(req, body);
    if (answer?.kind === 'replace') {
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body);
      return;
    }
    if (answer?.kind === 'trickle') {
      const bytes = Buffer.from(relayed.text);
      res.writeHead(relayed.status, { 'content-type': relayed.contentType, 'content-length': String(bytes.length) });
      res.flushHeaders();
      let at = 0;
      const timer = setInterval(() => {
        if (res.destroyed || at >= bytes.length) {
          clearInterval(timer);
          timers.delete(timer);
          if (!res.destroyed) res.end();
          return;
        }
        res.write(bytes.subarray(at, at + 1));
        at += 1;
      }, answer.everyMs);
      timers.add(timer);
      return;
    }
    const text = answer?.kind === 'rewrite' && relayed.status < 300 ? JSON.stringify(answer.rewrite(JSON.parse(relayed.text), url)) : relayed.text;
    res.writeHead(relayed.status, { 'content-type': relayed.contentType });
    res.end(text);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(599, { 'content-type': 'text/plain' });
      res.end(`hostile proxy: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setRules: (next) => {
      rules = next;
    },
    requests,
    hugeBytesSent: () => hugeSent,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearInterval(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
