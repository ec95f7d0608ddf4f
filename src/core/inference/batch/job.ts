/**
 * Sending a job: its requests are written as JSONL parts on disk (within the limits; a larger job
 * becomes several batches), each part uploaded and its batch created once. A part that fails stops
 * the job there: the batches already created are returned with the error, never created again.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import type { HttpTransport } from '../../http/transport';
import { createBatch, uploadBatchFile, type BatchCallOptions } from './batch';
import { splitJsonl, type JsonlPart, type JsonlPartSink, type SplitOptions } from './jsonl';
import type { Batch, BatchEndpoint, BatchRequest } from './types';

export interface SubmittedPart {
  part: JsonlPart;
  fileId: string;
  batch: Batch;
}

export interface SubmitResult {
  parts: SubmittedPart[];
  /** Set when a part could not be sent: the parts before it were created, the rest were not. */
  error: unknown;
  /** Parts written but not sent (because of `error`). */
  unsent: JsonlPart[];
}

export interface SubmitOptions extends BatchCallOptions, Pick<SplitOptions, 'maxBytes' | 'maxLines'> {
  endpoint: BatchEndpoint;
  /** Where the parts are written (a fresh folder inside it, removed at the end). */
  tmpDir: string;
  /** The job's name in the uploaded file names. */
  name?: string;
  metadata?: Readonly<Record<string, string>>;
}

/** A JSONL part written to a file as it is built (back-pressure honoured). */
export function fileSink(path: string): JsonlPartSink {
  const stream = createWriteStream(path);
  return {
    async write(chunk) {
      if (!stream.write(chunk)) await once(stream, 'drain');
    },
    async close() {
      stream.end();
      await once(stream, 'close');
    },
  };
}

/** Writes, uploads and creates the job's batches in order. */
export async function submitBatchJob(transport: HttpTransport, requests: Iterable<BatchRequest> | AsyncIterable<BatchRequest>, options: SubmitOptions): Promise<SubmitResult> {
  const dir = await mkdtemp(join(options.tmpDir, 'stratus-batch-'));
  const name = (options.name ?? 'job').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40) || 'job';
  const pathOf = (index: number): string => join(dir, `${name}-${index + 1}.jsonl`);
  try {
    const parts = await splitJsonl(requests, (index) => fileSink(pathOf(index)), {
      endpoint: options.endpoint,
      ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
      ...(options.maxLines !== undefined ? { maxLines: options.maxLines } : {}),
    });
    const sent: SubmittedPart[] = [];
    for (const [i, part] of parts.entries()) {
      try {
        const file = await uploadBatchFile(transport, pathOf(part.index), `${name}-${part.index + 1}.jsonl`, options);
        const metadata = { ...options.metadata, part: `${part.index + 1}/${parts.length}` };
        const batch = await createBatch(transport, { inputFileId: file.id, endpoint: options.endpoint, metadata }, options);
        sent.push({ part, fileId: file.id, batch });
      } catch (error) {
        return { parts: sent, error, unsent: parts.slice(i) };
      }
    }
    return { parts: sent, error: undefined, unsent: [] };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
