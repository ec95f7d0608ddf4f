import * as vscode from 'vscode';
import { definitionIn, identifiersNearCursor, LruCache, type ContextSnippet } from '../../core/inlineCompletion';
import { readWorkspaceText } from '../../platform/workspaceFiles';

/** One place the search index found (the shape of the search feature's hits; structural). */
export interface IndexedPlace {
  uri: vscode.Uri;
  /** Workspace-relative path. */
  path: string;
  /** 1-based, inclusive: the lines of the indexed chunk. */
  startLine: number;
  endLine: number;
}

/**
 * What ghost text needs of the workspace search (src/features/search's SearchService fits):
 * whether its index is built, and a local lookup in it (no network, no build started).
 */
export interface DefinitionSearch {
  readonly ready: boolean;
  /**
   * Sync or async: the search feature's index answers either way. Asked with `symbols: false`:
   * the index's exact-name order alone, as a language server's workspace symbols take longer
   * than the time box below on a cold project.
   */
  lexical(query: string, options?: { symbols?: boolean }): readonly IndexedPlace[] | Promise<readonly IndexedPlace[]>;
}

/** A completion waits at most this for definitions; a slower lookup goes on and serves the next keystroke. */
export const DEFINITIONS_TIME_BOX_MS = 40;
/** A lookup is reused this long (the index follows edits; a definition a few seconds old is fine). */
const LOOKUP_TTL_MS = 10_000;
/** Places of an identifier examined for its definition. */
const PLACES_PER_IDENTIFIER = 6;
/** A file bigger than this is not read for a definition. */
const MAX_FILE_BYTES = 512 * 1024;
/** Characters before the cursor searched for names the document defines itself (about the prompt's reach). */
const DEFINED_HERE_WINDOW = 40_000;
/** Definitions come after recent edits (20 - n) and before the open editors (10). */
const DEFINITION_PRIORITY = 15;

interface Found {
  uri: vscode.Uri;
  path: string;
  text: string;
}

type MayContribute = (uri: vscode.Uri) => Promise<boolean>;

/**
 * The definitions of the identifiers near the cursor, found through the search index: only when
 * the index is built (a lookup never starts a build), inside a time box (never holding typing
 * up), each lookup cached for a few seconds. A file is read only if it may contribute (trust,
 * .gitignore, files.exclude: the caller's `mayContribute`, the rule of every other snippet),
 * and that is checked again each time a cached definition is used.
 */
export class DefinitionCollector {
  private search: DefinitionSearch | undefined;
  private readonly lookups = new LruCache<{ at: number; found: Found | undefined }>(200);
  private readonly pending = new Map<string, Promise<Found | undefined>>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Connects the search index (the composition root does, once the search feature exists); returns the previous one. */
  setSearch(search: DefinitionSearch | undefined): DefinitionSearch | undefined {
    const previous = this.search;
    this.search = search;
    this.lookups.clear();
    this.pending.clear();
    return previous;
  }

  async collect(document: vscode.TextDocument, position: vscode.Position, mayContribute: MayContribute, signal?: AbortSignal): Promise<ContextSnippet[]> {
    const search = this.search;
    // Restricted Mode: the caller (ContextCollector) asked the trust gate, and every file found passes mayContribute, which asks it again.
    if (!search?.ready) return [];
    const text = document.getText();
    const offset = document.offsetAt(position);
    // Names defined in the text around the cursor are left out (the prompt shows it); a window
    // keeps that check cheap in a huge file.
    const around = text.slice(Math.max(0, offset - DEFINED_HERE_WINDOW), offset + DEFINED_HERE_WINDOW / 4);
    const names = identifiersNearCursor(text.slice(0, offset), text.slice(offset), around);
    if (names.length === 0) return [];
    const self = document.uri.toString();
    const snippets: ContextSnippet[] = [];
    const work = Promise.all(
      names.map(async (name) => {
        const found = await this.lookup(search, name, self, mayContribute);
        if (!found || signal?.aborted || !(await mayContribute(found.uri))) return;
        snippets.push({ kind: 'definition', path: found.path, text: found.text, priority: DEFINITION_PRIORITY - names.indexOf(name) / 10 });
      }),
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, DEFINITIONS_TIME_BOX_MS)))]);
    clearTimeout(timer);
    return [...snippets].sort((a, b) => b.priority - a.priority);
  }

  private lookup(search: DefinitionSearch, name: string, self: string, mayContribute: MayContribute): Promise<Found | undefined> {
    const cached = this.lookups.get(name);
    if (cached && this.now() - cached.at < LOOKUP_TTL_MS) return Promise.resolve(cached.found);
    const running = this.pending.get(name);
    if (running) return running;
    const started = this.find(search, name, self, mayContribute)
      .catch(() => undefined)
      .then((found) => {
        if (this.pending.get(name) === started) {
          this.pending.delete(name);
          this.lookups.set(name, { at: this.now(), found });
        }
        return found;
      });
    this.pending.set(name, started);
    return started;
  }

  /** The first indexed chunk that defines `name`, outside the current document, in a file that may contribute. */
  private async find(search: DefinitionSearch, name: string, self: string, mayContribute: MayContribute): Promise<Found | undefined> {
    const places = await search.lexical(name, { symbols: false });
    for (const place of places.slice(0, PLACES_PER_IDENTIFIER)) {
      if (place.uri.toString() === self || !(await mayContribute(place.uri))) continue;
      const lines = await linesOf(place.uri);
      if (!lines) continue;
      const chunk = lines.slice(place.startLine - 1, place.endLine).join('\n');
      const definition = definitionIn(name, chunk, place.startLine);
      if (definition) return { uri: place.uri, path: place.path, text: definition.text };
    }
    return undefined;
  }
}

/** The lines of a file: from its open editor if any (unsaved edits included), else from disk (capped). */
async function linesOf(uri: vscode.Uri): Promise<string[] | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText().split(/\r?\n/);
  const read = await readWorkspaceText(uri, MAX_FILE_BYTES);
  return read.ok && !read.binary ? read.text.split(/\r?\n/) : undefined;
}
