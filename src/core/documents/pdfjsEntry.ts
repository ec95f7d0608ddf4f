/**
 * pdf.js for the extension host, bundled on its own as dist/pdfjs.js (scripts/build.mjs) and
 * loaded only when a PDF is read: activation never pays for it. Its worker runs in the same
 * thread (pdf.js' "fake worker", found through `globalThis.pdfjsWorker`): no worker file to
 * locate, no canvas, no native module. Tests import this file directly.
 */
// @ts-expect-error The worker build ships no type declarations; only its module object is handed on.
import * as worker from 'pdfjs-dist/legacy/build/pdf.worker.mjs';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';

(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;

export { getDocument, OPS };
