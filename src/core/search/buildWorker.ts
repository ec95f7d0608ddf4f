/**
 * The bulk build's worker thread (bundled as its own entry): indexes the share of the files it is
 * sent and posts the result back as transferable arrays. See `SearchEngineOptions.buildWorker`.
 */
import { parentPort } from 'node:worker_threads';
import { buildPartial, transferList, type BuildMessage, type BuildRequest } from './bulk';

const port = parentPort;
if (port) {
  port.once('message', (request: BuildRequest) => {
    try {
      const result = buildPartial(request, (done) => port.postMessage({ kind: 'progress', done } satisfies BuildMessage));
      port.postMessage({ kind: 'done', result } satisfies BuildMessage, transferList(result));
    } catch (error) {
      port.postMessage({ kind: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies BuildMessage);
    }
  });
}
