/**
 * The Batch API's JSONL (src/core/inference/batch): requests written in parts and read back line
 * by line, cut anywhere, give every custom_id and body back in order within the limits; results in
 * any order, with errors, repeats, unknown ids and junk, are matched exactly; hostile bytes give
 * lines or a typed error; and reading stays linear in the input.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonlLines, matchResults, readResults, splitJsonl, type BatchRequest, type JsonlPartSink } from '../../../src/core/inference/batch';
import { cpuMicrosAsync } from './growth';
import { assertTyped, checkAsync } from './harness';

function split(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const p of points) {
    out.push(bytes.slice(at, p));
    at = p;
  }
  out.push(bytes.slice(at));
  return out;
}

async function* chunks(list: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const c of list) yield c;
}

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of source) out.push(x);
  return out;
}

function memoryParts(): { parts: Uint8Array[][]; open: (i: number) => JsonlPartSink } {
  const parts: Uint8Array[][] = [];
  return {
    parts,
    open: (i) => {
      const part: Uint8Array[] = [];
      parts[i] = part;
      return { write: (c) => void part.push(c.slice()), close: () => undefined };
    },
  };
}

function joinBytes(list: readonly Uint8Array[]): Uint8Array {
  return Buffer.concat(list.map((c) => Buffer.from(c)));
}

// Any text: lone surrogates, newlines, quotes, NULs, every plane.
const anyText = fc.string({ unit: 'binary', maxLength: 40 });
const request = fc.record({ customId: fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }), content: anyText, extra: fc.jsonValue({ maxDepth: 2 }) });

describe('properties: batch JSONL', () => {
  it('requests written in parts and read back, cut anywhere, round-trip every custom_id and body in order, each part within its limits', async () => {
    await checkAsync(
      fc.asyncProperty(
        fc.uniqueArray(request, { selector: (r) => r.customId, maxLength: 25 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 600, max: 3000 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (items, maxLines, maxBytes, cuts) => {
          const requests: BatchRequest[] = items.map((r) => ({ customId: r.customId, body: { model: 'm', messages: [{ role: 'user', content: r.content }], extra: r.extra } }));
          const sink = memoryParts();
          let parts;
          try {
            parts = await splitJsonl(requests, sink.open, { endpoint: '/v1/chat/completions', maxLines, maxBytes, flushBytes: 97 });
          } catch (error) {
            // Only a single request over maxBytes may refuse the job.
            assert.equal((error as { reason?: string }).reason, 'too_large');
            return;
          }
          const back: Array<{ custom_id: string; body: unknown; url: string; method: string }> = [];
          for (const [i, part] of parts.entries()) {
            const bytes = joinBytes(sink.parts[i] ?? []);
            assert.ok(part.lines <= maxLines && part.bytes <= maxBytes && part.bytes === bytes.byteLength);
            const lines = await collect(jsonlLines(chunks(split(bytes, cuts))));
            assert.equal(lines.length, part.lines);
            for (const line of lines) back.push(JSON.parse(line) as (typeof back)[number]);
          }
          assert.deepEqual(back.map((b) => b.custom_id), requests.map((r) => r.customId));
          assert.ok(back.every((b) => b.method === 'POST' && b.url === '/v1/chat/completions'));
          // JSON keeps what JSON can say: the body as JSON.stringify/parse leaves it.
          assert.deepEqual(back.map((b) => b.body), requests.map((r) => JSON.parse(JSON.stringify(r.body)) as unknown));
        },
      ),
      150,
    );
  });

  it('results in any order, with errors, repeats, unknown ids and junk lines, match exactly by custom_id', async () => {
    await checkAsync(
      fc.asyncProperty(
        fc.uniqueArray(fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }), { minLength: 1, maxLength: 30 }),
        fc.array(fc.tuple(fc.boolean(), fc.boolean(), fc.double()), { minLength: 30, maxLength: 30 }),
        fc.array(fc.oneof(fc.constant('not json'), fc.constant('{"custom_id": 5}'), fc.constant('[]'), fc.string({ maxLength: 20 }).filter((s) => !s.includes('\n'))), { maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (ids, plan, junk, cuts) => {
          const expected = new Set(ids);
          const lines: Array<{ key: number; text: string }> = [];
          const answered: string[] = [];
          const failed: string[] = [];
          ids.forEach((id, i) => {
            const [present, ok, key] = plan[i] as [boolean, boolean, number];
            if (!present) return;
            answered.push(id);
            if (!ok) failed.push(id);
            const text = ok ? JSON.stringify({ id: `r${i}`, custom_id: id, response: { status_code: 200, body: { n: i } } }) : JSON.stringify({ id: `r${i}`, custom_id: id, error: { code: 'bad', message: `no ${i}` } });
            lines.push({ key, text });
            // A repeat of the same id comes later and does not count.
            if (key > 0.5) lines.push({ key: key + 1, text });
          });
          lines.push({ key: 0.25, text: JSON.stringify({ custom_id: '\u0000unknown-id', response: { status_code: 200, body: {} } }) });
          junk.forEach((text, i) => lines.push({ key: i / 7, text }));
          lines.sort((a, b) => a.key - b.key);
          const bytes = new TextEncoder().encode(lines.map((l) => `${l.text}\r\n`).join(''));
          const seen: string[] = [];
          const summary = await matchResults(ids, readResults(chunks(split(bytes, cuts))), (r) => void seen.push(r.customId));
          assert.equal(summary.succeeded, answered.length - failed.length);
          assert.deepEqual(new Set(summary.failed.map((f) => f.customId)), new Set(failed));
          assert.deepEqual(new Set(summary.missing), new Set(ids.filter((id) => !answered.includes(id))));
          assert.equal(seen.length, answered.length);
          assert.ok(seen.every((id) => expected.has(id)));
          assert.ok(summary.unexpected >= 1);
        },
      ),
      150,
    );
  });

  it('hostile bytes give lines or a typed error, never another throw', async () => {
    await checkAsync(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), fc.array(fc.nat(), { maxLength: 8 }), fc.integer({ min: 1, max: 64 }), async (bytes, cuts, maxLine) => {
        try {
          const lines = await collect(jsonlLines(chunks(split(bytes, cuts)), maxLine));
          assert.ok(lines.every((l) => typeof l === 'string' && !l.includes('\n')));
          await collect(readResults(chunks(split(bytes, cuts))));
        } catch (error) {
          assertTyped(error);
        }
      }),
      200,
    );
  });

  it('reading is linear: one long line in one-byte chunks, and many short lines, at n and 8n', async () => {
    // Work is measured as CPU time (not wall time: on a loaded machine the longer run waits for a
    // CPU more often), compared between sizes only; quadratic behaviour would make the 8n run ~64
    // times the n run, linear ~8.
    const once = (input: Uint8Array[]): Promise<number> => cpuMicrosAsync(() => collect(jsonlLines(chunks(input))));
    const oneLine = (n: number) => () => [...Array.from({ length: n }, () => new Uint8Array([0x61])), new Uint8Array([0x0a])];
    const manyLines = (n: number) => () => [new TextEncoder().encode('{"a":1}\n'.repeat(n))];
    for (const make of [oneLine, manyLines]) {
      await once(make(1_000)()); // warm up
      const smallInput = make(5_000)();
      const largeInput = make(40_000)();
      // Interleaved, the least of seven each: noise only ever adds CPU time to a run.
      let small = Infinity;
      let large = Infinity;
      for (let run = 0; run < 7; run++) {
        small = Math.min(small, await once(smallInput));
        large = Math.min(large, await once(largeInput));
      }
      assert.ok(large / Math.max(small, 50) < 40, `8x the input took ${(large / small).toFixed(1)}x the CPU time (${small} -> ${large} µs)`);
    }
  });
});
