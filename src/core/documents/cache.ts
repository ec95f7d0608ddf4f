import { createHash } from 'node:crypto';
import type { PageAction, PageOutcome } from './types';

/** Bump when what a cached page holds changes: older entries are then ignored. */
export const CACHE_VERSION = 1;

/** The cache key of a file: the SHA-256 of its bytes (same content, same key, wherever it is). */
export function contentKey(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Where cached documents are kept (a folder in workspace storage, in the feature). */
export interface CacheStore {
  read(key: string): Promise<string | undefined>;
  write(key: string, value: string): Promise<void>;
}

export interface CachedPage {
  readonly action: PageAction;
  readonly markdown: string;
  readonly model?: string | undefined;
}

export interface CachedDocument {
  readonly version: number;
  readonly fileName: string;
  readonly pageCount: number;
  /** Read pages by number (as strings in JSON). */
  readonly pages: Readonly<Record<string, CachedPage>>;
}

const ACTIONS: ReadonlySet<unknown> = new Set(['text', 'ocr', 'empty']);

function validPage(v: unknown): v is CachedPage {
  if (typeof v !== 'object' || v === null) return false;
  const p = v as Record<string, unknown>;
  return ACTIONS.has(p.action) && typeof p.markdown === 'string' && (p.model === undefined || typeof p.model === 'string');
}

/** A stored entry, or undefined when it is missing, of another version, or damaged. */
export function parseCached(text: string | undefined): CachedDocument | undefined {
  if (text === undefined) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const d = v as Record<string, unknown>;
  if (d.version !== CACHE_VERSION || typeof d.fileName !== 'string' || !Number.isSafeInteger(d.pageCount) || typeof d.pages !== 'object' || d.pages === null) return undefined;
  const pages: Record<string, CachedPage> = {};
  for (const [n, page] of Object.entries(d.pages)) if (/^\d+$/.test(n) && validPage(page)) pages[n] = page;
  return { version: CACHE_VERSION, fileName: d.fileName, pageCount: d.pageCount as number, pages };
}

/** Pages read from documents, by content hash: re-reading a known file costs nothing. */
export class DocumentCache {
  constructor(private readonly store: CacheStore) {}

  async get(key: string): Promise<CachedDocument | undefined> {
    return parseCached(await this.store.read(key).catch(() => undefined));
  }

  /** Adds the pages read (done ones only) to the entry of `key`. Never throws: a cache that cannot write is only slower. */
  async put(key: string, fileName: string, pageCount: number, outcomes: readonly PageOutcome[]): Promise<void> {
    const known = await this.get(key);
    const pages: Record<string, CachedPage> = { ...(known?.pages ?? {}) };
    for (const page of outcomes) {
      if (page.status === 'done') pages[String(page.number)] = { action: page.action, markdown: page.markdown ?? '', ...(page.model ? { model: page.model } : {}) };
    }
    const entry: CachedDocument = { version: CACHE_VERSION, fileName, pageCount, pages };
    await this.store.write(key, JSON.stringify(entry)).catch(() => undefined);
  }
}

/** Cached pages as outcomes (done), for the pages asked. */
export function cachedOutcomes(entry: CachedDocument, pages: readonly number[]): PageOutcome[] {
  const out: PageOutcome[] = [];
  for (const n of pages) {
    const page = entry.pages[String(n)];
    if (page) out.push({ number: n, action: page.action, status: 'done', markdown: page.markdown, model: page.model });
  }
  return out;
}
