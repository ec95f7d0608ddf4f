/**
 * The Batch API's endpoints over the inference transport (its auth, timeouts, retries and the one
 * write policy): uploading a file and creating or cancelling a batch are writes (`write: true`:
 * never sent again once their bytes may have left; only a 429 is retried), reads are ordinary GETs.
 */
import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { ApiError, MalformedResponseError, UnsafePathIdError } from '../../errors';
import type { HttpTransport } from '../../http/transport';
import { arr, isRecord, num, str } from '../../json';
import { BatchError } from './errors';
import { BATCH_ENDPOINTS, BATCH_LIMITS, type Batch, type BatchEndpoint, type BatchFile, type BatchStatus, type BatchValidationIssue } from './types';

export const FILES_PATH = '/v1/files';
export const BATCHES_PATH = '/v1/batches';

const STATUSES: ReadonlySet<string> = new Set<BatchStatus>(['validating', 'in_progress', 'finalizing', 'completed', 'failed', 'cancelling', 'cancelled', 'expired']);
/** Provider ids (`batch-…`, `file-…`): letters, digits, `-` and `_` only, so they are safe in a path. */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;
/** Dates the provider sends are Unix seconds within these years (range check before use). */
const MIN_SECONDS = Date.UTC(2000, 0, 1) / 1000;
const MAX_SECONDS = Date.UTC(2200, 0, 1) / 1000;
const MAX_COUNT = 10_000_000;

export interface BatchCallOptions {
  signal?: AbortSignal | undefined;
}

/** An id checked before it is placed in a URL path. */
export function checkBatchId(id: unknown, param: string): string {
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) throw new UnsafePathIdError(`${param} must be a provider id (letters, digits, - and _)`, param);
  return id;
}

function seconds(value: unknown): number | undefined {
  const n = num(value);
  return n !== undefined && n >= MIN_SECONDS && n <= MAX_SECONDS ? Math.round(n * 1000) : undefined;
}

function count(value: unknown): number {
  const n = num(value);
  return n !== undefined && Number.isInteger(n) && n >= 0 && n <= MAX_COUNT ? n : 0;
}

function optionalId(value: unknown): string | undefined {
  const s = str(value);
  return s !== undefined && ID_PATTERN.test(s) ? s : undefined;
}

function issues(value: unknown): BatchValidationIssue[] {
  const list = isRecord(value) ? arr(value.data) : arr(value);
  return list.filter(isRecord).slice(0, 1000).map((e) => {
    const line = num(e.line);
    const code = str(e.code);
    const message = str(e.message);
    return { code: code?.slice(0, 100), message: message === undefined ? 'invalid' : message.length > 500 ? `${message.slice(0, 499)}…` : message, line: line !== undefined && Number.isInteger(line) && line > 0 ? line : undefined };
  });
}

/** A batch object, range-checked; anything without an id and a known status is malformed. */
export function parseBatch(value: unknown, label: string): Batch {
  if (!isRecord(value)) throw new MalformedResponseError(`${label}: the answer is not a batch object`);
  const id = optionalId(value.id);
  const status = str(value.status);
  if (id === undefined || status === undefined || !STATUSES.has(status)) throw new MalformedResponseError(`${label}: the answer has no batch id or a status we know`);
  const counts = isRecord(value.request_counts) ? value.request_counts : {};
  const total = count(counts.total);
  const createdAt = seconds(value.created_at) ?? 0;
  const completedAt = seconds(value.completed_at);
  return {
    id,
    status: status as BatchStatus,
    endpoint: str(value.endpoint) ?? '',
    inputFileId: optionalId(value.input_file_id) ?? '',
    outputFileId: optionalId(value.output_file_id),
    errorFileId: optionalId(value.error_file_id),
    createdAt,
    completedAt,
    // Results are kept 7 days from completion (the provider may say so itself).
    expiresAt: seconds(value.results_expire_at) ?? (completedAt !== undefined ? completedAt + BATCH_LIMITS.resultsKeptMs : undefined),
    requestCounts: { total, completed: Math.min(total || MAX_COUNT, count(counts.completed)), failed: Math.min(total || MAX_COUNT, count(counts.failed)) },
    errors: issues(value.errors),
  };
}

/** 404 or 403 from an endpoint every batch account has: the account has no Batch API yet. */
function unavailable(error: unknown): never {
  if (error instanceof ApiError && (error.status === 404 || error.status === 403)) {
    throw new BatchError('The Batch API is not available on this account yet (the provider is rolling it out)', 'unavailable', { status: error.status }, { cause: error });
  }
  throw error;
}

/**
 * Uploads a JSONL file from disk (`purpose=batch`), streamed from the file. The documented size
 * limit is checked first: an oversized file is BatchError `too_large`, nothing sent.
 */
export async function uploadBatchFile(transport: HttpTransport, path: string, filename: string, options: BatchCallOptions = {}): Promise<BatchFile> {
  const size = (await stat(path)).size;
  if (size > BATCH_LIMITS.maxFileBytes) throw new BatchError(`The batch file is ${size} bytes, over the limit of ${BATCH_LIMITS.maxFileBytes} bytes`, 'too_large');
  const blob = await openAsBlob(path, { type: 'application/jsonl' });
  const res = await transport
    .request({ method: 'POST', path: FILES_PATH, form: [{ name: 'purpose', value: 'batch' }, { name: 'file', blob, filename }], write: true, signal: options.signal, feature: 'batch' })
    .catch(unavailable);
  const body = await res.json();
  const id = isRecord(body) ? optionalId(body.id) : undefined;
  if (!isRecord(body) || id === undefined) throw new MalformedResponseError(`POST ${FILES_PATH}: the answer has no file id`);
  return { id, bytes: count(body.bytes), filename: str(body.filename) ?? filename, createdAt: seconds(body.created_at) ?? 0 };
}

/** Creates a batch over an uploaded file: a billed write, sent once. */
export async function createBatch(transport: HttpTransport, request: { inputFileId: string; endpoint: BatchEndpoint; metadata?: Readonly<Record<string, string>> }, options: BatchCallOptions = {}): Promise<Batch> {
  const inputFileId = checkBatchId(request.inputFileId, 'input_file_id');
  if (!BATCH_ENDPOINTS.includes(request.endpoint)) throw new BatchError(`A batch cannot address ${request.endpoint}`, 'failed');
  const res = await transport
    .request({
      method: 'POST',
      path: BATCHES_PATH,
      json: { input_file_id: inputFileId, endpoint: request.endpoint, completion_window: BATCH_LIMITS.completionWindow, ...(request.metadata ? { metadata: request.metadata } : {}) },
      write: true,
      signal: options.signal,
      feature: 'batch',
    })
    .catch(unavailable);
  return parseBatch(await res.json(), `POST ${BATCHES_PATH}`);
}

/** Reads a batch's state. */
export async function getBatch(transport: HttpTransport, id: string, options: BatchCallOptions = {}): Promise<{ batch: Batch; retryAfter: string | undefined }> {
  const path = `${BATCHES_PATH}/${checkBatchId(id, 'batch id')}`;
  const res = await transport.request({ method: 'GET', path, signal: options.signal, feature: 'batch' });
  const retry = res.headers['retry-after'];
  return { batch: parseBatch(await res.json(), `GET ${path}`), retryAfter: Array.isArray(retry) ? retry[0] : retry };
}

/** Asks the provider to cancel a batch (a write, sent once); returns its state after the request. */
export async function cancelBatch(transport: HttpTransport, id: string, options: BatchCallOptions = {}): Promise<Batch> {
  const path = `${BATCHES_PATH}/${checkBatchId(id, 'batch id')}/cancel`;
  const res = await transport.request({ method: 'POST', path, write: true, signal: options.signal, feature: 'batch' });
  return parseBatch(await res.json(), `POST ${path}`);
}

/** The account's recent batches (newest first, as the provider lists them). */
export async function listBatches(transport: HttpTransport, options: BatchCallOptions & { limit?: number } = {}): Promise<Batch[]> {
  const limit = Math.min(100, Math.max(1, Math.floor(options.limit ?? 20)));
  const res = await transport.request({ method: 'GET', path: BATCHES_PATH, query: { limit }, signal: options.signal, feature: 'batch' }).catch(unavailable);
  const body = await res.json();
  if (!isRecord(body)) throw new MalformedResponseError(`GET ${BATCHES_PATH}: the answer is not a list`);
  const out: Batch[] = [];
  for (const item of arr(body.data)) {
    try {
      out.push(parseBatch(item, `GET ${BATCHES_PATH}`));
    } catch {
      // One unreadable entry does not hide the others.
    }
  }
  return out;
}

/**
 * A results (or errors) file's bytes as they arrive, never read whole. The request is sent once
 * (a retry would buffer the whole body first); a 404 means the results are gone (kept 7 days).
 */
export async function openResults(transport: HttpTransport, fileId: string, options: BatchCallOptions = {}): Promise<AsyncIterable<Uint8Array>> {
  const path = `${FILES_PATH}/${checkBatchId(fileId, 'file id')}/content`;
  try {
    const res = await transport.request({ method: 'GET', path, retry: false, signal: options.signal, timeouts: { firstByteMs: 120_000 }, feature: 'batch' });
    return {
      async *[Symbol.asyncIterator]() {
        try {
          yield* res.body;
        } catch (error) {
          throw res.toError(error);
        }
      },
    };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      throw new BatchError('The results of this batch are no longer kept by the provider (they are deleted 7 days after completion)', 'results_deleted', { status: 404 }, { cause: error });
    }
    throw error;
  }
}
