import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { SECURITY_HEADERS } from '../../shared/security/csp.js';
import { syntheticPolicies } from '../../test/support/synthetic-policies.js';

/**
 * The server side of bench/transport-ab.ts, run as a child process so that its CPU time is its own: one loopback
 * server that answers the same call two ways, as the browser host answers it today (a POST a call, the session
 * cookie, Host and Origin checked, the body read, the answer with the host's headers) and as one WebSocket would
 * (one upgrade checked the same way, then a message a call, answered by id). The answer is what a keystroke's
 * capacity.list answer weighs (ANSWER_ROWS whole records). Not the app: a bench of the carrier alone.
 */
const ANSWER_ROWS = Number(process.env.TRANSPORT_ROWS ?? 34);
const SOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const session = randomBytes(16).toString('hex');
const rows = syntheticPolicies(ANSWER_ROWS);
let origin = '';
let expectedHost = '';

function answerOf(input: unknown): unknown {
  const limit = (input as { limit?: number } | null)?.limit ?? ANSWER_ROWS;
  // A new array each call, as the host's answer is a new window each key.
  return { ok: true, value: { rows: rows.slice(0, limit), offset: 0, total: 100_000, origin: { source: 'replica', fetchedAt: new Date().toISOString() }, local: true, skipped: [] } };
}

function trusted(req: IncomingMessage): boolean {
  return req.headers.host === expectedHost && req.headers.origin === origin && (req.headers.cookie ?? '').includes(`s=${session}`);
}

const server = createServer((req, res) => {
  if (req.method === 'GET' && (req.url === '/' || req.url?.startsWith('/?'))) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': `s=${session}; HttpOnly; SameSite=Strict; Path=/`, 'cache-control': 'no-store' });
    res.end('<!doctype html><html><head><meta charset="utf-8"><title>transport</title><script src="/bench.js"></script></head><body><p>transport bench</p></body></html>');
    return;
  }
  if (req.method === 'GET' && req.url === '/bench.js') {
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
    res.end(PAGE_SCRIPT);
    return;
  }
  if (req.method === 'POST' && req.url === '/report' && trusted(req)) {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => {
      process.send?.({ report: JSON.parse(Buffer.concat(parts).toString('utf8')) as unknown });
      res.writeHead(204).end();
    });
    return;
  }
  if (req.method !== 'POST' || !req.url?.startsWith('/ipc/') || !trusted(req)) {
    res.writeHead(403).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const started = performance.now();
    const envelope = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input?: unknown };
    const body = JSON.stringify(answerOf(envelope.input));
    res.setHeader('server-timing', `dispatch;dur=${(performance.now() - started).toFixed(1)}`);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...SECURITY_HEADERS });
    res.end(body);
  });
});

server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
  const key = req.headers['sec-websocket-key'];
  if (req.url !== '/socket' || !trusted(req) || typeof key !== 'string') {
    socket.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\n\r\n');
    return;
  }
  const accept = createHash('sha1').update(key + SOCKET_GUID).digest('base64');
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-accept: ${accept}\r\n\r\n`);
  socket.setNoDelay(true);
  let held: Buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    held = held.length === 0 ? chunk : Buffer.concat([held, chunk]);
    for (;;) {
      const frame = readFrame(held);
      if (!frame) return;
      held = held.subarray(frame.size);
      if (frame.opcode === 0x8) {
        socket.end(frameOf(0x8, Buffer.alloc(0)));
        return;
      }
      if (frame.opcode !== 0x1) continue;
      const call = JSON.parse(frame.payload.toString('utf8')) as { id: number; input?: unknown };
      socket.write(frameOf(0x1, Buffer.from(JSON.stringify({ id: call.id, result: answerOf(call.input) }), 'utf8')));
    }
  });
  socket.on('error', () => socket.destroy());
});

/**
 * The page's side: both carriers, and `run` (calls one at a time, a gap after each, each call's round trip to its
 * parsed answer). As text, served as a script: the page has no bundler's helpers. With `?auto=<calls>,<gap>,<rounds>`
 * in its address the page runs the rounds itself, carriers alternated, and posts the round trips to /report (for a
 * browser started with no DevTools client at all, TRANSPORT_BARE=1).
 */
const PAGE_SCRIPT = `
const pending = new Map();
let next = 0;
const socket = new WebSocket('ws://' + location.host + '/socket');
socket.onmessage = (event) => {
  const message = JSON.parse(event.data);
  pending.get(message.id)?.(message.result);
  pending.delete(message.id);
};
window.benchCalls = {
  fetch: async (input) => {
    const response = await fetch('/ipc/capacity.list', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input }), credentials: 'same-origin' });
    return response.json();
  },
  socket: (input) => new Promise((answered) => {
    next += 1;
    pending.set(next, answered);
    socket.send(JSON.stringify({ id: next, channel: 'capacity.list', input }));
  }),
  run: async (carrier, calls, gap) => {
    const call = window.benchCalls[carrier];
    const times = [];
    for (let i = 0; i < calls; i += 1) {
      const started = performance.now();
      const answer = await call({ text: 'm' + (i % 10), offset: 0, limit: 34, sortBy: 'createdDate', sortOrder: 'desc' });
      if (!answer.ok) throw new Error('no answer');
      times.push(performance.now() - started);
      await new Promise((done) => setTimeout(done, gap));
    }
    return times;
  },
};
window.benchReady = new Promise((resolve) => {
  socket.onopen = () => resolve(null);
  socket.onclose = (event) => resolve('closed ' + event.code);
});
const auto = new URLSearchParams(location.search).get('auto');
if (auto) {
  const [calls, gap, rounds] = auto.split(',').map(Number);
  window.benchReady.then(async () => {
    const report = { fetch: [], socket: [] };
    for (let round = 0; round < rounds; round += 1) {
      for (const carrier of round % 2 === 0 ? ['fetch', 'socket'] : ['socket', 'fetch']) report[carrier].push(await window.benchCalls.run(carrier, calls, gap));
    }
    await fetch('/report', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(report) });
  });
}
`;

/** One whole client frame (masked, as a browser sends) at the start of `buffer`, or null until it has all come. */
function readFrame(buffer: Buffer): { opcode: number; payload: Buffer; size: number } | null {
  if (buffer.length < 2) return null;
  const opcode = (buffer[0] as number) & 0x0f;
  let length = (buffer[1] as number) & 0x7f;
  let at = 2;
  if (length === 126) {
    if (buffer.length < 4) return null;
    length = buffer.readUInt16BE(2);
    at = 4;
  } else if (length === 127) {
    if (buffer.length < 10) return null;
    length = Number(buffer.readBigUInt64BE(2));
    at = 10;
  }
  if (buffer.length < at + 4 + length) return null;
  const mask = buffer.subarray(at, at + 4);
  const payload = Buffer.from(buffer.subarray(at + 4, at + 4 + length));
  for (let i = 0; i < payload.length; i += 1) payload[i] = (payload[i] as number) ^ (mask[i % 4] as number);
  return { opcode, payload, size: at + 4 + length };
}

/** A server frame (unmasked, final). */
function frameOf(opcode: number, payload: Buffer): Buffer {
  const head = payload.length < 126 ? Buffer.from([0x80 | opcode, payload.length]) : payload.length < 65_536 ? Buffer.alloc(4) : Buffer.alloc(10);
  if (payload.length >= 126) {
    head[0] = 0x80 | opcode;
    if (payload.length < 65_536) {
      head[1] = 126;
      head.writeUInt16BE(payload.length, 2);
    } else {
      head[1] = 127;
      head.writeBigUInt64BE(BigInt(payload.length), 2);
    }
  }
  return Buffer.concat([head, payload]);
}

process.on('message', (message: unknown) => {
  if (message === 'cpu') {
    const used = process.cpuUsage();
    process.send?.({ cpuMs: (used.user + used.system) / 1000 });
  }
  if (message === 'stop') server.close(() => process.exit(0));
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  const name = `cd-transport-${randomBytes(6).toString('hex')}.localhost`;
  expectedHost = `${name}:${port}`;
  origin = `http://${expectedHost}`;
  process.send?.({ origin });
});
