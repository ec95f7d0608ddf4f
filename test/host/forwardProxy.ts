// A forward proxy started inside the extension host by the network tests: CONNECT tunnels (https
// and anything VS Code tunnels) and absolute-URI forwarding (plain http), logging what it sees as a
// proxy operator would: the request line and headers of forwarded requests, the target of tunnels.
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';

export interface ForwardProxy {
  readonly url: string;
  /** Every line the proxy could log: `CONNECT host:port`, or `GET http://... <headers as JSON>`. */
  readonly log: string[];
  /** `host:port` of each tunnel and each forwarded request's target. */
  targets(): string[];
  close(): Promise<void>;
}

export async function startForwardProxy(): Promise<ForwardProxy> {
  const log: string[] = [];
  const targets: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req: IncomingMessage, res) => {
    // Absolute-URI form: the proxy sees everything of a plain-http request, headers included.
    log.push(`${req.method ?? ''} ${req.url ?? ''} ${JSON.stringify(req.headers)}`);
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    targets.push(target.host);
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const upstream = httpRequest({ host: target.hostname, port: target.port || 80, method: req.method, path: `${target.pathname}${target.search}`, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    log.push(`CONNECT ${target} ${JSON.stringify(req.headers)}`);
    targets.push(target);
    const [host, port] = target.split(':');
    const upstream = connect(Number(port), host ?? '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    targets: () => [...targets],
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface PortForwarder {
  /** `http://127.0.0.2:port`: a non-loopback NAME for VS Code's resolver (it sends localhost and 127.0.0.1 direct). */
  readonly url: string;
  readonly host: string;
  /** Connections accepted: direct requests and the proxy's tunnels both arrive here. */
  connections(): number;
  close(): Promise<void>;
}

/** Forwards TCP from 127.0.0.2:port to a loopback target (the sandbox). */
export async function startPortForwarder(targetPort: number): Promise<PortForwarder> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createNetServer((client) => {
    accepted++;
    sockets.add(client);
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    const done = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', done).on('close', done);
    upstream.on('error', done).on('close', done);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.2:${port}`,
    host: `127.0.0.2:${port}`,
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
