import { presentError } from '../../core/presentError';
import type { SearchNote } from '../../core/search';

/** One sentence per note, for the picker, the chat answer and the log. */
export function noteText(note: SearchNote): string {
  switch (note.kind) {
    case 'rerank_disabled':
      return 'Local order: reranking is off (stratus.search.rerank.enabled).';
    case 'no_rerank_model':
      return 'Local order: the service lists no rerank model (set stratus.search.rerank.model).';
    case 'rerank_timeout':
      return `Local order: the rerank model did not answer within ${Math.round(note.timeoutMs / 1000)} s.`;
    case 'query_too_long':
      return "Local order: the question is longer than the rerank model's context.";
    case 'rerank_failed':
      return `Local order: reranking failed. ${presentError(note.error).message}`;
    case 'embeddings_failed':
      return `Without embeddings: ${presentError(note.error).message}`;
    case 'index_not_ready':
      return 'The index is still being built: results are partial.';
  }
}
