import * as vscode from 'vscode';
import { presentError } from '../../core/presentError';
import type { SearchNote } from '../../core/search';

/** One sentence per note, for the picker, the chat answer and the log. */
export function noteText(note: SearchNote): string {
  switch (note.kind) {
    case 'rerank_disabled':
      return vscode.l10n.t('Local order: reranking is off (stratus.search.rerank.enabled).');
    case 'no_rerank_model':
      return vscode.l10n.t('Local order: the service lists no rerank model (set stratus.search.rerank.model).');
    case 'rerank_timeout':
      return vscode.l10n.t('Local order: the rerank model did not answer within {0} s.', Math.round(note.timeoutMs / 1000));
    case 'query_too_long':
      return "Local order: the question is longer than the rerank model's context.";
    case 'rerank_failed':
      return vscode.l10n.t('Local order: reranking failed. {0}', presentError(note.error).message);
    case 'embeddings_failed':
      return vscode.l10n.t('Without embeddings: {0}', presentError(note.error).message);
    case 'index_not_ready':
      return vscode.l10n.t('The index is still being built: results are partial.');
  }
}
