import { expect, test, type ElectronApplication } from '@playwright/test';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appUnderTest, launchApp } from './launch.js';

/**
 * Issue 30 item 1, proven in the real Electron (the workflows): requests whose
 * proxy wants a sign-in undici cannot give, or that the settings send through
 * SOCKS, go through Chromium's network stack (Electron's `net`). The decision
 * and the plumbing are unit-tested with a stand-in for `net.fetch`
 * (test/unit/network/proxy-auth-route.test.ts); only here is the stand-in
 * replaced by Chromium.
 *
 * Chromium is given the proxy with --proxy-server (what session.resolveProxy
 * then answers). The proxies below let nothing through: what is asserted is
 * who knocked (undici cannot speak SOCKS, and sends no browser User-Agent) and
 * what the app says about the route.
 */
const target = appUnderTest();
const SERVICE = 'https://desk.corp.test';

interface Knock {
  readonly via: 'socks' | 'http';
  readonly target: string;
  readonly userAgent?: string;
}

/** A SOCKS5 proxy that records the address it is asked for, then refuses (reply 0x02: not allowed). */
async function socksProxy(knocks: Knock[]): Promise<TcpServer> {
  const server = createTcpServer((socket: Socket) => {
    socket.on('error', () => undefined);
    socket.once('data', (greeting: Buffer) => {
      if (greeting[0] !== 0x05) return socket.destroy();
      socket.write(Buffer.from([0x05, 0x00]));
      socket.once('data', (request: Buffer) => {
        // VER CMD RSV ATYP=3 (domain) LEN NAME PORT
        if (request[3] === 0x03) {
          const length = request[4]!;
          const host = request.subarray(5, 5 + length).toString('latin1');
          knocks.push({ via: 'socks', target: `${host}:${request.readUInt16BE(5 + length)}` });
        } else knocks.push({ via: 'socks', target: `(address type ${request[3]})` });
        socket.end(Buffer.from([0x05, 0x02, 0x00, 0x01, 0, 0, 0, 0, 0, 0]));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** An HTTP proxy that answers every CONNECT with 407 and an NTLM challenge. */
async function ntlmProxy(knocks: Knock[]): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(407, { 'proxy-authenticate': 'NTLM' });
    res.end();
  });
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    knocks.push({ via: 'http', target: req.url ?? '', ...(req.headers['user-agent'] ? { userAgent: req.headers['user-agent'] } : {}) });
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: NTLM\r\nContent-Length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

interface RouteAnswer {
  readonly baseUrl: string;
  readonly route: { readonly stack: string; readonly reason?: string };
}

/** Adds the corporate environment, tries to sign in there (it cannot succeed: the proxies let nothing through), and reads the route. */
async function tryTheService(app: ElectronApplication): Promise<RouteAnswer | undefined> {
  const page = await app.firstWindow();
  await page.waitForLoadState('domcontentloaded');
  return page.evaluate(async (baseUrl) => {
    type Answer<T> = Promise<{ ok: boolean; value: T }>;
    const api = (globalThis as unknown as {
      api: {
        profiles: { save(input: { name: string; baseUrl: string }): Answer<{ id: string }> };
        session: { signIn(input: { profileId: string; username: string; password: string }): Answer<unknown> };
        network: { status(): Answer<{ proxies: RouteAnswer[] }> };
      };
    }).api;
    const saved = await api.profiles.save({ name: 'Corporate', baseUrl });
    await api.session.signIn({ profileId: saved.value.id, username: 'someone@example.com', password: 'not-sent-anywhere-real' });
    return (await api.network.status()).value.proxies.find((route) => route.baseUrl === baseUrl);
  }, SERVICE);
}

test.describe('Proxy routes through Chromium\'s network stack', () => {
  test.skip(target.executable === null, `Electron binary not available, so the Electron suite did not run: ${target.executable === null ? target.reason : ''}`);

  let dataDir: string;
  const closers: Array<() => Promise<unknown>> = [];

  test.beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'capacity-desk-proxy-route-'));
  });

  test.afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  });

  test('a SOCKS proxy from the system settings is spoken to by Chromium, and Manage environments says so', async () => {
    if (target.executable === null) return;
    const knocks: Knock[] = [];
    const socks = await socksProxy(knocks);
    closers.push(() => new Promise((resolve) => socks.close(resolve)));
    const app = await launchApp(target, dataDir, [`--proxy-server=socks5://127.0.0.1:${(socks.address() as AddressInfo).port}`]);
    closers.push(() => app.close());
    const route = await tryTheService(app);
    expect(route?.route).toEqual({ stack: 'electron-net', reason: expect.stringMatching(/SOCKS/) });
    expect(knocks).toContainEqual({ via: 'socks', target: 'desk.corp.test:443' });
  });

  test('a proxy answering 407 NTLM gets the request again from Chromium, not undici', async () => {
    if (target.executable === null) return;
    const knocks: Knock[] = [];
    const proxy = await ntlmProxy(knocks);
    closers.push(() => new Promise((resolve) => proxy.close(resolve)));
    const app = await launchApp(target, dataDir, [`--proxy-server=http://127.0.0.1:${(proxy.address() as AddressInfo).port}`]);
    closers.push(() => app.close());
    const route = await tryTheService(app);
    expect(route?.route).toEqual({ stack: 'electron-net', reason: expect.stringMatching(/asks for NTLM sign-in/) });
    // undici's refused tunnel and the challenge probe carry no browser User-Agent; Chromium's CONNECT does.
    expect(knocks.filter((knock) => !/Chrome\/|Electron\//.test(knock.userAgent ?? '')).length).toBeGreaterThanOrEqual(2);
    expect(knocks.some((knock) => knock.target === 'desk.corp.test:443' && /Chrome\/|Electron\//.test(knock.userAgent ?? ''))).toBe(true);
  });
});
