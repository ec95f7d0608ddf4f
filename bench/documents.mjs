// Documents benchmark: PDFs to Markdown as the extension host does it (src/core/documents: pdf.js
// in Node without canvas, page images re-encoded as PNG, OCR requests through the metered core
// client), side by side with one page at a time. Runs alone (`npm run bench:documents`) or at the
// end of `npm run bench` (bench/run.mjs imports runDocumentsBench()).
//
// Method. The fixtures are drawn first (test/unit/documents/fixtures.ts, bundled): a 50-page PDF
// with a text layer and a 20-page PDF made of 480x640 page images. Each measured run is its own
// Node process (a fresh heap, so its peak RSS is the run's own): it reads the file, opens it,
// plans the pages, reads them, and assembles the Markdown. The 20-page image PDF is read against a
// sandbox in this process (its OCR model answers from a marker in each page's pixels) with a
// realistic delay before each answer (BENCH_DOCUMENTS_LATENCY_MS, default 800 ms: an OCR model
// reading one page), once with the bounded concurrency (stratus.documents.concurrency's default,
// 4) and once one page at a time.
//
// Figures:
//   metric documents.textPdfPagesPerSec       50 text-layer pages, open to Markdown, per second (median of 3)
//   metric documents.imagePdfPagesPerSec      20 scanned pages by OCR, bounded concurrency, per second
//   metric documents.serialImagePdfPagesPerSec the same one page at a time
//   metric documents.hostPeakRssMB            highest peak RSS of the reading processes
//   ratio documents/serial.concurrencySpeedup  serial time / bounded-concurrency time
// The webview's memory is not measured here: it lives in the workbench's renderer process (Chromium),
// which only a browser-driven run (the UI tier) can see, and a figure taken there would include the
// workbench itself.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleForNode, f1, f2, log, median, root, run, table } from './lib.mjs';

const env = process.env;
const int = (v, d, min = 0) => (v !== undefined && v !== '' ? Math.max(min, Math.floor(Number(v))) : d);
const LATENCY_MS = int(env.BENCH_DOCUMENTS_LATENCY_MS, 800);
const CONCURRENCY = int(env.BENCH_DOCUMENTS_CONCURRENCY, 4, 1);
const TEXT_PAGES = 50;
const IMAGE_PAGES = 20;

const CHILD = `
import { readFileSync } from 'node:fs';
import * as pdfjs from './src/core/documents/pdfjsEntry';
import { openDocument } from './src/core/documents/open';
import { planPages } from './src/core/documents/plan';
import { ocrReader, readPages } from './src/core/documents/run';
import { documentMarkdown } from './src/core/documents/markdown';
import { createMeteredInferenceClient } from './src/core/usage/meteredClient';

async function main() {
  const [file, baseUrl, apiKey, concurrency] = process.argv.slice(2);
  let events = 0;
  const client = createMeteredInferenceClient({ baseUrl, apiKey: async () => apiKey, onUsage: (e) => { if (e.kind === 'ocr') events++; } });
  const started = performance.now();
  const bytes = readFileSync(file);
  const source = await openDocument(bytes, 'bench.pdf', () => Promise.resolve(pdfjs), 8192);
  const infos = [];
  for (let n = 1; n <= source.pageCount; n++) infos.push(await source.info(n));
  const plan = planPages(infos, 'auto');
  const pages = await readPages({ source, plan, read: ocrReader(client, { id: 'deepseek-ocr:3b', maxModelLen: 8192 }), model: 'deepseek-ocr:3b', concurrency: Number(concurrency) });
  const markdown = documentMarkdown('bench.pdf', pages);
  const ms = performance.now() - started;
  await source.close();
  await client.close();
  const done = pages.filter((p) => p.status === 'done').length;
  const result = { ms, pages: pages.length, done, ocr: plan.filter((p) => p.action === 'ocr').length, chars: markdown.length, usageEvents: events, maxRssMB: process.resourceUsage().maxRSS / 1024 };
  process.stdout.write('RESULT ' + JSON.stringify(result) + '\\n');
}
main().then(() => process.exit(0), (e) => { process.stderr.write(String(e && e.stack || e) + '\\n'); process.exit(1); });
`;

const FIXTURES = `
export { imagePdf, textPdf } from './test/unit/documents/fixtures';
export { startSandbox } from './test/sandbox/index';
`;

/** One measured run in its own process. */
async function measure(childFile, pdf, sandbox, concurrency) {
  const r = await run(process.execPath, [childFile, pdf, sandbox.inferenceUrl, sandbox.credentials.apiKey, String(concurrency)], { timeoutMs: 300_000 });
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (r.code !== 0 || !line) throw new Error(`documents bench child failed (${r.code}${r.timedOut ? ', timed out' : ''}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(line.slice('RESULT '.length));
}

export async function runDocumentsBench() {
  const dir = mkdtempSync(join(tmpdir(), 'stratus-bench-documents-'));
  try {
    const childFile = await bundleForNode(join(dir, 'child.cjs'), { contents: CHILD });
    const fixturesFile = await bundleForNode(join(dir, 'fixtures.cjs'), { contents: FIXTURES });
    const { createRequire } = await import('node:module');
    const fixtures = createRequire(join(root, 'package.json'))(fixturesFile);
    const words = 'sovereign cloud gateway restart volume snapshot tenant quota network policy'.split(' ');
    const textPages = Array.from({ length: TEXT_PAGES }, (_, p) => Array.from({ length: 40 }, (_, l) => `${p + 1}.${l + 1} ${words.map((w, i) => words[(i + l + p) % words.length]).join(' ')}`).join('\n'));
    const textFile = join(dir, 'text.pdf');
    writeFileSync(textFile, await fixtures.textPdf(textPages));
    const imageFile = join(dir, 'image.pdf');
    writeFileSync(imageFile, await fixtures.imagePdf(Array.from({ length: IMAGE_PAGES }, (_, n) => ({ markdown: `# Page ${n + 1}\n\n| Item | Qty |\n| --- | --- |\n| vCPU | ${n + 1} |`, nonce: `bench-${n}` }))));

    const sandbox = await fixtures.startSandbox({ port: 0 });
    try {
      const textRuns = [];
      for (let i = 0; i < 3; i++) textRuns.push(await measure(childFile, textFile, sandbox, CONCURRENCY));
      if (textRuns.some((r) => r.done !== TEXT_PAGES || r.ocr !== 0)) throw new Error(`text PDF: ${JSON.stringify(textRuns)}`);
      sandbox.control.setLatency({ ms: LATENCY_MS, pathPrefix: '/v1/chat/completions' });
      const bounded = await measure(childFile, imageFile, sandbox, CONCURRENCY);
      const serial = await measure(childFile, imageFile, sandbox, 1);
      for (const r of [bounded, serial]) if (r.done !== IMAGE_PAGES || r.ocr !== IMAGE_PAGES || r.usageEvents !== IMAGE_PAGES) throw new Error(`image PDF: ${JSON.stringify(r)}`);
      const textMs = median(textRuns.map((r) => r.ms));
      const textRate = TEXT_PAGES / (textMs / 1000);
      const boundedRate = IMAGE_PAGES / (bounded.ms / 1000);
      const serialRate = IMAGE_PAGES / (serial.ms / 1000);
      const peak = Math.max(...textRuns.map((r) => r.maxRssMB), bounded.maxRssMB, serial.maxRssMB);
      log(`Documents: PDFs to Markdown (pdf.js in Node, sandbox OCR at ${LATENCY_MS} ms per page)`);
      log(table(['run', 'pages', 'ms', 'pages/s', 'peak RSS MB'], [
        ['text layer, 50 pages (median of 3)', TEXT_PAGES, f1(textMs), f2(textRate), f1(Math.max(...textRuns.map((r) => r.maxRssMB)))],
        [`scanned, 20 pages, ${CONCURRENCY} at once`, IMAGE_PAGES, f1(bounded.ms), f2(boundedRate), f1(bounded.maxRssMB)],
        ['scanned, 20 pages, one at a time', IMAGE_PAGES, f1(serial.ms), f2(serialRate), f1(serial.maxRssMB)],
      ]));
      log('webview memory: not measured (the document view runs in the workbench renderer; see the header of bench/documents.mjs)');
      log(`metric documents.textPdfPagesPerSec ${f2(textRate)}`);
      log(`metric documents.imagePdfPagesPerSec ${f2(boundedRate)}`);
      log(`metric documents.serialImagePdfPagesPerSec ${f2(serialRate)}`);
      log(`metric documents.hostPeakRssMB ${f1(peak)}`);
      log(`ratio documents/serial.concurrencySpeedup ${f2(serial.ms / bounded.ms)}`);
    } finally {
      await sandbox.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runDocumentsBench().catch((error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exitCode = 1;
  });
}
