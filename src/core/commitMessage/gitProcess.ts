import { spawn } from 'node:child_process';
import { CancelledError } from '../errors';

/** What a capped git command gave: at most the bytes asked for, and whether there was more. */
export interface GitOutput {
  readonly stdout: Buffer;
  /** The output went past the cap: the process was ended and the rest never read. */
  readonly truncated: boolean;
}

/** Runs one git command in a repository, reading at most `maxBytes` of its output. */
export type GitRunner = (args: readonly string[], maxBytes: number, signal?: AbortSignal) => Promise<GitOutput>;

/** A git command that failed (exit code, or could not start). */
export class GitCommandError extends Error {
  constructor(readonly args: readonly string[], readonly exitCode: number | undefined, readonly stderr: string) {
    super(`git ${args[0] ?? ''} failed${exitCode !== undefined ? ` (exit code ${exitCode})` : ''}: ${stderr.trim().slice(0, 300)}`);
    this.name = 'GitCommandError';
  }
}

/**
 * A runner over the git executable (the built-in git extension's, so the same git the Source
 * Control view uses) in `cwd`. Paths are literal (`--literal-pathspecs`: a file named `*.ts` is
 * that file), no pager, no colour, no external diff tool. The process is ended as soon as the
 * cap is reached, so a 200 MB diff costs what the cap allows, not 200 MB.
 */
export function gitProcessRunner(gitPath: string, cwd: string): GitRunner {
  return (args, maxBytes, signal) => new Promise<GitOutput>((resolve, reject) => {
    const child = spawn(gitPath, ['--literal-pathspecs', '--no-pager', '-c', 'core.quotepath=off', ...args], {
      cwd,
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let stderr = '';
    const stop = (): void => {
      if (!child.killed) child.kill();
    };
    const onAbort = (): void => stop();
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      if (truncated) return;
      const room = maxBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, Math.max(0, room)));
        size = maxBytes;
        truncated = true;
        stop();
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(new GitCommandError(args, undefined, error.message));
    });
    child.on('close', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) reject(new CancelledError('Reading the changes was cancelled'));
      else if (!truncated && code !== 0) reject(new GitCommandError(args, code ?? undefined, stderr));
      else resolve({ stdout: Buffer.concat(chunks), truncated });
    });
  });
}
