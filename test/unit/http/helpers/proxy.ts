import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface TestProxy {
  url: string;
  /** `host:port` of every CONNECT tunnel opened. */
  tunnels: string[];
  /** Proxy-Authorization headers received. */
  authorizations: Array<string | undefined>;
  close(): Promise<void>;
}

/** A minimal CONNECT proxy on loopback; `requireAuth` answers 407 to tunnels without credentials. */
export async function startProxy(options: { requireAuth?: string } = {}): Promise<TestProxy> {
  const sockets = new Set<Socket>();
  const tunnels: string[] = [];
  const authorizations: Array<string | undefined> = [];
  const server: Server = createServer((_req, res) => {
    res.writeHead(405);
    res.end();
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    tunnels.push(target);
    authorizations.push(req.headers['proxy-authorization']);
    if (options.requireAuth && req.headers['proxy-authorization'] !== options.requireAuth) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    const [host, port] = target.split(':');
    const upstream = connect(Number(port), host ?? '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
