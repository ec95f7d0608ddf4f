/**
 * The index worker (bundled as its own entry, dist/searchIndexWorker.js): the thread that owns a
 * workspace's search index. It builds, loads, persists and updates the index and answers the
 * local stage of a search; the extension host keeps only small results (see protocol.ts and
 * indexClient.ts). What needs the host's credentials (embedding calls) is asked of the host.
 */
import { parentPort, type MessagePort, Worker } from 'node:worker_threads';
import { serveIndex } from './indexServer';

const port: MessagePort | null = parentPort;
if (port) serveIndex(port, (script) => new Worker(script));
