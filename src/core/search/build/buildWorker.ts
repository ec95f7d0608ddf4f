/**
 * The bulk build's worker thread (bundled as its own entry): indexes files from the end of the
 * list the walk sends it (see FileClaims, `buildShare`) and posts the result back packed, its
 * arrays moved. See `SearchEngineOptions.buildWorker`.
 */
import { parentPort } from 'node:worker_threads';
import { buildShare, transferList, type BuildMessage, type BuildRequest } from './bulk';

const port = parentPort;
if (port) {
  port.once('message', (request: BuildRequest) => {
    try {
      const result = buildShare(request, (done) => port.postMessage({ kind: 'progress', done } satisfies BuildMessage));
      port.postMessage({ kind: 'done', result } satisfies BuildMessage, transferList(result));
    } catch (error) {
      port.postMessage({ kind: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies BuildMessage);
    }
  });
}
