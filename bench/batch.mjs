// The Batch API benchmark (issue 42): builds a 50,000-request job as JSONL parts on disk and reads a
// 50,000-line results file back, matched by custom_id, through the pure core
// (src/core/inference/batch), and prices the job now against as a batch (src/core/usage/batchCost).
// Runs alone (`node bench/batch.mjs`) and as part of `npm run bench` (BENCH_SKIP_BATCH=1 leaves it out).
//
// Figures:
//   metric batch.buildMBPerSec       JSONL written per second while building the 50,000-request job
//   metric batch.peakHeapMB50k       peak heap growth over a forced-GC baseline while building and
//                                    reading the 50,000-line job (goal < 100 MB, independent of size)
//   metric batch.peakHeapMB10k       the same for 10,000 lines (for comparison: the growth should not
//                                    follow the job's size)
//   metric batch.resultsParseMs50k   reading and matching the 50,000-line results file from disk
//   ratio batch/standard.cost        the job's EUR as a batch / sent now (the contract: 0.50)
// Each size runs in its own child process (node --expose-gc), so heaps do not mix.
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleForNode, f2, log } from './lib.mjs';

const PROMPT_CHARS = Number(process.env.BENCH_BATCH_PROMPT_CHARS ?? 1200);
const MAX_TOKENS = 400;

function bundle(tmp) {
  return bundleForNode(join(tmp, 'stratus-batch.cjs'), {
    contents: [
      "export { fileSink, splitJsonl, readResults, matchResults } from './src/core/inference/batch';",
      "export { addChatRequestTokens, estimateJobCost } from './src/core/usage/batchCost';",
    ].join('\n'),
  });
}

/** The job's requests, generated one at a time (never held as a list). */
function* requests(n) {
  const text = 'function handler(request, response) { return response.send(request.body); }\n';
  const body = text.repeat(Math.ceil(PROMPT_CHARS / text.length)).slice(0, PROMPT_CHARS);
  for (let i = 0; i < n; i++) {
    yield { customId: `file-${i}`, body: { model: 'gpt-oss:120b', max_tokens: MAX_TOKENS, messages: [{ role: 'system', content: 'Add JSDoc to every function.' }, { role: 'user', content: `src/file${i}.js\n${body}` }] } };
  }
}

/** A results file of n lines (in reverse order, one in 50 an error), written as a stream. */
async function writeResults(m, path, n) {
  const sink = m.fileSink(path);
  const answer = 'Here is the file with JSDoc added.\n'.repeat(12);
  let buf = '';
  for (let i = n - 1; i >= 0; i--) {
    buf +=
      i % 50 === 7
        ? `${JSON.stringify({ id: `r${i}`, custom_id: `file-${i}`, response: null, error: { code: 'model_not_found', message: 'no such model' } })}\n`
        : `${JSON.stringify({ id: `r${i}`, custom_id: `file-${i}`, response: { status_code: 200, body: { id: `chatcmpl-${i}`, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }], usage: { prompt_tokens: 420, completion_tokens: 130, total_tokens: 550 } } } })}\n`;
    if (buf.length > 1 << 16) {
      await sink.write(Buffer.from(buf));
      buf = '';
    }
  }
  await sink.write(Buffer.from(buf));
  await sink.close();
}

async function child(bundlePath, n) {
  const m = await import(pathToFileURL(bundlePath).href).then((x) => x.default ?? x);
  const tmp = mkdtempSync(join(tmpdir(), 'stratus-bench-batch-child-'));
  try {
    const resultsPath = join(tmp, 'results.jsonl');
    await writeResults(m, resultsPath, n);
    const gc = /** @type {() => void} */ (globalThis.gc);
    gc();
    gc();
    const base = process.memoryUsage().heapUsed;
    let peak = base;
    const sample = () => {
      const h = process.memoryUsage().heapUsed;
      if (h > peak) peak = h;
    };
    const timer = setInterval(sample, 5);
    let written = 0;
    const tokens = { inputTokens: 0, outputTokens: 0 };
    const counted = function* () {
      for (const r of requests(n)) {
        m.addChatRequestTokens(tokens, r.body);
        if (++written % 1000 === 0) sample();
        yield r;
      }
    };
    const started = performance.now();
    const parts = await m.splitJsonl(counted(), (i) => m.fileSink(join(tmp, `job-${i}.jsonl`)), { endpoint: '/v1/chat/completions' });
    const buildMs = performance.now() - started;
    const bytes = parts.reduce((s, p) => s + p.bytes, 0);
    const ids = function* () {
      for (let i = 0; i < n; i++) yield `file-${i}`;
    };
    const readStarted = performance.now();
    let seen = 0;
    const summary = await m.matchResults(ids(), m.readResults(createReadStream(resultsPath, { highWaterMark: 1 << 16 })), () => {
      if (++seen % 1000 === 0) sample();
    });
    const parseMs = performance.now() - readStarted;
    sample();
    clearInterval(timer);
    if (summary.succeeded + summary.failed.length !== n || summary.missing.length !== 0) throw new Error(`results mismatch: ${JSON.stringify({ ok: summary.succeeded, failed: summary.failed.length, missing: summary.missing.length })}`);
    const cost = m.estimateJobCost(tokens);
    process.stdout.write(`RESULT ${JSON.stringify({ n, parts: parts.length, bytes, buildMs, parseMs, peakHeapMB: (peak - base) / (1024 * 1024), batchEur: cost.batchEur, standardEur: cost.standardEur })}\n`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function runChild(bundlePath, n) {
  const res = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', bundlePath, String(n)], { encoding: 'utf8', timeout: 600_000 });
  const line = (res.stdout ?? '').split('\n').find((l) => l.startsWith('RESULT '));
  if (res.status !== 0 || !line) throw new Error(`batch child (${n}) failed: ${(res.stderr ?? '').trim().split('\n').slice(0, 3).join(' ')}`);
  return JSON.parse(line.slice(7));
}

export async function runBatchBench() {
  const tmp = mkdtempSync(join(tmpdir(), 'stratus-bench-batch-'));
  try {
    log(`Batch benchmark: a 50,000-request job (${PROMPT_CHARS}-character prompts) built as JSONL and its 50,000-line results read back`);
    const bundlePath = await bundle(tmp);
    const small = runChild(bundlePath, 10_000);
    const large = runChild(bundlePath, 50_000);
    log(`  50k: ${large.parts} part(s), ${f2(large.bytes / 1e6)} MB in ${f2(large.buildMs)} ms; results read in ${f2(large.parseMs)} ms; EUR now ${f2(large.standardEur)}, as a batch ${f2(large.batchEur)}`);
    log(`metric batch.buildMBPerSec ${f2(large.bytes / 1e6 / (large.buildMs / 1000))}`);
    log(`metric batch.peakHeapMB50k ${f2(large.peakHeapMB)}`);
    log(`metric batch.peakHeapMB10k ${f2(small.peakHeapMB)}`);
    log(`metric batch.resultsParseMs50k ${f2(large.parseMs)}`);
    log(`ratio batch/standard.cost ${(large.batchEur / large.standardEur).toFixed(2)}`);
  } catch (error) {
    log(`batch benchmark FAILED: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  child(process.argv[3] ?? '', Number(process.argv[4] ?? 50_000)).then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`${error?.stack ?? error}\n`);
      process.exit(1);
    },
  );
} else if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runBatchBench().catch((error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exitCode = 1;
  });
}
