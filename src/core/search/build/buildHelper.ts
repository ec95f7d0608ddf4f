import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import type { Logger } from '../../log';
import type { BuildMessage, BuildRequest, BuildResult } from './bulk';
import { FileClaims } from './fileClaims';
import type { LaidOutPartial } from '../shared/indexTypes';
import { unpackPartial } from './packedPartial';

/** Below this many files a build worker costs more (start-up, merge) than it saves. */
export const WORKER_MIN_FILES = 400;
/** Files the walk sends the worker at a time, once there are WORKER_MIN_FILES. */
const SEND_BATCH = 64;

/**
 * The index worker's side of a build worker (buildWorker.ts; bulk.ts `buildShare`): started
 * before the walk and given its request at once, it is sent the files as the walk finds them
 * (the end of the list first) and starts indexing while the walk goes on; `end` completes the
 * list. Failures are kept, not thrown: `result` is then undefined (with a warning) and the index
 * worker indexes what the build worker had not sent back.
 */
export class BuildHelper {
  readonly claims = FileClaims.create();
  readonly result: Promise<BuildResult | undefined>;
  /** This end sends the files; the other goes to the worker with the request. */
  private readonly port: MessagePort;
  private workerPort: MessagePort | undefined;
  private pending: string[] = [];
  private found = 0;
  private settled = false;
  private progress: (done: number) => void = () => undefined;
  private detach = (): void => undefined;
  private resolveResult: (result: BuildResult | undefined) => void = () => undefined;

  private constructor(
    private readonly worker: Worker,
    private readonly logger: Logger,
  ) {
    this.result = new Promise<BuildResult | undefined>((resolve) => (this.resolveResult = resolve));
    worker.on('message', (message: BuildMessage) => {
      if (this.settled) return; // a report sent before it was stopped
      if (message.kind === 'progress') this.progress(message.done);
      else if (message.kind === 'done') this.finish(message.result);
      else this.finish(undefined, message.message);
    });
    worker.on('error', (error: Error) => this.finish(undefined, error.message));
    worker.on('exit', (code: number) => this.finish(undefined, `exited with code ${code}`));
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.workerPort = port2;
  }

  /** Starts a worker; undefined (with a warning) when it cannot be started. */
  static launch(make: () => Worker, logger: Logger): BuildHelper | undefined {
    try {
      return new BuildHelper(make(), logger);
    } catch (error) {
      logger.warn(`Search index: no build worker (${error instanceof Error ? error.message : String(error)}); one thread.`);
      return undefined;
    }
  }

  /** Sends the worker its request; `onProgress` gets how many files it has indexed. */
  start(request: Omit<BuildRequest, 'paths' | 'claims'>, signal: AbortSignal | undefined, onProgress: (done: number) => void): void {
    const paths = this.workerPort;
    if (!paths) return;
    this.workerPort = undefined;
    if (signal?.aborted) this.finish(undefined);
    if (this.settled) return;
    const abort = (): void => this.finish(undefined);
    signal?.addEventListener('abort', abort);
    this.detach = () => signal?.removeEventListener('abort', abort);
    this.progress = onProgress;
    this.worker.postMessage({ ...request, paths, claims: this.claims.buffer } satisfies BuildRequest, [paths]);
  }

  /** A file the walk found (in descending list order). */
  add(path: string): void {
    this.pending.push(path);
    if (++this.found >= WORKER_MIN_FILES && this.pending.length >= SEND_BATCH) this.send();
  }

  /** The walk ended with `total` files: the rest is sent, then the list is complete. */
  end(total: number): void {
    this.send();
    this.claims.end(total);
  }

  /** Stops the worker quietly (too few files, a failed walk, or cancelled). */
  cancel(): void {
    this.finish(undefined);
  }

  /** The worker's share as a partial index, when it is whole and well-formed (else undefined, with a warning). */
  check(result: BuildResult, from: number, total: number): LaidOutPartial | undefined {
    try {
      if (result.from !== from) throw new Error(`it indexed from file ${result.from}, not ${from}`);
      const partial = unpackPartial(result.partial);
      if (partial.files.length !== result.indexed || result.indexed + result.skipped.length !== total - from) throw new Error('its counts do not add up');
      return partial;
    } catch (error) {
      this.logger.warn(`Search index: the build worker's share was not used (${error instanceof Error ? error.message : String(error)}); the main thread indexes it.`);
      return undefined;
    }
  }

  private send(): void {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    if (this.settled) return;
    this.port.postMessage(batch.join('\0'));
    this.claims.publish(batch.length);
  }

  private finish(value: BuildResult | undefined, why?: string): void {
    if (this.settled) return;
    this.settled = true;
    this.detach();
    if (why) this.logger.warn(`Search index: the build worker failed (${why}); the main thread indexes its share.`);
    this.port.close();
    this.workerPort?.close();
    void this.worker.terminate().catch(() => undefined);
    this.resolveResult(value);
  }
}
