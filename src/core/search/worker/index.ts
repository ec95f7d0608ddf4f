/**
 * Worker (floor 8 of search, the top): the index worker, the thread that owns the engine. The
 * messages both ways, each checked on arrival (`protocol.ts`), the worker's side (`indexServer.ts`;
 * the thread itself is `indexWorker.ts`, bundled as its own entry, `dist/searchIndexWorker.js`,
 * and not exported here) and the extension host's typed client for it (`indexClient.ts`).
 */
export { IndexClient, IndexWorkerError, type IndexClientOptions } from './indexClient';
export { serveIndex, type Port } from './indexServer';
export { parseFromWorker, parseToWorker, type FromWorker, type ToWorker } from './protocol';
