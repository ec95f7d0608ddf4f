import type { TurnCheckpoints } from './turnCheckpoints';
import { LexicalSearch, type WorkspaceSearch } from '../platform/workspaceTextSearch';

/**
 * Progress of long-running tools (a cloud write following its activity). A tool's `invoke` has no
 * channel to the Chat view, so tools report here and the running @stratus turn shows it.
 */
export class ToolProgress {
  private readonly listeners = new Set<(message: string) => void>();

  report(message: string): void {
    for (const listener of this.listeners) listener(message);
  }

  onDidReport(listener: (message: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
}

/** What the tools and the @stratus turn built on the same Deps share. */
export interface ToolsContext {
  readonly progress: ToolProgress;
  /** The search engine behind stratus_searchWorkspace; the reranked search replaces the lexical one. */
  search: WorkspaceSearch;
  /** Checkpoints of @stratus turns (set by register; absent: turns are not checkpointed). */
  checkpoints?: TurnCheckpoints;
}

// Keyed by the composition root's Deps object, so each activation (and each test's deps) has its own.
const contexts = new WeakMap<object, ToolsContext>();

export function toolsContext(deps: object): ToolsContext {
  let context = contexts.get(deps);
  if (!context) {
    context = { progress: new ToolProgress(), search: new LexicalSearch() };
    contexts.set(deps, context);
  }
  return context;
}
