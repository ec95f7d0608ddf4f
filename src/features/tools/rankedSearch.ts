import * as vscode from 'vscode';
import { toAbortSignal } from '../../platform/cancellation';
import type { SearchHit, SearchRequest, WorkspaceSearch } from '../../platform/workspaceTextSearch';

/** The shape of the reranked workspace search (src/features/search) the tool needs; structural. */
export interface RankedSearchSource {
  searchWorkspace(query: string, options?: { signal?: AbortSignal }): Promise<{
    hits: ReadonlyArray<{ uri: vscode.Uri; path: string; startLine: number; endLine: number; preview: string; rerankScore?: number | undefined }>;
    notes: readonly string[];
  }>;
}

/**
 * The search tool over the reranked search (local index, embeddings, rerank), with the lexical
 * scan as the fallback for what the index cannot answer (an include glob, an index not built yet).
 */
export class RankedWorkspaceSearch implements WorkspaceSearch {
  constructor(
    private readonly ranked: RankedSearchSource,
    private readonly fallback: WorkspaceSearch,
  ) {}

  async search(request: SearchRequest, token: vscode.CancellationToken): Promise<SearchHit[]> {
    if (request.include) return this.fallback.search(request, token);
    const abort = toAbortSignal(token);
    try {
      const result = await this.ranked.searchWorkspace(request.query, { signal: abort.signal });
      if (result.hits.length === 0) return this.fallback.search(request, token);
      const count = result.hits.length;
      return result.hits.slice(0, request.maxResults).map((hit, rank) => ({
        uri: hit.uri,
        path: hit.path,
        score: hit.rerankScore ?? (count - rank) / count,
        lines: hit.preview
          .split('\n')
          .slice(0, 5)
          .map((text, i) => ({ line: hit.startLine + i, text: text.slice(0, 200) })),
      }));
    } finally {
      abort.dispose();
    }
  }
}
