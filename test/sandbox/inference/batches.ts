/**
 * The asynchronous Batch API (field-notes.md, "Inference: asynchronous batch"): files and batches
 * that move validating -> in_progress -> finalizing -> completed on the sandbox clock (one step of
 * `batchStepMs` each; in_progress lasts two steps and its request_counts grow with it). Read
 * lazily from the clock, so a test that advances it sees the next state at once.
 * Validation refuses a file whose lines are not JSON, lack a custom_id, repeat one or address
 * another endpoint (`failed` with `errors`); a line whose body the endpoint refuses (an unknown
 * model...) is a per-line error in the results (partial success). Results come back in an order
 * that is not the input's. `hold` keeps batches in progress until they expire after 24 h; results
 * are deleted 7 days after completion; `available` answers every batch route 404 or 403 (an
 * account without the Batch API yet).
 */
import { sendJson, type Headers, type RequestContext } from '../core/http';
import { shortHash } from '../core/ids';
import { isRecord } from '../core/json';
import type { SandboxState } from '../state';
import { chatAnswer } from './chat';
import { embeddingsAnswer } from './embeddings';
import { invalid, sendInferenceError, type InferenceError } from './errors';
import { boundaryOf, parseMultipart } from './multipart';

export type BatchAvailability = 'available' | 'not_found' | 'forbidden';

export interface BatchModeSpec {
  available?: BatchAvailability;
  /** Batches stop progressing (in_progress) until released; past 24 h they expire. */
  hold?: boolean;
  /** Duration of one step (default 60 000 ms). */
  stepMs?: number;
  /** A line whose body contains this text is a per-line error in the results (`server_error`); '' none. */
  failLinesContaining?: string;
}

const ENDPOINTS = new Set(['/v1/chat/completions', '/v1/embeddings']);
const WINDOW_MS = 24 * 3_600_000;
const KEPT_MS = 7 * 86_400_000;
const MAX_LINES = 50_000;

interface StoredFile {
  id: string;
  filename: string;
  purpose: string;
  data: Buffer;
  createdAt: number;
  /** Results files are deleted this long after they were made. */
  deleteAt: number | undefined;
}

interface StoredBatch {
  id: string;
  endpoint: string;
  inputFileId: string;
  createdAt: number;
  metadata: Record<string, string> | undefined;
  lines: string[];
  /** Validation problems found when validation ends (`failed`). */
  errors: Array<{ code: string; message: string; line: number }>;
  cancelledAt: number | undefined;
  /** The results file, made when the batch first reads as completed (or cancelled part-way). */
  outputFileId: string | undefined;
  /** Lines of the results file that are errors. */
  failedLines: number;
}

export class BatchStore {
  available: BatchAvailability;
  hold = false;
  stepMs: number;
  failLinesContaining = '';
  readonly files = new Map<string, StoredFile>();
  readonly batches = new Map<string, StoredBatch>();
  private seq = 0;

  constructor(
    private readonly state: Pick<SandboxState, 'clock'>,
    private readonly defaults: { available: BatchAvailability; stepMs: number },
  ) {
    this.available = defaults.available;
    this.stepMs = defaults.stepMs;
  }

  reset(): void {
    this.available = this.defaults.available;
    this.stepMs = this.defaults.stepMs;
    this.hold = false;
    this.failLinesContaining = '';
    this.files.clear();
    this.batches.clear();
  }

  nextId(prefix: string): string {
    this.seq += 1;
    return `${prefix}-${shortHash(`${prefix}:${this.seq}:${this.state.clock.now()}`, 24)}`;
  }

  /** The batch's status and progress now, on the sandbox clock. */
  view(b: StoredBatch): { status: string; completed: number; failedLines: number; completedAt: number | undefined; at: number } {
    const now = this.state.clock.now();
    const step = this.stepMs;
    const t = now - b.createdAt;
    const total = b.lines.length;
    if (b.cancelledAt !== undefined) return { status: 'cancelled', completed: this.progress(b, b.cancelledAt - b.createdAt), failedLines: 0, completedAt: undefined, at: b.cancelledAt };
    if (t < step) return { status: 'validating', completed: 0, failedLines: 0, completedAt: undefined, at: now };
    if (b.errors.length > 0) return { status: 'failed', completed: 0, failedLines: 0, completedAt: undefined, at: b.createdAt + step };
    if (this.hold) return t >= WINDOW_MS ? { status: 'expired', completed: 0, failedLines: 0, completedAt: undefined, at: b.createdAt + WINDOW_MS } : { status: 'in_progress', completed: 0, failedLines: 0, completedAt: undefined, at: now };
    if (t < 3 * step) return { status: 'in_progress', completed: this.progress(b, t), failedLines: 0, completedAt: undefined, at: now };
    if (t < 4 * step) return { status: 'finalizing', completed: total, failedLines: 0, completedAt: undefined, at: now };
    return { status: 'completed', completed: total, failedLines: 0, completedAt: b.createdAt + 4 * step, at: now };
  }

  private progress(b: StoredBatch, t: number): number {
    const step = this.stepMs;
    if (t < step || this.hold) return 0;
    return Math.min(b.lines.length, Math.floor((b.lines.length * (t - step)) / (2 * step)));
  }

  /** The results of the first `n` lines, in an order that is not the input's (by a hash of each custom_id). */
  results(state: SandboxState, b: StoredBatch, n: number): { text: string; failed: number } {
    const out: Array<{ key: string; line: string }> = [];
    let failed = 0;
    for (const raw of b.lines.slice(0, n)) {
      const line = JSON.parse(raw) as { custom_id: string; body: unknown };
      const injected = this.failLinesContaining !== '' && JSON.stringify(line.body).includes(this.failLinesContaining);
      const answer = injected
        ? { status: 500, type: 'server_error', code: 'server_error', message: 'The model could not answer this request; retry it.' }
        : b.endpoint === '/v1/embeddings' ? embeddingsAnswer(state, line.body) : chatAnswer(state, isRecord(line.body) ? { ...line.body, stream: false } : line.body);
      const id = `batch_req_${shortHash(`${b.id}:${line.custom_id}`, 20)}`;
      let result: unknown;
      if ('status' in answer && 'type' in answer && 'message' in answer) {
        const error = answer as InferenceError;
        failed += 1;
        result = { id, custom_id: line.custom_id, response: null, error: { code: error.code ?? error.type, message: error.message } };
      } else {
        result = { id, custom_id: line.custom_id, response: { status_code: 200, request_id: id, body: answer }, error: null };
      }
      out.push({ key: shortHash(line.custom_id, 8), line: JSON.stringify(result) });
    }
    out.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
    return { text: out.map((o) => `${o.line}\n`).join(''), failed };
  }

  /** The batch object as the provider sends it; makes the results file when it first completes. */
  record(state: SandboxState, b: StoredBatch): Record<string, unknown> {
    const v = this.view(b);
    const failedLines = this.outputFor(state, b, v);
    const seconds = (ms: number | undefined): number | null => (ms === undefined ? null : Math.floor(ms / 1000));
    const body: Record<string, unknown> = {
      id: b.id,
      object: 'batch',
      endpoint: b.endpoint,
      input_file_id: b.inputFileId,
      completion_window: '24h',
      status: v.status,
      output_file_id: b.outputFileId ?? null,
      error_file_id: null,
      created_at: seconds(b.createdAt),
      in_progress_at: v.status === 'validating' || v.status === 'failed' ? null : seconds(b.createdAt + this.stepMs),
      completed_at: seconds(v.completedAt),
      failed_at: v.status === 'failed' ? seconds(v.at) : null,
      expired_at: v.status === 'expired' ? seconds(v.at) : null,
      cancelled_at: seconds(b.cancelledAt),
      expires_at: seconds(b.createdAt + WINDOW_MS),
      request_counts: { total: b.lines.length, completed: v.completed - failedLines, failed: failedLines },
      metadata: b.metadata ?? null,
    };
    if (v.status === 'failed') body.errors = { object: 'list', data: b.errors };
    return body;
  }

  private outputFor(state: SandboxState, b: StoredBatch, v: ReturnType<BatchStore['view']>): number {
    const done = v.status === 'completed' || (v.status === 'cancelled' && v.completed > 0);
    if (!done) return 0;
    if (b.outputFileId === undefined) {
      const { text, failed } = this.results(state, b, v.completed);
      const id = this.nextId('file');
      this.files.set(id, { id, filename: `${b.id}_output.jsonl`, purpose: 'batch_output', data: Buffer.from(text), createdAt: v.at, deleteAt: v.at + KEPT_MS });
      b.outputFileId = id;
      b.failedLines = failed;
    }
    return b.failedLines;
  }

  validate(lines: string[], endpoint: string): StoredBatch['errors'] {
    const errors: StoredBatch['errors'] = [];
    const ids = new Set<string>();
    if (lines.length > MAX_LINES) errors.push({ code: 'too_many_requests', message: `A batch may hold at most ${MAX_LINES} requests.`, line: MAX_LINES + 1 });
    lines.forEach((raw, i) => {
      if (errors.length >= 20) return;
      let line: unknown;
      try {
        line = JSON.parse(raw) as unknown;
      } catch {
        errors.push({ code: 'invalid_json_line', message: 'This line is not valid JSON.', line: i + 1 });
        return;
      }
      if (!isRecord(line) || typeof line.custom_id !== 'string' || line.custom_id === '') {
        errors.push({ code: 'missing_required_parameter', message: 'Each line needs a custom_id string.', line: i + 1 });
        return;
      }
      if (ids.has(line.custom_id)) errors.push({ code: 'duplicate_custom_id', message: `The custom_id '${line.custom_id}' is used more than once.`, line: i + 1 });
      ids.add(line.custom_id);
      if (line.method !== 'POST' || line.url !== endpoint) errors.push({ code: 'invalid_url', message: `Each line must be a POST to ${endpoint}, the batch's endpoint.`, line: i + 1 });
      if (!isRecord(line.body)) errors.push({ code: 'invalid_body', message: 'Each line needs a body object.', line: i + 1 });
    });
    return errors;
  }

  add(endpoint: string, file: StoredFile, metadata: Record<string, string> | undefined): StoredBatch {
    const lines = file.data.toString('utf8').split('\n').filter((l) => l.trim() !== '');
    const batch: StoredBatch = { id: this.nextId('batch'), endpoint, inputFileId: file.id, createdAt: this.state.clock.now(), metadata, lines, errors: [], cancelledAt: undefined, outputFileId: undefined, failedLines: 0 };
    batch.errors = lines.length === 0 ? [{ code: 'empty_file', message: 'The input file has no request.', line: 1 }] : this.validate(lines, endpoint);
    this.batches.set(batch.id, batch);
    return batch;
  }
}

function notFound(ctx: RequestContext, headers: Headers, what: string): void {
  sendInferenceError(ctx, { status: 404, type: 'invalid_request_error', code: 'not_found', message: `No such ${what}.` }, headers);
}

/** True when the path is one of the Batch API's. */
export function isBatchPath(path: string): boolean {
  return path === '/v1/files' || path.startsWith('/v1/files/') || path === '/v1/batches' || path.startsWith('/v1/batches/');
}

/** Every Batch API route (the caller has checked the API key). */
export function handleBatches(state: SandboxState, ctx: RequestContext, headers: Headers): void {
  const store = state.batches;
  if (store.available === 'not_found') return sendInferenceError(ctx, { ...invalid(`Unknown route ${ctx.method} ${ctx.path}.`), status: 404 }, headers);
  if (store.available === 'forbidden') return sendInferenceError(ctx, { status: 403, type: 'permission_error', code: 'batch_not_enabled', message: 'The Batch API is not enabled for this account.' }, headers);
  const { method, path } = ctx;
  if (path === '/v1/files' && method === 'POST') return uploadFile(state, ctx, headers);
  const content = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
  if (content && method === 'GET') {
    const file = store.files.get(decodeURIComponent(content[1] ?? ''));
    if (!file || (file.deleteAt !== undefined && state.clock.now() >= file.deleteAt)) return notFound(ctx, headers, 'file');
    ctx.res.writeHead(200, { ...headers, 'Content-Type': 'application/jsonl', 'Content-Length': file.data.length });
    ctx.res.end(file.data);
    return;
  }
  if (path === '/v1/batches' && method === 'POST') return createBatch(state, ctx, headers);
  if (path === '/v1/batches' && method === 'GET') {
    const limit = Math.min(100, Math.max(1, Number(ctx.url.searchParams.get('limit') ?? 20) || 20));
    const data = [...store.batches.values()].reverse().slice(0, limit).map((b) => store.record(state, b));
    return sendJson(ctx, 200, { object: 'list', data, has_more: store.batches.size > limit }, headers);
  }
  const one = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(path);
  const batch = one ? store.batches.get(decodeURIComponent(one[1] ?? '')) : undefined;
  if (one && !batch) return notFound(ctx, headers, 'batch');
  if (one && batch && !one[2] && method === 'GET') return sendJson(ctx, 200, store.record(state, batch), headers);
  if (one && batch && one[2] && method === 'POST') {
    const status = store.view(batch).status;
    if (status === 'validating' || status === 'in_progress' || status === 'finalizing') batch.cancelledAt = state.clock.now();
    else if (status !== 'cancelled') return sendInferenceError(ctx, { status: 409, type: 'invalid_request_error', code: 'batch_not_cancellable', message: `A ${status} batch cannot be cancelled.` }, headers);
    return sendJson(ctx, 200, store.record(state, batch), headers);
  }
  sendInferenceError(ctx, { ...invalid(`Method ${method} is not allowed on ${path}.`), status: 405 }, headers);
}

function uploadFile(state: SandboxState, ctx: RequestContext, headers: Headers): void {
  const boundary = boundaryOf(ctx.req.headers['content-type']);
  const parts = boundary !== undefined ? parseMultipart(ctx.body, boundary) : undefined;
  if (!parts) return sendInferenceError(ctx, invalid('The body must be multipart/form-data with purpose and file.'), headers);
  const purpose = parts.find((p) => p.name === 'purpose')?.data.toString('utf8');
  const file = parts.find((p) => p.name === 'file' && p.filename !== undefined);
  if (purpose !== 'batch') return sendInferenceError(ctx, invalid("'purpose' must be 'batch'.", 'purpose'), headers);
  if (!file) return sendInferenceError(ctx, invalid("'file' is required.", 'file'), headers);
  const id = state.batches.nextId('file');
  const stored: StoredFile = { id, filename: file.filename ?? 'input.jsonl', purpose, data: Buffer.from(file.data), createdAt: state.clock.now(), deleteAt: undefined };
  state.batches.files.set(id, stored);
  sendJson(ctx, 200, { id, object: 'file', purpose, filename: stored.filename, bytes: stored.data.length, created_at: Math.floor(stored.createdAt / 1000) }, headers);
}

function createBatch(state: SandboxState, ctx: RequestContext, headers: Headers): void {
  let body: unknown;
  try {
    body = JSON.parse(ctx.body.toString('utf8')) as unknown;
  } catch {
    return sendInferenceError(ctx, invalid('The request body must be a JSON object.'), headers);
  }
  if (!isRecord(body)) return sendInferenceError(ctx, invalid('The request body must be a JSON object.'), headers);
  const file = typeof body.input_file_id === 'string' ? state.batches.files.get(body.input_file_id) : undefined;
  if (!file || file.purpose !== 'batch') return sendInferenceError(ctx, invalid("'input_file_id' must be a file uploaded with purpose 'batch'.", 'input_file_id'), headers);
  if (typeof body.endpoint !== 'string' || !ENDPOINTS.has(body.endpoint)) return sendInferenceError(ctx, invalid(`'endpoint' must be one of ${[...ENDPOINTS].join(', ')}.`, 'endpoint'), headers);
  if (body.completion_window !== '24h') return sendInferenceError(ctx, invalid("'completion_window' must be '24h'.", 'completion_window'), headers);
  const metadata = isRecord(body.metadata) ? Object.fromEntries(Object.entries(body.metadata).filter((e): e is [string, string] => typeof e[1] === 'string')) : undefined;
  const batch = state.batches.add(body.endpoint, file, metadata);
  sendJson(ctx, 200, state.batches.record(state, batch), headers);
}
