/**
 * The bulk build's worker thread (bundled as its own entry): indexes files from the end of the list it is
 * sent (see FileClaims) and posts the result back packed, its arrays moved. See `SearchEngineOptions.buildWorker`.
 */
import { parentPort } from 'node:worker_threads';
import { warmUp } from './buildWarmUp';
import { buildShare, transferList, type BuildMessage, type BuildRequest } from './bulk';

/** Most of a warm-up (the optimised code is there after ~500 files' worth). */
const WARM_UP_MS = 60;
const WARM_UP_SLICE_MS = 3;

const port = parentPort;
if (port) {
  let received = false;
  port.once('message', (request: BuildRequest) => {
    received = true;
    try {
      const result = buildShare(request, (done) => port.postMessage({ kind: 'progress', done } satisfies BuildMessage));
      port.postMessage({ kind: 'done', result } satisfies BuildMessage, transferList(result));
    } catch (error) {
      port.postMessage({ kind: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies BuildMessage);
    }
  });
  // While the walk goes on: warm the indexing code up in short slices (the request is taken
  // between two), for WARM_UP_MS at most.
  let left = WARM_UP_MS;
  const slice = (): void => {
    if (received || left <= 0) return;
    warmUp(WARM_UP_SLICE_MS);
    left -= WARM_UP_SLICE_MS;
    setImmediate(slice);
  };
  setImmediate(slice);
}
