/**
 * JSONL for the Batch API, as streams: requests are encoded one line at a time into parts that
 * respect the documented limits (a larger job becomes several parts), and a results file is read
 * line by line from the response body. Neither side ever holds a whole file as one string.
 * The reader is one forward scan (each byte looked at once): the results come from the network.
 */
import { MalformedResponseError, ValidationError } from '../../errors';
import { BatchError } from './errors';
import { BATCH_LIMITS, type BatchEndpoint, type BatchRequest } from './types';

/** Where one part's bytes go (a file on disk in production, memory in tests). */
export interface JsonlPartSink {
  write(chunk: Uint8Array): Promise<void> | void;
  close(): Promise<void> | void;
}

/** One part of a job, once written: at most `maxLines` lines and `maxBytes` bytes. */
export interface JsonlPart {
  index: number;
  lines: number;
  bytes: number;
  /** The first and last custom_id of the part (the job keeps its own list). */
  firstCustomId: string;
  lastCustomId: string;
}

export interface SplitOptions {
  endpoint: BatchEndpoint;
  /** Default BATCH_LIMITS.maxFileBytes. */
  maxBytes?: number;
  /** Default BATCH_LIMITS.maxLines. */
  maxLines?: number;
  /** Bytes gathered before a write to the sink (fewer, larger writes). Default 64 KiB. */
  flushBytes?: number;
}

const NEWLINE = 0x0a;
const MAX_CUSTOM_ID_CHARS = 512;

/** The line of one request, newline included. Checks the custom_id (non-empty, bounded). */
export function encodeRequestLine(request: BatchRequest, endpoint: BatchEndpoint): string {
  const id: unknown = request.customId;
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_CUSTOM_ID_CHARS) {
    throw new ValidationError(`custom_id must be a string of 1 to ${MAX_CUSTOM_ID_CHARS} characters`, 'custom_id');
  }
  const body: Record<string, unknown> = { ...request.body };
  // A batch line is never streamed (the provider answers it whole).
  delete body.stream;
  delete body.stream_options;
  return `${JSON.stringify({ custom_id: id, method: 'POST', url: endpoint, body })}\n`;
}

/**
 * Writes `requests` as JSONL parts within the limits, opening a sink per part. Every custom_id
 * must be unique in the job (results are matched by it). A single line over `maxBytes` is
 * BatchError `too_large` before anything of that part is written. Returns the parts written.
 */
export async function splitJsonl(
  requests: Iterable<BatchRequest> | AsyncIterable<BatchRequest>,
  openPart: (index: number) => Promise<JsonlPartSink> | JsonlPartSink,
  options: SplitOptions,
): Promise<JsonlPart[]> {
  const maxBytes = options.maxBytes ?? BATCH_LIMITS.maxFileBytes;
  const maxLines = options.maxLines ?? BATCH_LIMITS.maxLines;
  const flushBytes = Math.max(1, options.flushBytes ?? 64 * 1024);
  const utf8 = new TextEncoder();
  const seen = new Set<string>();
  const parts: JsonlPart[] = [];
  let sink: JsonlPartSink | undefined;
  let current: JsonlPart | undefined;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;

  const flush = async (): Promise<void> => {
    if (!sink || pendingBytes === 0) return;
    const chunk = pending.length === 1 ? (pending[0] as Uint8Array) : concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    await sink.write(chunk);
  };
  const closePart = async (): Promise<void> => {
    await flush();
    if (sink) await sink.close();
    sink = undefined;
    current = undefined;
  };

  try {
    for await (const request of requests) {
      const line = utf8.encode(encodeRequestLine(request, options.endpoint));
      if (seen.has(request.customId)) throw new ValidationError(`custom_id "${request.customId.slice(0, 80)}" appears twice in the job`, 'custom_id');
      seen.add(request.customId);
      if (line.byteLength > maxBytes) {
        throw new BatchError(`The request "${request.customId.slice(0, 80)}" alone is ${line.byteLength} bytes, over the batch file limit of ${maxBytes} bytes`, 'too_large', { customId: request.customId });
      }
      if (current && (current.lines >= maxLines || current.bytes + line.byteLength > maxBytes)) await closePart();
      if (!current) {
        current = { index: parts.length, lines: 0, bytes: 0, firstCustomId: request.customId, lastCustomId: request.customId };
        parts.push(current);
        sink = await openPart(current.index);
      }
      current.lines += 1;
      current.bytes += line.byteLength;
      current.lastCustomId = request.customId;
      pending.push(line);
      pendingBytes += line.byteLength;
      if (pendingBytes >= flushBytes) await flush();
    }
    await closePart();
  } catch (error) {
    pending = [];
    pendingBytes = 0;
    if (sink) await Promise.resolve(sink.close()).catch(() => undefined);
    throw error;
  }
  return parts;
}

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** Longest results line read (a chat answer with its usage is far smaller). */
export const MAX_RESULT_LINE_BYTES = 16 * 1024 * 1024;

/**
 * The lines of a JSONL byte stream (UTF-8; `\n` or `\r\n`; blank lines skipped), in order. Each
 * byte is scanned once: a line's pieces are kept until its newline arrives. A line longer than
 * `maxLineBytes` is a MalformedResponseError (it would otherwise be held without bound).
 */
export async function* jsonlLines(body: AsyncIterable<Uint8Array>, maxLineBytes = MAX_RESULT_LINE_BYTES): AsyncGenerator<string> {
  const utf8 = new TextDecoder();
  let pieces: Uint8Array[] = [];
  let pieceBytes = 0;
  const take = (tail: Uint8Array): string | undefined => {
    let bytes: Uint8Array;
    if (pieces.length === 0) bytes = tail;
    else {
      pieces.push(tail);
      bytes = concat(pieces, pieceBytes + tail.byteLength);
    }
    pieces = [];
    pieceBytes = 0;
    let end = bytes.byteLength;
    if (end > 0 && bytes[end - 1] === 0x0d) end -= 1;
    const text = utf8.decode(bytes.subarray(0, end));
    return text.trim() === '' ? undefined : text;
  };
  for await (const chunk of body) {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl < 0) break;
      if (pieceBytes + (nl - start) > maxLineBytes) throw new MalformedResponseError(`A JSONL line is longer than ${maxLineBytes} bytes`);
      const line = take(chunk.subarray(start, nl));
      if (line !== undefined) yield line;
      start = nl + 1;
    }
    if (start < chunk.byteLength) {
      const rest = chunk.subarray(start);
      pieceBytes += rest.byteLength;
      if (pieceBytes > maxLineBytes) throw new MalformedResponseError(`A JSONL line is longer than ${maxLineBytes} bytes`);
      // The chunk may be reused by its producer: keep a copy of the unfinished line's piece.
      pieces.push(rest.slice());
    }
  }
  if (pieceBytes > 0) {
    const line = take(new Uint8Array(0));
    if (line !== undefined) yield line;
  }
}
