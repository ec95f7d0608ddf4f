import { sendJson, type Headers, type RequestContext } from '../core/http';
import { shortHash } from '../core/ids';
import { isInteger, isRecord, isString, optional } from '../core/json';
import type { SandboxState } from '../state';
import { invalid, modelNotFound, parseRequest, type InferenceError } from './errors';
import { findModel, type ModelSpec } from './models';
import { estimateTokens, stem, words } from './tokens';

export const MAX_RERANK_DOCUMENTS = 1000;
/** Documents per billed search unit (Cohere semantics: one search unit per query of up to 100 documents). */
export const DOCUMENTS_PER_SEARCH_UNIT = 100;

/**
 * Lexical relevance in [0, 1]: with Q the set of (lower-cased, lightly stemmed) query words and D
 * the document's, score = 0.9 * |Q ∩ D| / |Q| + 0.1 * |Q ∩ D| / |Q ∪ D|, rounded to 6 decimals.
 * Ties keep the submitted order.
 */
export function relevance(query: string, document: string): number {
  const q = new Set(words(query).map(stem));
  const d = new Set(words(document).map(stem));
  if (q.size === 0) return 0;
  let common = 0;
  for (const word of q) if (d.has(word)) common += 1;
  const union = new Set([...q, ...d]).size;
  return Math.round((0.9 * (common / q.size) + 0.1 * (common / union)) * 1e6) / 1e6;
}

type Parsed = { model: ModelSpec; query: string; documents: string[]; topN: number; returnDocuments: boolean };

function parse(body: unknown): Parsed | InferenceError {
  if (!isRecord(body)) return invalid('The request body must be a JSON object.');
  const modelId = body.model;
  if (!isString(modelId) || modelId.length === 0) return invalid(`'model' is required and must be a string.`, 'model');
  const model = findModel(modelId);
  if (!model) return modelNotFound(modelId);
  if (model.kind !== 'rerank') return invalid(`The model '${model.id}' is not a reranking model.`, 'model');
  const query = body.query;
  if (!isString(query) || query.trim().length === 0) return invalid(`'query' is required and must be a non-empty string.`, 'query');
  const raw = body.documents;
  if (!Array.isArray(raw) || raw.length === 0) return invalid(`'documents' is required and must be a non-empty array of strings.`, 'documents');
  if (raw.length > MAX_RERANK_DOCUMENTS) return invalid(`'documents' may hold at most ${MAX_RERANK_DOCUMENTS} documents.`, 'documents');
  const documents: string[] = [];
  for (const [i, doc] of raw.entries()) {
    // Strings per the contract; `{text}` objects (older third-party clients) are accepted too.
    if (isString(doc)) documents.push(doc);
    else if (isRecord(doc) && isString(doc.text)) documents.push(doc.text);
    else return invalid(`documents[${i}] must be a string.`, 'documents');
  }
  const topN = optional(body, 'top_n');
  if (topN !== undefined && (!isInteger(topN) || topN < 1)) return invalid(`'top_n' must be an integer >= 1.`, 'top_n');
  const returnDocuments = optional(body, 'return_documents');
  if (returnDocuments !== undefined && typeof returnDocuments !== 'boolean') return invalid(`'return_documents' must be a boolean.`, 'return_documents');
  if (estimateTokens(query) > model.maxModelLen) return invalid(`'query' is longer than the model's context (${model.maxModelLen} tokens).`, 'query');
  return { model, query, documents, topN: isInteger(topN) ? Math.min(topN, documents.length) : documents.length, returnDocuments: returnDocuments !== false };
}

/** POST /v1/rerank and POST /v2/rerank (same request; the response carries `usage` and `meta`). */
export function handleRerank(state: SandboxState, ctx: RequestContext, headers: Headers): void {
  const parsed = parseRequest(ctx, headers, parse);
  if (!parsed) return;
  const ranked = parsed.documents
    .map((text, index) => ({ index, text, score: relevance(parsed.query, text) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, parsed.topN);
  const results = ranked.map((r) => {
    const result: Record<string, unknown> = { index: r.index, relevance_score: r.score };
    if (parsed.returnDocuments) result.document = { text: r.text };
    return result;
  });
  const searchUnits = Math.ceil(parsed.documents.length / DOCUMENTS_PER_SEARCH_UNIT);
  // Reranked tokens: every (query, document) pair is scored.
  const totalTokens = estimateTokens(parsed.query) * parsed.documents.length + parsed.documents.reduce((sum, doc) => sum + estimateTokens(doc), 0);
  const response: Record<string, unknown> = {
    id: `rerank-${shortHash(`${state.nextSeq()}:${parsed.query}`, 24)}`,
    model: parsed.model.id,
    results,
    usage: { billed_units: { search_units: searchUnits }, total_tokens: totalTokens },
    meta: { api_version: { version: ctx.path.startsWith('/v2/') ? '2' : '1' }, billed_units: { search_units: searchUnits } },
  };
  sendJson(ctx, 200, response, headers);
}
