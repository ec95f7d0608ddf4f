import type { AddressInfo, Socket } from 'node:net';
import { createControl } from './control/controller';
import { createSandboxServer } from './core/server';
import { DEMO_API_KEY, DEMO_PAT, EXPIRED_PAT, READ_ONLY_PAT, type PatSpec } from './credentials';
import { resolveOptions, SandboxState } from './state';
import type { Sandbox, SandboxOptions } from './types';

export type {
  BurstSpec,
  BurstStatus,
  CompletionStreamRecord,
  ConsoleRateLimits,
  ControlSnapshot,
  DeprecationSpec,
  FailActivitiesSpec,
  LatencySpec,
  RecordedRequest,
  Sandbox,
  SandboxControl,
  SandboxCredentials,
  SandboxOptions,
  SandboxProfile,
  SeedSpec,
  StreamFaultKind,
  StreamFaultSpec,
  Tier,
} from './types';
export type { PatSpec } from './credentials';
export type { SandboxTimers } from './core/clock';
export type { GatewaySpec } from './core/gateway';

/** Second demo PAT: its JWTs may read but every write answers 403. */
export const SANDBOX_READ_ONLY_PAT: PatSpec = { ...READ_ONLY_PAT };
/** A PAT whose exchange answers 401 (expired). */
export const SANDBOX_EXPIRED_PAT: PatSpec = { ...EXPIRED_PAT };

/** Starts the sandbox (both APIs and the control surface on one port; port 0 = a free port). */
export async function startSandbox(options?: SandboxOptions): Promise<Sandbox> {
  const resolved = resolveOptions(options);
  const state = new SandboxState(resolved);
  const control = createControl(state);
  const server = createSandboxServer(state, control);
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = resolved.host === '0.0.0.0' || resolved.host === '::' ? '127.0.0.1' : resolved.host;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;

  return {
    inferenceUrl: `${base}/v1`,
    consoleUrl: base,
    controlUrl: `${base}/__sandbox`,
    profile: resolved.profile,
    credentials: { apiKey: DEMO_API_KEY, patId: DEMO_PAT.id, patSecret: DEMO_PAT.secret },
    control,
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        state.closing = true;
        state.clock.close();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        sockets.clear();
      });
      return closing;
    },
  };
}
