import type { InferenceClient } from '../../inference/client';
import type { SearchInference } from '../shared/searchTypes';

/** The inference client as search uses it; `client` is re-read on every call (it may be rebuilt). */
export function searchInference(client: () => InferenceClient): SearchInference {
  return {
    rerank: (request, options) => client().rerank(request, options),
    embed: (request, options) => client().embed(request, options),
    listModels: (signal) => client().models.list(signal ? { signal } : {}),
  };
}
