/**
 * Shared pieces of the property suite (issue 22, "bad input"): the pinned seed, the tally printed
 * after the run, the "every error is typed" check, a bounded wait that turns a hang into a failure
 * without measuring time, an in-memory fetch engine, and adversarial JSON.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { isStratusError } from '../../../src/core/errors';
import { presentError } from '../../../src/core/presentError';
import { HttpTransport } from '../../../src/core/http/transport';
import type { FetchLike, TransportOptions } from '../../../src/core/http/types';

/** One seed for the whole folder, so a failure replays exactly (change it to explore further). */
export const SEED = 20_261_125;

const tally = { properties: 0, runs: 0 };

/**
 * Counterexamples these properties found, each kept as an example test next to its module's tests
 * (`fuzzFindings.test.ts`); `fixed: false` marks a case left to the folder's owner (see the note
 * where the property steps around it).
 */
export const FINDINGS: ReadonlyArray<{ where: string; fixed: boolean }> = [
  { where: 'embeddings: a vector holding null was handed on as numbers', fixed: true },
  { where: 'transcription: a segment without a numeric end ended before it started; absurd times were billed', fixed: true },
  { where: 'rerank: a hit index outside the sent documents was kept', fixed: true },
  { where: 'console lists: a negative, fractional or 400-digit total was believed', fixed: true },
  { where: 'console activities: a state named "constructor" found Object.prototype (TypeError)', fixed: true },
  { where: 'models: a model id "constructor" read Object.prototype as its tool-calling override', fixed: true },
  { where: 'usage store: a writer named "__proto__" was counted twice after compaction', fixed: true },
  { where: 'subtitles: 3.6e24 s was written as 1e+21 hours', fixed: true },
  { where: 'transport: a NaN retry cap (a wrong-typed setting) slept through a day-long Retry-After', fixed: true },
  { where: 'search index: an index holding an empty file is saved in a form its loader refuses', fixed: true },
  { where: 'agent globs: a backslash-led glob becomes an absolute POSIX pattern', fixed: true },
  { where: 'commit message: the diff summary went over its budget (left-out lines uncounted: 260 -> 508 characters)', fixed: true },
  { where: 'commit message: the prompt went over the model context (250 files: 6,560 -> ~8,300 tokens)', fixed: true },
  { where: 'documents: a page range "1-" built every page of a 5,000,000-page document in memory (2^31-1: a RangeError)', fixed: true },
];
let summaryRegistered = false;

/** Prints `properties N, runs M` once the whole mocha run is over (a root-level hook). */
function registerSummary(): void {
  if (summaryRegistered || typeof after !== 'function') return;
  summaryRegistered = true;
  after(() => {
    const fixed = FINDINGS.filter((f) => f.fixed).length;
    console.log(`properties ${tally.properties}, runs ${tally.runs} (seed ${SEED}); counterexamples found ${FINDINGS.length}, fixed ${fixed}, left to their owners ${FINDINGS.length - fixed}`);
  });
}
registerSummary();

/** `fc.assert` with the pinned seed; counts the property and its runs for the summary line. */
export function check<Ts>(property: fc.IProperty<Ts>, numRuns: number): void {
  tally.properties++;
  tally.runs += numRuns;
  fc.assert(property, { seed: SEED, numRuns });
}

export async function checkAsync<Ts>(property: fc.IAsyncProperty<Ts>, numRuns: number): Promise<void> {
  tally.properties++;
  tally.runs += numRuns;
  await fc.assert(property, { seed: SEED, numRuns });
}

/** Fails unless `error` is one of the project's typed errors (src/core/errors.ts). */
export function assertTyped(error: unknown): void {
  if (isStratusError(error)) {
    // The edge's one translation of a typed error: always a message, never a throw.
    const shown = presentError(error);
    assert.ok(shown.cancelled || shown.message.trim() !== '', `a message for ${error.name}`);
    return;
  }
  const detail = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
  assert.fail(`not a typed Stratus error: ${detail}`);
}

/** Runs `fn`; a throw must be a typed error. Returns the value, or undefined when it threw. */
export function typedOrValue<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (error) {
    assertTyped(error);
    return undefined;
  }
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Waits for `promise` at most `turns` event-loop turns (setImmediate hops): with an in-memory
 * engine nothing waits on the network or a timer, so a promise still pending after that many turns
 * is waiting for something that never comes (a hang). Counts turns, never measures time.
 */
export async function settle<T>(promise: Promise<T>, turns = 400): Promise<Outcome<T>> {
  let outcome: Outcome<T> | undefined;
  promise.then(
    (value) => (outcome = { ok: true, value }),
    (error: unknown) => (outcome = { ok: false, error }),
  );
  for (let i = 0; i < turns && outcome === undefined; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  if (outcome === undefined) assert.fail(`still pending after ${turns} event-loop turns: a hang`);
  return outcome;
}

/** Settles and requires a typed error on failure; the value (or undefined) otherwise. */
export async function typedOrValueAsync<T>(promise: Promise<T>): Promise<T | undefined> {
  const outcome = await settle(promise);
  if (outcome.ok) return outcome.value;
  assertTyped(outcome.error);
  return undefined;
}

export interface CannedResponse {
  status: number;
  headers?: Record<string, string>;
  /** The body, whole or as network chunks. */
  body: string | readonly Uint8Array[];
}

/** Statuses whose response may not carry a body. */
const NO_BODY = new Set([101, 204, 205, 304]);

function toResponse(canned: CannedResponse): Response {
  const headers = new Headers();
  for (const [k, v] of Object.entries(canned.headers ?? {})) {
    try {
      headers.append(k, v);
    } catch {
      // A header the engine itself would refuse never reaches the client.
    }
  }
  if (NO_BODY.has(canned.status)) return new Response(null, { status: canned.status, headers });
  const parts = typeof canned.body === 'string' ? [new TextEncoder().encode(canned.body)] : canned.body;
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const part = parts[i++];
      if (part === undefined) controller.close();
      else controller.enqueue(part);
    },
  });
  return new Response(stream, { status: canned.status, headers });
}

/** An engine that answers every request with `canned` (no socket, no timer). */
export function cannedEngine(canned: CannedResponse): FetchLike {
  return () => Promise.resolve(toResponse(canned));
}

/** A transport over the canned engine, with no retry (a retry would sleep on a real timer). */
export function cannedTransport(canned: CannedResponse, options: Partial<TransportOptions> = {}): HttpTransport {
  return new HttpTransport({
    baseUrl: 'https://api.example.test/v1',
    auth: () => Promise.resolve('sk-property-FAKE-0123456789'),
    secretName: 'inference API key',
    retry: { attempts: 1 },
    fetch: cannedEngine(canned),
    ...options,
  });
}

/** Numbers a damaged or hostile peer sends: out of range, fractional, huge, negative zero. */
export const weirdNumber = fc.oneof(
  fc.constantFrom(0, -0, -1, 1, 1.5, -1e300, 1e300, 2 ** 53, 2 ** 31, -(2 ** 31), 8.64e15, 1e21, 0.1),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Strings that break naive code: empty, blank, path tricks, markup, lone surrogates, markers. */
export const weirdString = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom('', ' ', '.', '..', '/', '%2e%2e', 'a/b', '<html><body>502</body></html>', '[DONE]', '\u0000', '\ud800', 'NaN', '1e999', '__proto__', 'constructor', 'running', 'completed', 'failed', 'waiting', 'stop', 'tool_calls'),
  fc.string({ unit: 'binary', maxLength: 6 }),
);

/** Keys the parsers look for, so random objects hit the interesting branches. */
const KNOWN_KEYS = [
  'id', 'object', 'model', 'created', 'choices', 'index', 'delta', 'message', 'content', 'role', 'finish_reason',
  'tool_calls', 'function', 'name', 'arguments', 'usage', 'prompt_tokens', 'completion_tokens', 'total_tokens',
  'reasoning_tokens', 'error', 'code', 'type', 'param', 'data', 'embedding', 'results', 'relevance_score',
  'document', 'text', 'segments', 'start', 'end', 'duration', 'language', 'max_model_len', 'aliases', 'items',
  'vms', 'total', 'state', 'result', 'reason', 'status', 'progression', 'token', 'exp', 'iat', 'scope', 'meta',
  'billed_units', 'search_units', 'reasoning_content', 'detail',
];

export const weirdKey = fc.oneof(fc.constantFrom(...KNOWN_KEYS), weirdString);

/** Any JSON value, skewed towards the shapes and keys the clients read. */
export const weirdJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 4, depthSize: 'small' },
    weirdNumber,
    weirdString,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(weirdKey, tie('value'), { maxKeys: 5 }),
  ),
})).value;

/**
 * `valid` with the value at a pseudo-random path (chosen by `steps`) replaced by `replacement`:
 * a near-miss of a contract body, which reaches deeper than random JSON does.
 */
export function mutate(valid: unknown, steps: readonly number[], replacement: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(valid)) as unknown;
  if (steps.length === 0) return replacement;
  let node: unknown = copy;
  for (let i = 0; i < steps.length; i++) {
    if (typeof node !== 'object' || node === null) break;
    const keys = Object.keys(node);
    if (keys.length === 0) break;
    const key = keys[(steps[i] ?? 0) % keys.length] as string;
    const child = (node as Record<string, unknown>)[key];
    const last = i === steps.length - 1 || typeof child !== 'object' || child === null;
    if (last) {
      (node as Record<string, unknown>)[key] = replacement;
      break;
    }
    node = child;
  }
  return copy;
}

/** A body built from a valid one: itself, mutated, truncated, or something else entirely. */
export function bodyAround(valid: unknown): fc.Arbitrary<string> {
  const text = JSON.stringify(valid);
  return fc.oneof(
    { arbitrary: fc.tuple(fc.array(fc.nat(), { maxLength: 5 }), weirdJson).map(([steps, v]) => JSON.stringify(mutate(valid, steps, v))), weight: 5 },
    { arbitrary: fc.nat(text.length).map((n) => text.slice(0, n)), weight: 2 },
    { arbitrary: weirdJson.map((v) => JSON.stringify(v) ?? ''), weight: 2 },
    { arbitrary: fc.constantFrom('', '<!DOCTYPE html><html><body>Bad Gateway</body></html>', 'null', '[]', '{}', '"x"', '\ufeff{}', text), weight: 1 },
  );
}
