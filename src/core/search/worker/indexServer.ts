import type { Worker } from 'node:worker_threads';
import { CancelledError } from '../../errors';
import type { Logger } from '../../log';
import type { EmbedFn } from '../query/embeddings';
import { SearchEngine } from '../engine/engine';
import { NodeFileSystem, NodeIndexStorage } from '../shared/files';
import { parseToWorker, UPDATED_PATHS_MAX, type FromWorker, type InferenceOp, type ToWorker, type WireError, type WireNote } from './protocol';
import type { SearchInference, SearchNote, SearchSettings } from '../shared/searchTypes';

/** The end of a message channel the server talks through (a worker's parentPort, a MessagePort in tests). */
export interface Port {
  on(event: 'message', listener: (message: unknown) => void): unknown;
  postMessage(message: FromWorker): void;
}

/** An error the host reported for an inference call it made for the worker (its `ref` names the host's error). */
export class HostCallError extends Error {
  constructor(readonly wire: WireError) {
    super(wire.message);
    this.name = 'HostCallError';
  }
}

export function toWireError(error: unknown): WireError {
  if (error instanceof HostCallError) return error.wire;
  const cancelled = error instanceof CancelledError || (error instanceof Error && error.name === 'AbortError');
  return { message: error instanceof Error ? error.message : String(error), cancelled };
}

export function toWireNote(note: SearchNote): WireNote {
  return note.kind === 'rerank_failed' || note.kind === 'embeddings_failed' ? { kind: note.kind, error: toWireError(note.error) } : note;
}

/**
 * Serves one workspace's index over `port` (protocol.ts): the engine lives here, the host sends
 * requests and file events and gets small answers. Malformed messages are dropped with a warning.
 */
export function serveIndex(port: Port, makeBuildWorker: (script: string) => Worker): void {
  const post = (m: FromWorker): void => port.postMessage(m);
  const logger: Logger = {
    trace: () => undefined,
    debug: () => undefined,
    info: (message) => post({ t: 'log', level: 'info', message }),
    warn: (message) => post({ t: 'log', level: 'warn', message }),
    error: (message) => post({ t: 'log', level: 'error', message: message instanceof Error ? message.message : message }),
  };
  let engine: SearchEngine | undefined;
  let settings: SearchSettings | undefined;
  const running = new Map<number, AbortController>();
  const calls = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  let nextCall = 1;

  /** Asks the host to make an inference call; rejects with the host's error (as a HostCallError). */
  const call = (op: InferenceOp, request: unknown, signal?: AbortSignal): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new CancelledError());
      const id = nextCall++;
      calls.set(id, { resolve, reject });
      signal?.addEventListener('abort', () => {
        if (calls.delete(id)) reject(new CancelledError());
      });
      post({ t: 'call', id, op, request });
    });
  const inference: SearchInference = {
    embed: ((request, options) => call('embed', request, options?.signal)) as EmbedFn,
    listModels: (signal) => call('listModels', undefined, signal) as ReturnType<SearchInference['listModels']>,
    rerank: () => Promise.reject(new Error('reranking runs in the extension host')),
  };

  const status = (): void => {
    if (engine) post({ t: 'status', ready: engine.isReady, ...engine.stats });
  };

  /** Runs one request: its answer, or its failure, goes back under its id. */
  const answer = (id: number, work: (signal: AbortSignal) => Promise<unknown>): void => {
    const controller = new AbortController();
    running.set(id, controller);
    // The status goes first: once the host has its answer, `isReady` and `stats` are current.
    work(controller.signal).then(
      (value) => {
        running.delete(id);
        status();
        post({ t: 'done', id, value });
      },
      (error: unknown) => {
        running.delete(id);
        status();
        post({ t: 'failed', id, error: toWireError(error) });
      },
    );
  };

  const need = (): SearchEngine => {
    if (!engine) throw new Error('the index worker was not initialised');
    return engine;
  };

  const handle = (m: ToWorker): void => {
    switch (m.t) {
      case 'init': {
        if (engine) return logger.warn('Search index worker: initialised twice; ignored.');
        settings = m.settings;
        const { init } = m;
        const script = init.buildWorkerScript;
        engine = new SearchEngine({
          fs: new NodeFileSystem(init.root),
          ...(init.storageDir ? { storage: new NodeIndexStorage(init.storageDir) } : {}),
          logger,
          settings: () => settings ?? m.settings,
          ...(init.inference ? { inference: () => inference } : {}),
          ...(script ? { buildWorker: () => makeBuildWorker(script) } : {}),
        });
        engine.onDidUpdate = (paths) => {
          post({ t: 'updated', paths: paths.slice(0, UPDATED_PATHS_MAX) });
          status();
        };
        return;
      }
      case 'settings':
        settings = m.settings;
        return;
      case 'open':
        return answer(m.id, (signal) => {
          const e = need();
          const onProgress = (p: { done: number; total: number }): void => post({ t: 'progress', id: m.id, done: p.done, total: p.total });
          return m.rebuild ? e.rebuild({ signal, onProgress }) : e.open({ signal, onProgress });
        });
      case 'local':
        return answer(m.id, async (signal) => {
          const e = need();
          await e.whenLoaded();
          const local = await e.local(m.query, signal);
          return { hits: local.hits, notes: local.notes.map(toWireNote) };
        });
      case 'lexical':
        return answer(m.id, async () => {
          const e = need();
          await e.whenLoaded();
          return e.lexical(m.query, m.limit);
        });
      case 'update': {
        const e = need();
        if (m.dropped) logger.warn(`Search index worker: ${m.dropped} file event${m.dropped === 1 ? '' : 's'} dropped (malformed, or a path over 4,096 characters); the other ${m.events.length} applied.`);
        for (const [kind, path] of m.events) {
          if (kind === 'changed') e.notifyChanged(path);
          else e.notifyDeleted(path);
        }
        return;
      }
      case 'pendingEmbeddings':
        return answer(m.id, async () => {
          const e = need();
          await e.whenLoaded();
          return e.pendingEmbeddings(m.model);
        });
      case 'storeEmbeddings':
        return answer(m.id, async () => {
          const e = need();
          await e.whenLoaded();
          return e.storeEmbeddings(m.model, m.vectors);
        });
      case 'flush':
        return answer(m.id, () => need().flush());
      case 'persisted':
        return answer(m.id, () => need().persisted());
      case 'close':
        return answer(m.id, async () => {
          engine?.dispose();
          await engine?.persisted();
        });
      case 'cancel':
        running.get(m.id)?.abort();
        return;
      case 'answer': {
        const pending = calls.get(m.id);
        if (!pending) return;
        calls.delete(m.id);
        if (m.ok) pending.resolve(m.value);
        else pending.reject(m.error.cancelled ? new CancelledError() : new HostCallError(m.error));
        return;
      }
    }
  };

  port.on('message', (raw) => {
    const m = parseToWorker(raw);
    if (!m) {
      logger.warn(`Search index worker: a malformed message was dropped (${describe(raw)}).`);
      return;
    }
    try {
      handle(m);
    } catch (error) {
      const id = 'id' in m && m.t !== 'answer' && m.t !== 'cancel' ? m.id : undefined;
      if (id !== undefined) post({ t: 'failed', id, error: toWireError(error) });
      else logger.warn(`Search index worker: ${toWireError(error).message}`);
    }
  });
}

function describe(raw: unknown): string {
  if (typeof raw !== 'object' || raw === null) return typeof raw;
  const t = (raw as { t?: unknown }).t;
  return typeof t === 'string' ? `kind ${t.slice(0, 40)}` : 'no kind';
}
