/**
 * A results file read line by line and matched to the job by `custom_id`: the lines come in any
 * order, some are errors, some may be missing, repeated, unknown or unreadable. Each is counted;
 * none stops the others.
 */
import { isRecord, num, str } from '../../json';
import { jsonlLines } from './jsonl';
import type { BatchResult } from './types';

/** Longest error code and message kept from a results line (they are stored with the job and shown). */
export const MAX_ERROR_CODE_CHARS = 100;
export const MAX_ERROR_MESSAGE_CHARS = 500;

function clip(text: string | undefined, max: number): string | undefined {
  return text === undefined || text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** One results line, or why it cannot be used. */
export function parseResultLine(line: string): BatchResult | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const customId = str(value.custom_id);
  if (customId === undefined || customId === '') return undefined;
  if (isRecord(value.error)) {
    return { customId, ok: false, code: clip(str(value.error.code), MAX_ERROR_CODE_CHARS) ?? 'error', message: clip(str(value.error.message), MAX_ERROR_MESSAGE_CHARS) ?? 'The request failed', statusCode: undefined };
  }
  const response = value.response;
  if (!isRecord(response)) return undefined;
  const status = num(response.status_code);
  const statusCode = status !== undefined && Number.isInteger(status) && status >= 100 && status <= 599 ? status : undefined;
  const body = response.body;
  if (statusCode === undefined || !isRecord(body)) return undefined;
  if (statusCode >= 200 && statusCode < 300) return { customId, ok: true, statusCode, body };
  const error = isRecord(body.error) ? body.error : {};
  return { customId, ok: false, code: clip(str(error.code) ?? str(error.type), MAX_ERROR_CODE_CHARS) ?? `http_${statusCode}`, message: clip(str(error.message), MAX_ERROR_MESSAGE_CHARS) ?? `HTTP ${statusCode}`, statusCode };
}

/** The results of a file, in file order; an unreadable line is `{ malformed: lineNumber }`. */
export async function* readResults(body: AsyncIterable<Uint8Array>): AsyncGenerator<BatchResult | { malformed: number }> {
  let n = 0;
  for await (const line of jsonlLines(body)) {
    n += 1;
    yield parseResultLine(line) ?? { malformed: n };
  }
}

export interface FailedItem {
  customId: string;
  code: string;
  message: string;
}

/** What a results file held against the job's custom ids. */
export interface ResultsSummary {
  succeeded: number;
  /** Items answered with an error (which, and why): the ones to retry. */
  failed: FailedItem[];
  /** Job items with no line at all. */
  missing: string[];
  /** Lines for a custom_id the job does not have. */
  unexpected: number;
  /** Lines for a custom_id already answered (the first one counts). */
  duplicates: number;
  /** Lines that are not a result. */
  malformed: number;
}

/**
 * Matches `results` (any order) to `expected` custom ids, handing each first answer of an
 * expected id to `onResult` as it is read, so nothing but the ids is held.
 */
export async function matchResults(
  expected: Iterable<string>,
  results: AsyncIterable<BatchResult | { malformed: number }>,
  onResult: (result: BatchResult) => Promise<void> | void = () => undefined,
): Promise<ResultsSummary> {
  const waiting = new Set(expected);
  const answered = new Set<string>();
  const summary: ResultsSummary = { succeeded: 0, failed: [], missing: [], unexpected: 0, duplicates: 0, malformed: 0 };
  for await (const result of results) {
    if ('malformed' in result) {
      summary.malformed += 1;
      continue;
    }
    if (!waiting.delete(result.customId)) {
      if (answered.has(result.customId)) summary.duplicates += 1;
      else summary.unexpected += 1;
      continue;
    }
    answered.add(result.customId);
    if (result.ok) summary.succeeded += 1;
    else summary.failed.push({ customId: result.customId, code: result.code, message: result.message });
    await onResult(result);
  }
  summary.missing = [...waiting];
  return summary;
}
