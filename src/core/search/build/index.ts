/**
 * Build (floor 5 of search): filling a `LexicalIndex` from the workspace. The walk and the
 * incremental updates (`indexer.ts`), indexing a file's bytes and the cold build's share
 * (`bulk.ts`), and the cold build shared by two threads: one file list claimed from both ends
 * (`fileClaims.ts`), the helper thread's side (`buildHelper.ts`; the thread itself is
 * `buildWorker.ts`, bundled as its own entry, `dist/searchWorker.js`, and not exported here) and
 * the partial index it hands back, packed (`packedPartial.ts`).
 */
export { BuildHelper, WORKER_MIN_FILES } from './buildHelper';
export { buildShare, indexBytes, indexLoaded, nulInProbe, transferList, type BuildMessage, type BuildRequest, type BuildResult, type IndexOutcome } from './bulk';
export { FileClaims } from './fileClaims';
export { Indexer, yieldToEventLoop, type IndexerOptions } from './indexer';
export { layOutPartial, packPartial, unpackPartial, MalformedPartialError, type PackedPartial } from './packedPartial';
