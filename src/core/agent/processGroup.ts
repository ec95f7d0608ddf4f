import { spawn } from 'node:child_process';

/**
 * Runs one process for the run-task tool and ends it with everything it started. On POSIX the
 * process leads its own process group (spawned detached), and cancelling, timing out, or the
 * process ending while children it started still run, signals the whole group: SIGTERM, then
 * SIGKILL after a grace period. On Windows the tree is ended with `taskkill /T /F`.
 * Nothing here knows VS Code.
 */

export interface ProcessSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string | undefined;
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** Windows: pass the arguments as they are (cmd.exe parses its own command line). */
  readonly verbatim?: boolean | undefined;
}

export type ProcessEndReason = 'exited' | 'cancelled' | 'timeout' | 'failedToStart';

export interface ProcessEnd {
  readonly reason: ProcessEndReason;
  /** The exit code when the process exited by itself; undefined when it was killed or never started. */
  readonly exitCode: number | undefined;
  /** Why the process could not start (e.g. ENOENT), when it could not. */
  readonly error?: string;
}

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ProcessOptions {
  readonly signal?: AbortSignal | undefined;
  /** Ends the process group after this long; 0 or undefined: no limit. */
  readonly timeoutMs?: number | undefined;
  readonly onOutput?: ((text: string) => void) | undefined;
  /** Called once the process has started, with its pid (tests). */
  readonly onSpawn?: ((pid: number) => void) | undefined;
  readonly killGraceMs?: number;
  readonly platform?: NodeJS.Platform;
  readonly timers?: Timers;
}

const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

export function runProcessGroup(spec: ProcessSpec, options: ProcessOptions = {}): Promise<ProcessEnd> {
  const platform = options.platform ?? process.platform;
  const timers = options.timers ?? realTimers;
  const grace = options.killGraceMs ?? 3000;
  return new Promise<ProcessEnd>((resolve) => {
    if (options.signal?.aborted) {
      resolve({ reason: 'cancelled', exitCode: undefined });
      return;
    }
    const child = spawn(spec.command, [...spec.args], { cwd: spec.cwd, env: spec.env, detached: platform !== 'win32', windowsHide: true, windowsVerbatimArguments: spec.verbatim === true, stdio: ['ignore', 'pipe', 'pipe'] });
    let ending: ProcessEndReason | undefined;
    let exitCode: number | undefined;
    let startError: string | undefined;
    let killTimer: unknown;
    let timeoutTimer: unknown;
    let settled = false;

    const killTree = (): void => {
      const pid = child.pid;
      if (pid === undefined) return;
      if (platform === 'win32') {
        spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true, stdio: 'ignore' }).on('error', () => undefined);
        return;
      }
      signalGroup(pid, 'SIGTERM');
      if (killTimer === undefined) killTimer = timers.setTimeout(() => signalGroup(pid, 'SIGKILL'), grace);
    };
    const stop = (reason: ProcessEndReason): void => {
      if (ending !== undefined) return;
      ending = reason;
      killTree();
    };
    const onAbort = (): void => stop('cancelled');
    const finish = (): void => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      if (timeoutTimer !== undefined) timers.clearTimeout(timeoutTimer);
      if (killTimer !== undefined) timers.clearTimeout(killTimer);
      if (startError !== undefined) resolve({ reason: 'failedToStart', exitCode: undefined, error: startError });
      else resolve({ reason: ending ?? 'exited', exitCode: ending === undefined || ending === 'exited' ? exitCode : undefined });
    };

    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.timeoutMs) timeoutTimer = timers.setTimeout(() => stop('timeout'), options.timeoutMs);
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    const onData = (chunk: Buffer): void => options.onOutput?.(chunk.toString('utf8'));
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('error', (error) => {
      startError = error.message;
      finish();
    });
    child.on('exit', (code, signal) => {
      exitCode = code ?? (signal ? 128 : 1);
      // What the process started and left running (a server, a watcher) ends with it; its
      // output pipes then close and 'close' settles.
      if (ending === undefined) {
        ending = 'exited';
        killTree();
      }
    });
    child.on('close', finish);
  });
}
