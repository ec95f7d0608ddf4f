import { MalformedResponseError, ValidationError } from '../../errors';
import type { HttpTransport } from '../../http/transport';
import type { CallOptions } from '../shared/call';
import { arr, isRecord, num, str, type JsonRecord } from '../../json';
import { responseMeta } from '../shared/meta';
import {
  optionalBoolean,
  optionalInteger,
  requireNonEmptyString,
  requireStringArray,
} from '../shared/validate';
import type { RerankHit, RerankRequest, RerankResult } from './types';

export function rerankPath(version: 'v1' | 'v2' = 'v1'): string {
  return `/${version}/rerank`;
}

function billedUnits(body: JsonRecord): number | undefined {
  for (const holder of [body.usage, body.meta]) {
    if (isRecord(holder) && isRecord(holder.billed_units)) {
      const units = num(holder.billed_units.search_units);
      if (units !== undefined) return units;
    }
  }
  return undefined;
}

function documentText(value: unknown): string | undefined {
  return isRecord(value) ? str(value.text) : str(value);
}

export async function rerank(
  transport: HttpTransport,
  request: RerankRequest,
  options: CallOptions = {},
): Promise<RerankResult> {
  requireNonEmptyString(request.model, 'model');
  requireNonEmptyString(request.query, 'query');
  requireStringArray(request.documents, 'documents');
  optionalInteger(request.top_n, 1, 'top_n');
  optionalBoolean(request.return_documents, 'return_documents');
  if (request.version !== undefined && request.version !== 'v1' && request.version !== 'v2') {
    throw new ValidationError('version must be v1 or v2', 'version');
  }
  const path = rerankPath(request.version);
  const json: JsonRecord = { model: request.model, query: request.query, documents: request.documents };
  if (request.top_n !== undefined) json.top_n = request.top_n;
  if (request.return_documents !== undefined) json.return_documents = request.return_documents;

  const res = await transport.request({
    method: 'POST',
    path,
    json,
    billed: true,
    signal: options.signal,
    ...(options.firstByteTimeoutMs ? { timeouts: { firstByteMs: options.firstByteTimeoutMs } } : {}),
  });
  const body = await res.json();
  if (!isRecord(body) || !Array.isArray(body.results)) {
    throw new MalformedResponseError(`POST ${path}: the response has no results array`);
  }
  const results: RerankHit[] = [];
  for (const item of arr(body.results)) {
    if (!isRecord(item)) continue;
    const index = num(item.index);
    const score = num(item.relevance_score);
    // A hit must name one of the documents sent; any other index points at nothing.
    if (index === undefined || score === undefined || !Number.isInteger(index) || index < 0 || index >= request.documents.length) continue;
    const hit: RerankHit = { index, relevanceScore: score };
    const doc = documentText(item.document);
    if (doc !== undefined) hit.document = doc;
    results.push(hit);
  }
  // The contract promises most relevant first; sorting keeps that true whatever the server does.
  results.sort((a, b) => b.relevanceScore - a.relevanceScore);
  return { id: str(body.id), results, searchUnits: billedUnits(body), meta: responseMeta(res) };
}
