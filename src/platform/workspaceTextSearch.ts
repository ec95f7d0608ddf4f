import * as vscode from 'vscode';
import { displayPath, readCapped } from './toolWorkspace';

export interface SearchHit {
  readonly uri: vscode.Uri;
  readonly path: string;
  readonly score: number;
  /** Matching lines, 1-based. */
  readonly lines: ReadonlyArray<{ line: number; text: string }>;
}

export interface SearchRequest {
  readonly query: string;
  /** Glob of files to search (workspace-relative); default every file. */
  readonly include?: string | undefined;
  readonly maxResults: number;
  readonly maxFileBytes: number;
}

/**
 * What the search tool asks of a search engine. Lexical here; the reranked search (embeddings +
 * rerank) plugs in through `setWorkspaceSearch` without changing the tool.
 */
export interface WorkspaceSearch {
  search(request: SearchRequest, token: vscode.CancellationToken): Promise<SearchHit[]>;
}

const MAX_FILES = 2000;
const MAX_LINES_PER_FILE = 5;
const MAX_LINE_CHARS = 200;

function terms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}_$.-]+/gu) ?? [];
  return [...new Set(words.filter((w) => w.length > 1))].slice(0, 12);
}

/** Counts term occurrences per file over `findFiles` (the user's excludes apply); phrase matches score more. */
export class LexicalSearch implements WorkspaceSearch {
  async search(request: SearchRequest, token: vscode.CancellationToken): Promise<SearchHit[]> {
    const words = terms(request.query);
    if (words.length === 0) return [];
    const phrase = request.query.trim().toLowerCase();
    const files = await vscode.workspace.findFiles(request.include ?? '**/*', undefined, MAX_FILES, token);
    const hits: SearchHit[] = [];
    for (const uri of files) {
      if (token.isCancellationRequested) break;
      let text: string;
      try {
        const read = await readCapped(uri, request.maxFileBytes);
        if (read.binary) continue;
        text = read.text;
      } catch {
        continue;
      }
      const lower = text.toLowerCase();
      let score = 0;
      for (const w of words) {
        let at = lower.indexOf(w);
        while (at >= 0) {
          score += 1;
          at = lower.indexOf(w, at + w.length);
        }
      }
      if (score === 0) continue;
      if (words.length > 1 && lower.includes(phrase)) score += 10;
      const lines: Array<{ line: number; text: string }> = [];
      const split = text.split(/\r?\n/);
      for (let i = 0; i < split.length && lines.length < MAX_LINES_PER_FILE; i++) {
        const l = split[i] ?? '';
        const ll = l.toLowerCase();
        if (words.some((w) => ll.includes(w))) lines.push({ line: i + 1, text: l.trim().slice(0, MAX_LINE_CHARS) });
      }
      hits.push({ uri, path: displayPath(uri), score, lines });
    }
    return hits.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path)).slice(0, request.maxResults);
  }
}
