import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/**
 * Servers a test file starts on 127.0.0.1 at a free port: each is closed, open
 * connections and all, after the test that started it, so a port or a hung
 * socket never leaks into the next test. Call once per file, at the top level.
 */
export function loopbackServers(): { listen(server: Server): Promise<number> } {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
  return {
    async listen(server) {
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return (server.address() as AddressInfo).port;
    },
  };
}

/**
 * A corporate proxy answering CONNECT: it alone knows where the service lives
 * (every tunnel goes to `servicePort` on this computer, whatever host name was
 * asked for, so "desk.corp.test" need not resolve). `tunnels` keeps each
 * CONNECT target, in order.
 */
export function tunnellingProxy(servicePort: number): { server: Server; tunnels: string[] } {
  const tunnels: string[] = [];
  const server = createServer();
  server.on('connect', (req, clientSocket, head) => {
    tunnels.push(req.url ?? '');
    const upstream = connect(servicePort, '127.0.0.1', () => {
      clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(clientSocket);
      clientSocket.pipe(upstream);
    });
    upstream.on('error', () => clientSocket.destroy());
    clientSocket.on('error', () => upstream.destroy());
  });
  return { server, tunnels };
}
