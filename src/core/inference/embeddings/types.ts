import type { ResponseMeta } from '../shared/meta';

/** POST /v1/embeddings: raw text only (pre-tokenised input is rejected by the service). */
export interface EmbeddingRequest {
  model: string;
  input: string | string[];
}

export interface EmbeddingResult {
  /** One vector per input, in input order (sorted by the response's `index`). */
  embeddings: number[][];
  model: string | undefined;
  usage: { promptTokens: number; totalTokens: number } | undefined;
  meta: ResponseMeta;
}
