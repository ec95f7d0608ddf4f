import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { searchChatCommand } from './chat';
import { showSearchPick } from './quickPick';
import { SearchService, type WorkspaceSearch } from './service';
import type { BatchJobService } from '../../services/batchJobs';
import { registerEmbeddingsBatch, type EmbeddingsBatchArgs, type EmbeddingsBatchOutcome } from './embeddingsBatch';

export type { WorkspaceSearch, WorkspaceSearchHit, WorkspaceSearchResult } from './service';

export const SearchCommands = {
  searchWorkspace: 'stratus.searchWorkspace',
  rebuildIndex: 'stratus.rebuildSearchIndex',
} as const;

/** The search feature: what `register` returns is disposable and is the search others call. */
export interface SearchFeature extends WorkspaceSearch, vscode.Disposable {
  readonly service: SearchService;
  /** The embeddings batch job (host tests, ExtensionMode.Test only). */
  readonly embeddingsBatch?: { run(args?: EmbeddingsBatchArgs): Promise<EmbeddingsBatchOutcome>; apply(jobId: string): Promise<EmbeddingsBatchOutcome> };
}

/**
 * Workspace search: "Stratus: Search Workspace" (a picker), "Stratus: Rebuild Search Index",
 * `@stratus /search`, and `searchWorkspace()` for the language-model tool. The index is built (or
 * loaded) on the first use of one of these, or when the workspace opens if
 * `stratus.search.backgroundIndexing` is on: never merely because Stratus was activated (VS Code
 * activates it to list language models). It never blocks activation.
 */
export function register(deps: Deps, context: Pick<vscode.ExtensionContext, 'storageUri'>, options: { batchJobs: BatchJobService; testMode: boolean }): SearchFeature {
  const service = new SearchService(deps, context.storageUri);
  const embeddingsBatch = registerEmbeddingsBatch(deps, service, options.batchJobs, options.testMode);
  const disposables: vscode.Disposable[] = [
    service,
    embeddingsBatch.disposable,
    vscode.commands.registerCommand(SearchCommands.searchWorkspace, (query?: unknown) => showSearchPick(service, deps.logger, typeof query === 'string' ? query : '')),
    vscode.commands.registerCommand(SearchCommands.rebuildIndex, () => service.index('rebuild')),
    deps.chatCommands.register(searchChatCommand(service)),
  ];
  // Off the activation path: with background indexing on, the build starts once activate() has returned.
  const timer = setTimeout(() => service.start(), 0);
  disposables.push({ dispose: () => clearTimeout(timer) });
  return {
    service,
    ...(options.testMode ? { embeddingsBatch: { run: embeddingsBatch.run, apply: embeddingsBatch.apply } } : {}),
    searchWorkspace: (query, options) => service.searchWorkspace(query, options),
    dispose: () => {
      for (const d of disposables.reverse()) d.dispose();
    },
  };
}
