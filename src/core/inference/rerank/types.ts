import type { ResponseMeta } from '../shared/meta';

export interface RerankRequest {
  model: string;
  query: string;
  documents: string[];
  /** How many results to return; default all. */
  top_n?: number;
  /** Ask for the document text in each result (a field-notes extension). */
  return_documents?: boolean;
  /** `/v1/rerank` (default) or the second-generation `/v2/rerank`; same request format. */
  version?: 'v1' | 'v2';
}

export interface RerankHit {
  /** Position in the submitted documents. */
  index: number;
  relevanceScore: number;
  /** Present when the server returned it. */
  document?: string;
}

export interface RerankResult {
  id: string | undefined;
  /** Most relevant first. */
  results: RerankHit[];
  /** Billed search units, from `usage.billed_units` or `meta.billed_units`. */
  searchUnits: number | undefined;
  meta: ResponseMeta;
}
